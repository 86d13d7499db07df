// The comparators of the API's filters (`{ slug: { operator: value } }`) over plain values:
// how an operand is read in a property's type and how it compares with stored values. One
// definition shared by the sandbox's record query engine (src/sandbox/resources/records/
// filter.ts, which walks records and dot paths to the values) and the automation evaluator
// (src/automation-engine/evaluate.ts, which the CLI may import too): a condition holds the same
// way in a record query, in an automation run by the sandbox and in `ws automations test`.
// It imports neither the sandbox nor the CLI.
//
// Semantics (documented in docs/sandbox-reference.md, "Query"):
// - `=`, `in`: typed equality; on multi-valued properties, membership.
// - `!=`, `not_in`, `not_contains`: exact negations, so records without a value match.
// - `<`, `>`, `<=`, `>=`, `between` (inclusive; `[low, high]` or `"low,high"`): typed order;
//   select options order by their display order; records without a value never match.
// - `contains`, `begins_with`, `ends_with`: case-insensitive text matching (select values
//   match by slug or display value); `contains` on a multi-valued property is membership,
//   and with an array every element must be there.
// - `is_null`: no value, an empty string or an empty array; `exists`: a value is stored,
//   even an empty one. `false` (or "false") as the operand turns either around.
//
// Operands arrive as strings (or booleans, or arrays of strings) and are read in the
// property's type: `"100"` is the number 100 for a num property, a select operand names an
// option by slug, id or display value, a date operand is an ISO-8601 date or date-time.

import { ComparisonOperator } from '../generated/enums.ts';

/** Every filter operator of the API (from the contract). */
export const OPERATORS = ComparisonOperator;

export type Operator = (typeof OPERATORS)[number];

/** What a comparison needs of a property definition. */
export interface ComparedDefinition {
  readonly slug: string;
  readonly type: string;
}

/** An option of a select definition, as far as comparisons read it. */
export interface ComparedOption {
  readonly slug: string;
  /** Display value. */
  readonly value: string | null;
}

/** The options a select operand may name, as the definition shows them where it is read. */
export interface OptionSource {
  /** The option a text names: its slug, its id, or its display value or slug ignoring case. */
  find(text: string): ComparedOption | undefined;
  /** The options shown, in display order. */
  shown(): readonly ComparedOption[];
  /** The position of an option in the definition's display order (unknown slugs last). */
  rank(slug: string): number;
}

/** A filter that cannot be read: `field` names where, `code` what (`type`, `unknown_option`, …). */
export class ComparisonProblem extends Error {
  readonly field: string;
  readonly code: string;
  /** The message without the field. */
  readonly detail: string;
  constructor(field: string, code: string, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'ComparisonProblem';
    this.field = field;
    this.code = code;
    this.detail = detail;
  }
}

/**
 * A compiled comparison. `some`: holds when some single value reached passes `test` (the
 * negation of that when `negate`): arrays are spread, unset values dropped. `reached`: a
 * test of every value the path reached (one per record reached; undefined when unset).
 */
export type Comparison =
  | {
      readonly kind: 'some';
      readonly test: (value: unknown) => boolean;
      readonly negate: boolean;
    }
  | {
      readonly kind: 'reached';
      readonly test: (reached: readonly unknown[]) => boolean;
      /** The same test of one value, when it has a cheaper form than `test([value])`. */
      readonly one?: (value: unknown) => boolean;
    };

/** Does the comparison hold for the values a path reached (one per record reached)? */
export function holds(comparison: Comparison, reached: readonly unknown[]): boolean {
  if (comparison.kind === 'reached') return comparison.test(reached);
  return elements(reached).some(comparison.test) !== comparison.negate;
}

/**
 * Does the comparison hold for one value (a property of the record itself)? The same as
 * `holds(comparison, [value])`, without the array.
 */
export function holdsForValue(comparison: Comparison, value: unknown): boolean {
  return valuePredicate(comparison)(value);
}

