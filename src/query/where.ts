// The --where filter syntax shared by `ws views` and `ws records`: expressions in, the
// API's filter array (`[{ slug: { operator: value } }]`) out, and back again for display.
//
//   SLUG OP VALUE        OP: =  !=  <  >  <=  >=  ~ (contains)  !~ (not_contains)
//                            ^= (begins_with)  $= (ends_with)
//   SLUG:OPERATOR=VALUE  any operator by name: eq ne lt gt lte gte contains not_contains
//                        begins_with ends_with between in not_in is_null is_not_null
//                        exists not_exists
//   SLUG:OPERATOR        is_null, is_not_null, exists, not_exists (true); `=false` negates
//
// Values: surrounding spaces are dropped. A value in double quotes is taken as written
// (spaces, an empty string, "true" as text); inside quotes \" is a quote and \\ a
// backslash. between, in and not_in take comma-separated values: write a comma inside one
// as \, or put that value in double quotes. `true`/`false` are booleans for = and != on
// a bool property (or one with no known definition); quote them to mean the text.
import type { Schemas } from '../api/types.ts';
import { UsageError } from '../errors.ts';
import { ComparisonOperator } from '../generated/enums.ts';
import { didYouMean } from '../util/suggest.ts';
import { coerceValue, expected } from '../values/coerce.ts';
import {
  checkPath,
  isSelectType,
  type PropertyDefinition,
  SLUG,
  SLUG_PATH,
  type SlugContext,
} from './slugs.ts';

export type Filter = Schemas['FilterEntry'];
export type Comparison = Schemas['Comparison'];
export type Operator = keyof Comparison & string;
export type Combinator = Schemas['Combinator'];
export type FilterValue = string | boolean | string[];

/** Every operator of the API (from the contract, in the order api.md lists them). */
export const OPERATORS: readonly Operator[] = ComparisonOperator;

/** Operator symbols of the short form, longest first so `>=` wins over `>`. */
const SYMBOLS: readonly (readonly [string, Operator])[] = [
  ['>=', '>='],
  ['<=', '<='],
  ['!=', '!='],
  ['!~', 'not_contains'],
  ['^=', 'begins_with'],
  ['$=', 'ends_with'],
  ['=', '='],
  ['<', '<'],
  ['>', '>'],
  ['~', 'contains'],
];

/** Names of the long form. */
const NAMES: Readonly<Record<string, Operator>> = {
  eq: '=',
  ne: '!=',
  lt: '<',
  gt: '>',
  lte: '<=',
  gte: '>=',
  contains: 'contains',
  not_contains: 'not_contains',
  begins_with: 'begins_with',
  ends_with: 'ends_with',
  between: 'between',
  in: 'in',
  not_in: 'not_in',
  is_null: 'is_null',
  is_not_null: 'is_not_null',
  exists: 'exists',
  not_exists: 'not_exists',
};

/** The short form's symbol of an operator, where it has one. */
const SYMBOL_OF: Partial<Record<Operator, string>> = Object.fromEntries(
  SYMBOLS.map(([symbol, op]) => [op, symbol]),
);
/** The long form's name of an operator. */
const NAME_OF: Partial<Record<string, string>> = Object.fromEntries(
  Object.entries(NAMES).map(([name, op]) => [op, name]),
);

/** The operator a long-form name stands for (`gte` → `>=`), if any. */
export function operatorNamed(name: string): Operator | undefined {
  return NAMES[name.toLowerCase()];
}

type Shape = 'equality' | 'text' | 'flag' | 'pair' | 'list';

const SHAPE: Readonly<Record<Operator, Shape>> = {
  '=': 'equality',
  '!=': 'equality',
  '<': 'text',
  '>': 'text',
  '<=': 'text',
  '>=': 'text',
  contains: 'text',
  not_contains: 'text',
  begins_with: 'text',
  ends_with: 'text',
  is_null: 'flag',
  is_not_null: 'flag',
  exists: 'flag',
  not_exists: 'flag',
  between: 'pair',
  in: 'list',
  not_in: 'list',
};

export const WHERE_SYNTAX =
  'Write SLUG OP VALUE with OP one of = != < > <= >= ~ (contains) !~ (not contains) ^= (begins with) ' +
  '$= (ends with), or SLUG:OPERATOR=VALUE, e.g. amount>=1000, stage:in=won,lost, phone:is_null.';

export interface WhereOptions extends SlugContext {}

interface Piece {
  text: string;
  quoted: boolean;
}

function bad(expr: string, problem: string, hint: string = WHERE_SYNTAX): UsageError {
  return new UsageError(`Bad --where "${expr}": ${problem}.`, hint);
}