/** The comparison as a test of one value (a property of the record itself), built once. */
export function valuePredicate(comparison: Comparison): (value: unknown) => boolean {
  if (comparison.kind === 'reached') {
    const { test, one } = comparison;
    return one ?? ((value) => test([value]));
  }
  const { test, negate } = comparison;
  const some = (value: unknown): boolean =>
    value === undefined || value === null
      ? false
      : Array.isArray(value)
        ? value.some(test)
        : test(value);
  return negate ? (value) => !some(value) : some;
}

/** The single values among reached values: arrays are spread, unset ones dropped. */
export function elements(reached: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const value of reached) {
    if (Array.isArray(value)) out.push(...value);
    else if (value !== undefined && value !== null) out.push(value);
  }
  return out;
}

/** Types whose values are arrays: multi_str, multiselect_str and every multiref_*. */
export function isMultiValuedType(type: string): boolean {
  return type === 'multi_str' || type === 'multiselect_str' || type.startsWith('multiref_');
}

// ---------------------------------------------------------------- typed values

/** How a definition's single values compare. */
export type Kind = 'num' | 'bool' | 'date' | 'select' | 'text';

export function kindOf(def: ComparedDefinition): Kind {
  switch (def.type) {
    case 'num':
      return 'num';
    case 'bool':
      return 'bool';
    case 'date':
      return 'date';
    case 'select_str':
    case 'multiselect_str':
      return 'select';
    default:
      return 'text';
  }
}

/** A filter operand read in the property's type. */
type Operand =
  | { kind: 'num'; value: number }
  | { kind: 'bool'; value: boolean }
  /** day: YYYY-MM-DD when the operand is a date; ms: its instant (a date: UTC midnight). */
  | { kind: 'date'; day: string | undefined; ms: number }
  | { kind: 'select'; value: string; rank: number }
  | { kind: 'text'; value: string };

export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** `lead, qualified, won`: the slugs of the options shown, for messages. */
export function optionList(shown: readonly ComparedOption[]): string {
  const slugs = shown.map((o) => o.slug);
  return slugs.length === 0 ? '(none: add options to the property first)' : slugs.join(', ');
}

function operand(
  def: ComparedDefinition,
  options: OptionSource,
  raw: unknown,
  field: string,
): Operand {
  const text = typeof raw === 'boolean' || typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string') {
    throw new ComparisonProblem(
      field,
      'type',
      `must be a string here, got ${Array.isArray(raw) ? 'an array' : typeof raw}.`,
    );
  }
  switch (kindOf(def)) {
    case 'num': {
      const value = text.trim() === '' ? Number.NaN : Number(text);
      if (!Number.isFinite(value)) {
        throw new ComparisonProblem(
          field,
          'type',
          `${def.slug} is a number; '${text}' is not one.`,
        );
      }
      return { kind: 'num', value };
    }
    case 'bool':
      if (text !== 'true' && text !== 'false') {
        throw new ComparisonProblem(
          field,
          'type',
          `${def.slug} is a boolean; use true or false, not '${text}'.`,
        );
      }
      return { kind: 'bool', value: text === 'true' };
    case 'date': {
      const date = normaliseDate(text.trim());
      if (date === undefined) {
        throw new ComparisonProblem(
          field,
          'format',
          `${def.slug} is a date; '${text}' is not an ISO-8601 date (2025-03-31) or date-time (2025-03-31T09:30:00Z).`,
        );
      }
      return { kind: 'date', day: date.length === 10 ? date : undefined, ms: Date.parse(date) };
    }
    case 'select': {
      const option = options.find(text);
      if (option === undefined) {
        throw new ComparisonProblem(
          field,
          'unknown_option',
          `'${text}' is not an option of ${def.slug} (options: ${optionList(options.shown())}).`,
        );
      }
      return { kind: 'select', value: option.slug, rank: options.rank(option.slug) };
    }
    default:
      return { kind: 'text', value: text };
  }
}

/** A test of equality with any of `ops`: a Set lookup, except for dates (compared by day or instant). */
function equalsAny(ops: readonly Operand[]): (value: unknown) => boolean {
  if (ops.some((op) => op.kind === 'date')) return (v) => ops.some((op) => equals(v, op));
  const wanted = new Set<unknown>(ops.flatMap((op) => (op.kind === 'date' ? [] : [op.value])));
  const text = ops.some((op) => op.kind === 'text');
  return text ? (v) => wanted.has(textOf(v)) : (v) => wanted.has(v);
}

function equals(value: unknown, op: Operand): boolean {
  switch (op.kind) {
    case 'num':
    case 'bool':
    case 'select':
      return value === op.value;
    case 'date':
      return typeof value === 'string' && compareDate(value, op) === 0;
    case 'text':
      return textOf(value) === op.value;
  }
}

/** Order of a stored value against an operand; undefined when they do not compare. */
function order(value: unknown, op: Operand, options: OptionSource): number | undefined {
  switch (op.kind) {
    case 'num':
      return typeof value === 'number' ? value - op.value : undefined;
    case 'bool':
      return typeof value === 'boolean' ? Number(value) - Number(op.value) : undefined;
    case 'date':
      return typeof value === 'string' ? compareDate(value, op) : undefined;
    case 'select':
      return typeof value === 'string' ? options.rank(value) - op.rank : undefined;
    case 'text':
      return compareText(textOf(value), op.value);
  }
}

function compareDate(value: string, op: Extract<Operand, { kind: 'date' }>): number | undefined {
  if (op.day !== undefined) {
    const day = value.slice(0, 10);
    return day < op.day ? -1 : day > op.day ? 1 : 0;
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms - op.ms;
}

/** Case-insensitive first, then exact, so the order is total and stable. */
export function compareText(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------- dates

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?$/;

/** YYYY-MM-DD stays as is; a date-time becomes UTC ISO-8601 with ms (no zone: UTC). */
export function normaliseDate(text: string): string | undefined {
  const date = DATE.exec(text);
  if (date !== null) {
    const [, y, m, d] = date;
    return validDay(Number(y), Number(m), Number(d)) ? text : undefined;
  }
  const dt = DATE_TIME.exec(text);
  if (dt === null) return undefined;
  const [, y, m, d, hh, mm, ss, , zone] = dt;
  if (!validDay(Number(y), Number(m), Number(d))) return undefined;
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss ?? 0) > 59) return undefined;
  let iso = text.replace(/ /, 'T').toUpperCase();
  if (zone === undefined) iso += 'Z';
  else if (/^[+-]\d{4}$/.test(zone))
    iso = iso.slice(0, -5) + `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

// ---------------------------------------------------------------- comparisons

type TextTest = (haystack: string, needle: string) => boolean;
const TEXT_TESTS: Partial<Record<Operator, TextTest>> = {
  contains: (h, n) => h.includes(n),
  not_contains: (h, n) => h.includes(n),
  begins_with: (h, n) => h.startsWith(n),
  ends_with: (h, n) => h.endsWith(n),
};

/**
 * Compile one `operator: value` condition on the property `def` (the last step of its
 * path), reading select operands among `options`. Throws ComparisonProblem naming `field`
 * (or `field[i]` for an element) for an unknown operator or an operand the property cannot
 * hold.
 */
export function compileComparison(
  def: ComparedDefinition,
  options: OptionSource,
  operator: string,
  raw: unknown,
  field: string,
): Comparison {
  const multi = isMultiValuedType(def.type);
  const one = (value: unknown) => operand(def, options, value, field);
  const list = (min: number, what: string): Operand[] => {
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
    if (items === undefined || items.length < min) {
      throw new ComparisonProblem(field, 'type', `must be ${what}.`);
    }
    return items.map((item, i) => operand(def, options, item, `${field}[${i}]`));
  };
  const truth = (): boolean => {
    if (raw === false || raw === 'false') return false;
    if (raw === true || raw === 'true' || Array.isArray(raw) || typeof raw === 'string')
      return true;
    throw new ComparisonProblem(field, 'type', 'must be true or false.');
  };
  const some = (test: (value: unknown) => boolean, negate = false): Comparison => ({
    kind: 'some',
    test,
    negate,
  });
  const reached = (
    test: (values: readonly unknown[]) => boolean,
    one?: (value: unknown) => boolean,
  ): Comparison => (one === undefined ? { kind: 'reached', test } : { kind: 'reached', test, one });

  switch (operator) {
    case '=':
      return some(equalsAny([one(raw)]));
    case '!=':
      return some(equalsAny([one(raw)]), true);
    case 'in':
    case 'not_in': {
      if (!Array.isArray(raw)) {
        throw new ComparisonProblem(field, 'type', 'must be an array of values.');
      }
      const ops = raw.map((item, i) => operand(def, options, item, `${field}[${i}]`));
      return some(equalsAny(ops), operator === 'not_in');
    }
    case '<':
    case '>':
    case '<=':
    case '>=': {
      const op = one(raw);
      const passes = {
        '<': (n: number) => n < 0,
        '>': (n: number) => n > 0,
        '<=': (n: number) => n <= 0,
        '>=': (n: number) => n >= 0,
      }[operator];
      return some((v) => {
        const n = order(v, op, options);
        return n !== undefined && passes(n);
      });
    }
    case 'between': {
      const ops = list(2, 'two values, [low, high] or "low,high"');
      if (ops.length !== 2) {
        throw new ComparisonProblem(
          field,
          'type',
          'must be two values, [low, high] or "low,high".',
        );
      }
      const [low, high] = ops as [Operand, Operand];
      return some((v) => {
        const a = order(v, low, options);
        const b = order(v, high, options);
        return a !== undefined && b !== undefined && a >= 0 && b <= 0;
      });
    }
    case 'contains':
    case 'not_contains':
    case 'begins_with':
    case 'ends_with': {
      const test =
        multi && (operator === 'contains' || operator === 'not_contains')
          ? membership(Array.isArray(raw) ? list(1, 'a value or an array of values') : [one(raw)])
          : textMatch(def, options, operator, raw, field);
      return reached(operator === 'not_contains' ? (values) => !test(values) : test);
    }
    case 'is_null':
    case 'is_not_null': {
      const wanted = truth() === (operator === 'is_null');
      return reached(
        (values) => elements(values).every((v) => v === '') === wanted,
        (value) =>
          (value === undefined || value === null
            ? true
            : Array.isArray(value)
              ? value.every((v) => v === '')
              : value === '') === wanted,
      );
    }
    case 'exists':
    case 'not_exists': {
      const wanted = truth() === (operator === 'exists');
      return reached(
        (values) => values.some((v) => v !== undefined) === wanted,
        (value) => (value !== undefined) === wanted,
      );
    }
    default:
      throw new ComparisonProblem(
        field,
        'unknown_operator',
        `'${operator}' is not an operator; use one of ${OPERATORS.join(', ')}.`,
      );
  }
}

/** Every operand is among the values (multi-valued properties). */
function membership(ops: readonly Operand[]): (reached: readonly unknown[]) => boolean {
  return (reached) => {
    const values = elements(reached);
    return ops.every((op) => values.some((v) => equals(v, op)));
  };
}

/** Case-insensitive text matching; select values match by slug or display value. */
function textMatch(
  def: ComparedDefinition,
  options: OptionSource,
  operator: string,
  raw: unknown,
  field: string,
): (reached: readonly unknown[]) => boolean {
  const needles = (Array.isArray(raw) ? raw : [raw]).map((item, i) => {
    if (typeof item !== 'string' && typeof item !== 'boolean') {
      throw new ComparisonProblem(
        Array.isArray(raw) ? `${field}[${i}]` : field,
        'type',
        'must be a string.',
      );
    }
    return String(item).toLowerCase();
  });
  const test = TEXT_TESTS[operator as keyof typeof TEXT_TESTS]!;
  const display = new Map<string, string>();
  if (kindOf(def) === 'select') {
    for (const o of options.shown()) {
      if (o.value !== null) display.set(o.slug, o.value.toLowerCase());
    }
  }
  const matches = (value: unknown, needle: string) => {
    if (test(textOf(value).toLowerCase(), needle)) return true;
    const shown = typeof value === 'string' ? display.get(value) : undefined;
    return shown !== undefined && test(shown, needle);
  };
  return (reached) => {
    const values = elements(reached);
    return needles.every((needle) => values.some((v) => matches(v, needle)));
  };
}