/** A double-quoted string starting at s[start] (a `"`): its text and where it ends. */
function readQuoted(s: string, start: number, expr: string): { text: string; end: number } {
  let text = '';
  for (let i = start + 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < s.length) {
      const next = s[i + 1]!;
      text += next === '"' || next === '\\' ? next : c + next;
      i++;
    } else if (c === '"') {
      return { text, end: i + 1 };
    } else {
      text += c;
    }
  }
  throw bad(expr, 'a double quote is not closed', 'Close it; inside quotes write \\" for a quote.');
}

/** One value: trimmed, or exactly what is inside double quotes. */
function scalar(raw: string, expr: string): Piece {
  const t = raw.trim();
  if (!t.startsWith('"')) return { text: t, quoted: false };
  const q = readQuoted(t, 0, expr);
  if (t.slice(q.end).trim() !== '') {
    throw bad(
      expr,
      'there is text after the closing quote',
      'Put the whole value inside the quotes.',
    );
  }
  return { text: q.text, quoted: true };
}

/** Comma-separated values; `\,` is a comma inside a value, `"…"` a value taken as written. */
function list(raw: string, expr: string): Piece[] {
  const items: Piece[] = [];
  let i = 0;
  for (;;) {
    while (i < raw.length && /\s/.test(raw[i]!)) i++;
    if (raw[i] === '"') {
      const q = readQuoted(raw, i, expr);
      items.push({ text: q.text, quoted: true });
      i = q.end;
      while (i < raw.length && /\s/.test(raw[i]!)) i++;
      if (i < raw.length && raw[i] !== ',') {
        throw bad(
          expr,
          `there is text after the closing quote of value ${items.length}`,
          'Separate values with commas; put a whole value inside the quotes.',
        );
      }
    } else {
      let text = '';
      while (i < raw.length && raw[i] !== ',') {
        const c = raw[i]!;
        const next = raw[i + 1];
        if (c === '\\' && (next === ',' || next === '\\')) {
          text += next;
          i += 2;
        } else {
          text += c;
          i++;
        }
      }
      items.push({ text: text.trimEnd(), quoted: false });
    }
    if (i >= raw.length) return items;
    i++; // the comma
  }
}

function flag(raw: string | undefined, expr: string, path: string, op: Operator): boolean {
  if (raw === undefined) return true;
  const v = scalar(raw, expr);
  const lower = v.text.toLowerCase();
  if (!v.quoted && (lower === 'true' || lower === 'false')) return lower === 'true';
  throw bad(
    expr,
    `"${op}" takes true or false, not "${v.text}"`,
    `Write ${path}:${op} alone (true), or ${path}:${op}=false.`,
  );
}

/** A select property's value given by option slug, id or display value, as the option slug. */
function optionSlug(def: PropertyDefinition, value: string, expr: string): string {
  const options = def.options ?? [];
  if (options.length === 0) return value;
  const exact =
    options.find((o) => o.slug === value) ??
    options.find((o) => o.id === value) ??
    options.find((o) => o.value === value);
  if (exact) return exact.id === value ? value : exact.slug;
  const lower = value.toLowerCase();
  const loose = options.filter(
    (o) => o.slug.toLowerCase() === lower || (o.value ?? '').toLowerCase() === lower,
  );
  if (loose.length === 1) return loose[0]!.slug;
  const names = options.map((o) =>
    o.value && o.value !== o.slug ? `${o.slug} (${o.value})` : o.slug,
  );
  const near = didYouMean(value, [
    ...options.map((o) => o.slug),
    ...options.flatMap((o) => (o.value ? [o.value] : [])),
  ]);
  throw bad(
    expr,
    `"${value}" is not an option of "${def.slug}"`,
    `${near ? `${near} ` : ''}Options: ${names.join(', ')}.`,
  );
}

/** The operators whose values the API reads in the property's type (`between`: each of two). */
export const TYPED_OPERATORS: ReadonlySet<string> = new Set([
  '=',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  'between',
  'in',
  'not_in',
]);

/**
 * A value of a typed operator on a property, read as the API reads it: for a number or a
 * date property, the value as sent (numbers without `_`, date-times in UTC) or what is
 * wrong with it; undefined for other types and for dot-paths (whose last property is
 * another type's), which are sent as written.
 */
export function typedValue(
  def: PropertyDefinition | undefined,
  path: string,
  text: string,
): { value: string } | { problem: string } | undefined {
  if (!def || path.includes('.') || (def.type !== 'num' && def.type !== 'date')) return undefined;
  const r = coerceValue(def, text);
  if (r.ok && r.value !== null) return { value: String(r.value) };
  return {
    problem: `"${def.slug}" is a ${def.type === 'num' ? 'number' : 'date'} property, and "${text}" is not ${expected(def)}`,
  };
}

/** A typed operator's value in a --where expression: as sent, or a usage error quoting it. */
function typedText(
  text: string,
  def: PropertyDefinition | undefined,
  path: string,
  op: Operator,
  expr: string,
): string {
  const typed = typedValue(def, path, text);
  if (typed === undefined) return text;
  if ('value' in typed) return typed.value;
  const num = def!.type === 'num';
  const sample =
    SHAPE[op] === 'pair' || SHAPE[op] === 'list'
      ? num
        ? '10,20'
        : '2026-01-01,2026-06-30'
      : num
        ? '10'
        : '2026-03-31';
  const symbol = SYMBOL_OF[op];
  const example = symbol
    ? `${def!.slug}${symbol}${sample}`
    : `${def!.slug}:${NAME_OF[op]}=${sample}`;
  throw bad(expr, typed.problem, `e.g. ${example}.`);
}

function equalityValue(
  piece: Piece,
  def: PropertyDefinition | undefined,
  path: string,
  op: Operator,
  expr: string,
): string | boolean {
  const lower = piece.text.toLowerCase();
  const isBoolText = !piece.quoted && (lower === 'true' || lower === 'false');
  if (def?.type === 'bool') {
    if (isBoolText) return lower === 'true';
    throw bad(
      expr,
      `"${def.slug}" is a true/false property`,
      `Compare it with true or false, e.g. ${def.slug}=true.`,
    );
  }
  if (isBoolText && def === undefined) return lower === 'true';
  if (def && !path.includes('.') && isSelectType(def.type))
    return optionSlug(def, piece.text, expr);
  return typedText(piece.text, def, path, op, expr);
}

/**
 * `id` is not a property: the API's filters cannot name it (a workspace property with the
 * slug `id` can). The error says how to read records by id instead.
 */
export function refuseIdFilter(path: string, opts: SlugContext, where: string): void {
  if (path.split('.')[0] !== 'id' || opts.definitions?.some((d) => d.slug === 'id')) return;
  const type = opts.objectType ?? 'TYPE';
  throw new UsageError(
    `${where}: the API does not filter records by id.`,
    `To read a record by id: ws records get ${type} ID; several: ws records query ${type} --body '{"id":["ID1","ID2"]}'.`,
  );
}

/** Parse one --where expression into one filter entry. */
export function parseWhereExpr(expr: string, opts: WhereOptions = {}): Filter {
  const head = new RegExp(`^\\s*(${SLUG}(?:\\.${SLUG})*)\\s*`).exec(expr);
  if (expr.trim() === '') throw bad(expr, 'it is empty');
  if (!head) throw bad(expr, 'it must start with a property slug');
  const path = head[1]!;
  const rest = expr.slice(head[0].length);
  let op: Operator;
  let raw: string | undefined;
  if (rest.startsWith(':')) {
    const long = /^:\s*([A-Za-z_]+)\s*/.exec(rest);
    const name = long?.[1]?.toLowerCase() ?? '';
    const found = NAMES[name];
    if (!found) {
      const shown = rest.slice(1).split('=')[0]!.trim();
      throw bad(
        expr,
        shown === '' ? 'an operator name must follow ":"' : `"${shown}" is not an operator`,
        `${didYouMean(shown, Object.keys(NAMES)) ?? ''} Operators: ${Object.keys(NAMES).join(', ')}.`.trim(),
      );
    }
    op = found;
    const after = rest.slice(long![0].length);
    if (after.startsWith('=')) raw = after.slice(1);
    else if (after.trim() !== '') throw bad(expr, `"=" must follow the operator ${name}`);
  } else {
    const symbol = SYMBOLS.find(([s]) => rest.startsWith(s));
    if (!symbol) {
      throw bad(
        expr,
        rest.trim() === ''
          ? `no operator follows "${path}"`
          : `"${rest.trim()}" does not start with an operator`,
      );
    }
    op = symbol[1];
    raw = rest.slice(symbol[0].length);
    const flipped = op === '=' && /^\s*[<>]/.exec(raw)?.[0].trim();
    if (flipped) {
      throw bad(
        expr,
        `"=${flipped}" is not an operator`,
        `Did you mean "${flipped}="? To compare with text that starts with "${flipped}", quote it: ${path}="${flipped}…".`,
      );
    }
    if (/^\s*=/.test(raw)) {
      throw bad(
        expr,
        `the value starts with "=" (${symbol[0]}= is not an operator)`,
        `Write ${path}${symbol[0]}VALUE; to compare with a value that starts with "=", quote it.`,
      );
    }
  }

  refuseIdFilter(path, opts, `Bad --where "${expr}"`);
  const def = checkPath(path, opts, `--where "${expr}"`);
  const shape = SHAPE[op];
  let value: FilterValue;
  if (shape === 'flag') {
    value = flag(raw, expr, path, op);
  } else if (raw === undefined || raw.trim() === '') {
    const symbol = SYMBOL_OF[op] ?? '';
    throw bad(
      expr,
      `"${op}" needs ${shape === 'pair' || shape === 'list' ? 'values' : 'a value'}`,
      shape === 'pair'
        ? `e.g. ${path}:between=LOW,HIGH.`
        : shape === 'list'
          ? `e.g. ${path}:${op}=A,B.`
          : shape === 'equality'
            ? `To match an empty string write ${path}${symbol}""; for a missing value, ${path}:is_null.`
            : `e.g. ${path}${symbol}VALUE.`,
    );
  } else if (shape === 'pair' || shape === 'list') {
    const items = list(raw, expr);
    items.forEach((item, i) => {
      if (item.text === '' && !item.quoted) {
        throw bad(
          expr,
          `value ${i + 1} of the list is empty`,
          'Separate values with single commas; write "" for an empty string and \\, for a comma inside a value.',
        );
      }
    });
    if (shape === 'pair' && items.length !== 2) {
      throw bad(
        expr,
        `"between" takes two values, low and high, not ${items.length}`,
        `e.g. ${path}:between=2026-01-01,2026-06-30; write \\, for a comma inside a value.`,
      );
    }
    const mapSelect = shape === 'list' && def && !path.includes('.') && isSelectType(def.type);
    value = items.map((item) =>
      mapSelect ? optionSlug(def, item.text, expr) : typedText(item.text, def, path, op, expr),
    );
  } else {
    const piece = scalar(raw, expr);
    value =
      shape === 'equality'
        ? equalityValue(piece, def, path, op, expr)
        : TYPED_OPERATORS.has(op)
          ? typedText(piece.text, def, path, op, expr)
          : piece.text;
  }
  return { [path]: { [op]: value } as Comparison };
}

/** Parse every --where expression (one filter entry each). */
export function parseWhere(exprs: readonly string[], opts: WhereOptions = {}): Filter[] {
  return exprs.map((e) => parseWhereExpr(e, opts));
}

// ---------------------------------------------------------------- formatting

function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A scalar as --where writes it: quoted when it would otherwise read differently. */
function formatScalar(value: string): string {
  if (
    value === '' ||
    value !== value.trim() ||
    /^["=<>]/.test(value) ||
    /^(true|false)$/i.test(value)
  ) {
    return quote(value);
  }
  return value;
}

/** A value of a list: quoted when it would otherwise read differently, commas escaped. */
function formatItem(value: string): string {
  if (value === '' || value !== value.trim() || value.startsWith('"')) return quote(value);
  return value.replace(/[\\,]/g, (c) => `\\${c}`);
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return formatScalar(value);
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** One comparison as a --where expression. */
export function formatComparison(path: string, op: string, value: unknown): string {
  const slug = SLUG_PATH.test(path) ? path : JSON.stringify(path);
  const name = NAME_OF[op] ?? op;
  if (SHAPE[op as Operator] === 'flag') {
    return value === true ? `${slug}:${name}` : `${slug}:${name}=${formatValue(value)}`;
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return `${slug}:${name}=${value.map(formatItem).join(',')}`;
  }
  const symbol = SYMBOL_OF[op as Operator];
  if (
    symbol &&
    (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
  ) {
    return `${slug}${symbol}${formatValue(value)}`;
  }
  return `${slug}:${name}=${formatValue(value)}`;
}

/**
 * A filter array as --where expressions, one per comparison. Parsing them again gives the
 * same filter for anything --where can write.
 */
export function formatWhere(filter: readonly Filter[] | null | undefined): string[] {
  const out: string[] = [];
  for (const entry of filter ?? []) {
    for (const [path, comparison] of Object.entries(entry ?? {})) {
      if (!comparison || typeof comparison !== 'object') {
        out.push(`${path}:${JSON.stringify(comparison)}`);
        continue;
      }
      for (const [op, value] of Object.entries(comparison))
        out.push(formatComparison(path, op, value));
    }
  }
  return out;
}
