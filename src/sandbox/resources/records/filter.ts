// Filters and sorts of the query engine, compiled once per request against the property
// definitions into plain functions over stored records.
//
// A filter entry `{ slug: { operator: value, ... }, ... }` holds conditions that must all
// hold; the entries are joined by the combinator (AND by default). Slugs may be dot paths
// through references (`organization.name`). Operands arrive as strings (or booleans, or
// arrays of strings) and are read in the property's type: `"100"` is the number 100 for a
// num property, a select operand names an option by slug, id or display value, a date
// operand is an ISO-8601 date or date-time.
//
// Semantics (documented in src/sandbox/README.md):
// - `=`, `in`: typed equality; on multi-valued properties, membership.
// - `!=`, `not_in`, `not_contains`: exact negations, so records without a value match.
// - `<`, `>`, `<=`, `>=`, `between` (inclusive; `[low, high]` or `"low,high"`): typed order;
//   select options order by their display order; records without a value never match.
// - `contains`, `begins_with`, `ends_with`: case-insensitive text matching (select values
//   match by slug or display value); `contains` on a multi-valued property is membership,
//   and with an array every element must be there.
// - `is_null`: no value, an empty string or an empty array; `exists`: a value is stored,
//   even an empty one. `false` (or "false") as the operand turns either around.
// - Sorting: typed order, records without a value last in both directions, ties in
//   creation order.

import { ComparisonOperator } from '../../../generated/enums.ts';

import { isPlainObject } from '../../../util/guards.ts';
import type { ObjectType } from '../../object-types.ts';
import {
  fieldProblem,
  findOption,
  isMultiValued,
  optionList,
  optionRank,
  optionsIn,
  type PathStep,
  referenceTarget,
  resolvePath,
  type Scope,
} from '../properties/scope.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import { recordsOf } from './model.ts';
import type { StoredRecord } from './types.ts';
import { normaliseDate } from './values.ts';

/** Every filter operator of the API (from the contract). */
export const OPERATORS = ComparisonOperator;

export type Operator = (typeof OPERATORS)[number];

/** `{ slug: { operator: value } }`; several slugs and operators in one entry must all hold. */
export type FilterEntry = Readonly<Record<string, Readonly<Partial<Record<Operator, unknown>>>>>;

/** `{ slug: 'asc' | 'desc' }`; the array order of entries gives priority. */
export type SortEntry = Readonly<Record<string, 'asc' | 'desc'>>;

export type Combinator = 'AND' | 'OR';

export type Predicate = (record: Readonly<StoredRecord>) => boolean;

/** Names a problem's field from its path inside the spec (`filter[0].amount.>`). */
export type FieldNamer = (path: string) => string;

/** The stored values a path reaches: one per record reached (undefined when unset). */
type Reach = (record: Readonly<StoredRecord>) => unknown[];

/** For a path of one step: the record's own stored value, read without allocating. */
function directOf(
  steps: readonly PathStep[],
): ((record: Readonly<StoredRecord>) => unknown) | undefined {
  if (steps.length !== 1) return undefined;
  const { slug, list_id: listId } = steps[0]!.def;
  return listId === null
    ? (record) => record.default[slug]
    : (record) => record.lists[listId]?.[slug];
}

/**
 * Add to `reached` the types of the records a path reads besides the record itself (the
 * targets of its references): a change of one of those may change what the path gives for
 * any record, while a change of a record changes only what the paths give for it.
 */
function noteReached(steps: readonly PathStep[], reached: Set<ObjectType> | undefined): void {
  for (let i = 1; i < steps.length; i++) reached?.add(steps[i]!.scope.type);
}

/** A predicate: some single value the path reaches passes `test`. */
function someValue(steps: readonly PathStep[], test: (value: unknown) => boolean): Predicate {
  const direct = directOf(steps);
  if (direct !== undefined) {
    return (record) => {
      const value = direct(record);
      if (value === undefined || value === null) return false;
      return Array.isArray(value) ? value.some(test) : test(value);
    };
  }
  const reach = reachOf(steps);
  return (record) => elements(reach(record)).some(test);
}

function reachOf(steps: readonly PathStep[]): Reach {
  const records = recordsOf(steps[0]!.scope.store);
  const last = steps.length - 1;
  const walk = (record: Readonly<StoredRecord>, i: number, out: unknown[]): void => {
    const { def } = steps[i]!;
    const values = i === 0 && def.list_id !== null ? record.lists[def.list_id] : record.default;
    const value = values?.[def.slug];
    if (i === last) {
      out.push(value);
      return;
    }
    const target = referenceTarget(def)!;
    const ids = Array.isArray(value) ? value : value === undefined ? [] : [value];
    for (const id of ids) {
      if (typeof id !== 'string') continue;
      const next = records.get(target, id);
      if (next !== undefined) walk(next, i + 1, out);
    }
  };
  return (record) => {
    const out: unknown[] = [];
    walk(record, 0, out);
    return out;
  };
}

/** The single values among reached values: arrays are spread, unset ones dropped. */
function elements(reached: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const value of reached) {
    if (Array.isArray(value)) out.push(...value);
    else if (value !== undefined && value !== null) out.push(value);
  }
  return out;
}

// ---------------------------------------------------------------- typed values

/** How a definition's single values compare. */
type Kind = 'num' | 'bool' | 'date' | 'select' | 'text';

function kindOf(def: PropertyDefinition): Kind {
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

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

function operand(step: PathStep, raw: unknown, field: string): Operand {
  const { def, scope } = step;
  const text = typeof raw === 'boolean' || typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string') {
    throw fieldProblem(
      field,
      'type',
      `must be a string here, got ${Array.isArray(raw) ? 'an array' : typeof raw}.`,
    );
  }
  switch (kindOf(def)) {
    case 'num': {
      const value = text.trim() === '' ? Number.NaN : Number(text);
      if (!Number.isFinite(value)) {
        throw fieldProblem(field, 'type', `${def.slug} is a number; '${text}' is not one.`);
      }
      return { kind: 'num', value };
    }
    case 'bool':
      if (text !== 'true' && text !== 'false') {
        throw fieldProblem(
          field,
          'type',
          `${def.slug} is a boolean; use true or false, not '${text}'.`,
        );
      }
      return { kind: 'bool', value: text === 'true' };
    case 'date': {
      const date = normaliseDate(text.trim());
      if (date === undefined) {
        throw fieldProblem(
          field,
          'format',
          `${def.slug} is a date; '${text}' is not an ISO-8601 date (2025-03-31) or date-time (2025-03-31T09:30:00Z).`,
        );
      }
      return { kind: 'date', day: date.length === 10 ? date : undefined, ms: Date.parse(date) };
    }
    case 'select': {
      const option = findOption(scope, def, text);
      if (option === undefined) {
        throw fieldProblem(
          field,
          'unknown_option',
          `'${text}' is not an option of ${def.slug} (options: ${optionList(scope, def)}).`,
        );
      }
      return { kind: 'select', value: option.slug, rank: optionRank(def, option.slug) };
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
function order(value: unknown, op: Operand, def: PropertyDefinition): number | undefined {
  switch (op.kind) {
    case 'num':
      return typeof value === 'number' ? value - op.value : undefined;
    case 'bool':
      return typeof value === 'boolean' ? Number(value) - Number(op.value) : undefined;
    case 'date':
      return typeof value === 'string' ? compareDate(value, op) : undefined;
    case 'select':
      return typeof value === 'string' ? optionRank(def, value) - op.rank : undefined;
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

// ---------------------------------------------------------------- filters

type TextTest = (haystack: string, needle: string) => boolean;
const TEXT_TESTS: Partial<Record<Operator, TextTest>> = {
  contains: (h, n) => h.includes(n),
  not_contains: (h, n) => h.includes(n),
  begins_with: (h, n) => h.startsWith(n),
  ends_with: (h, n) => h.endsWith(n),
};

/**
 * Compile filter entries into one predicate; undefined when there is nothing to test. The
 * types of the records its dot paths read are added to `reached` (see `noteReached`).
 */
export function compileFilter(
  scope: Scope,
  filter: readonly FilterEntry[] | undefined,
  combinator: Combinator,
  name: FieldNamer,
  reached?: Set<ObjectType>,
): Predicate | undefined {
  if (filter === undefined || filter.length === 0) return undefined;
  const entries = filter.map((entry, i): Predicate => {
    const at = `filter[${i}]`;
    if (!isPlainObject(entry) || Object.keys(entry).length === 0) {
      throw fieldProblem(name(at), 'type', 'must be an object { slug: { operator: value } }.');
    }
    const conditions: Predicate[] = [];
    for (const [path, comparison] of Object.entries(entry)) {
      const steps = resolvePath(scope, path, name(`${at}.${path}`));
      noteReached(steps, reached);
      if (!isPlainObject(comparison) || Object.keys(comparison).length === 0) {
        throw fieldProblem(
          name(`${at}.${path}`),
          'type',
          `must be an object of operator: value pairs (operators: ${OPERATORS.join(', ')}).`,
        );
      }
      for (const [operator, value] of Object.entries(comparison)) {
        conditions.push(condition(steps, operator, value, name(`${at}.${path}.${operator}`)));
      }
    }
    return conditions.length === 1
      ? conditions[0]!
      : (record) => conditions.every((test) => test(record));
  });
  if (entries.length === 1) return entries[0];
  return combinator === 'OR'
    ? (record) => entries.some((test) => test(record))
    : (record) => entries.every((test) => test(record));
}

/** One (path, operator, value) condition. */
export function condition(
  steps: readonly PathStep[],
  operator: string,
  raw: unknown,
  field: string,
): Predicate {
  const reach = reachOf(steps);
  const last = steps[steps.length - 1]!;
  const { def } = last;
  const multi = isMultiValued(def);
  const one = (value: unknown) => operand(last, value, field);
  const list = (min: number, what: string): Operand[] => {
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
    if (items === undefined || items.length < min) {
      throw fieldProblem(field, 'type', `must be ${what}.`);
    }
    return items.map((item, i) => operand(last, item, `${field}[${i}]`));
  };
  const truth = (): boolean => {
    if (raw === false || raw === 'false') return false;
    if (raw === true || raw === 'true' || Array.isArray(raw) || typeof raw === 'string')
      return true;
    throw fieldProblem(field, 'type', 'must be true or false.');
  };
  const any = (test: (value: unknown) => boolean): Predicate => someValue(steps, test);
  const not =
    (test: Predicate): Predicate =>
    (record) =>
      !test(record);

  switch (operator) {
    case '=': {
      const op = one(raw);
      return any(equalsAny([op]));
    }
    case '!=': {
      const op = one(raw);
      return not(any(equalsAny([op])));
    }
    case 'in':
    case 'not_in': {
      if (!Array.isArray(raw)) throw fieldProblem(field, 'type', 'must be an array of values.');
      const ops = raw.map((item, i) => operand(last, item, `${field}[${i}]`));
      const test = any(equalsAny(ops));
      return operator === 'in' ? test : not(test);
    }
    case '<':
    case '>':
    case '<=':
    case '>=': {
      const op = one(raw);
      const holds = {
        '<': (n: number) => n < 0,
        '>': (n: number) => n > 0,
        '<=': (n: number) => n <= 0,
        '>=': (n: number) => n >= 0,
      }[operator];
      return any((v) => {
        const n = order(v, op, def);
        return n !== undefined && holds(n);
      });
    }
    case 'between': {
      const ops = list(2, 'two values, [low, high] or "low,high"');
      if (ops.length !== 2) {
        throw fieldProblem(field, 'type', 'must be two values, [low, high] or "low,high".');
      }
      const [low, high] = ops as [Operand, Operand];
      return any((v) => {
        const a = order(v, low, def);
        const b = order(v, high, def);
        return a !== undefined && b !== undefined && a >= 0 && b <= 0;
      });
    }
    case 'contains':
    case 'not_contains':
    case 'begins_with':
    case 'ends_with': {
      const test =
        multi && (operator === 'contains' || operator === 'not_contains')
          ? membership(
              reach,
              Array.isArray(raw) ? list(1, 'a value or an array of values') : [one(raw)],
            )
          : textMatch(reach, last, operator, raw, field);
      return operator === 'not_contains' ? not(test) : test;
    }
    case 'is_null':
    case 'is_not_null': {
      const wanted = truth() === (operator === 'is_null');
      return (record) => {
        const empty = elements(reach(record)).every((v) => v === '');
        return empty === wanted;
      };
    }
    case 'exists':
    case 'not_exists': {
      const wanted = truth() === (operator === 'exists');
      return (record) => reach(record).some((v) => v !== undefined) === wanted;
    }
    default:
      throw fieldProblem(
        field,
        'unknown_operator',
        `'${operator}' is not an operator; use one of ${OPERATORS.join(', ')}.`,
      );
  }
}

/** Every operand is among the values (multi-valued properties). */
function membership(reach: Reach, ops: readonly Operand[]): Predicate {
  return (record) => {
    const values = elements(reach(record));
    return ops.every((op) => values.some((v) => equals(v, op)));
  };
}

/** Case-insensitive text matching; select values match by slug or display value. */
function textMatch(
  reach: Reach,
  step: PathStep,
  operator: string,
  raw: unknown,
  field: string,
): Predicate {
  const needles = (Array.isArray(raw) ? raw : [raw]).map((item, i) => {
    if (typeof item !== 'string' && typeof item !== 'boolean') {
      throw fieldProblem(
        Array.isArray(raw) ? `${field}[${i}]` : field,
        'type',
        'must be a string.',
      );
    }
    return String(item).toLowerCase();
  });
  const test = TEXT_TESTS[operator as keyof typeof TEXT_TESTS]!;
  const display = new Map<string, string>();
  if (kindOf(step.def) === 'select') {
    for (const o of optionsIn(step.scope, step.def)) {
      if (o.value !== null) display.set(o.slug, o.value.toLowerCase());
    }
  }
  const matches = (value: unknown, needle: string) => {
    if (test(textOf(value).toLowerCase(), needle)) return true;
    const shown = typeof value === 'string' ? display.get(value) : undefined;
    return shown !== undefined && test(shown, needle);
  };
  return (record) => {
    const values = elements(reach(record));
    return needles.every((needle) => values.some((v) => matches(v, needle)));
  };
}

// ---------------------------------------------------------------- sorting

/** A sort key of one record: a number, a string, or undefined (no value: sorts last). */
export type Key = number | string | undefined;

export interface CompiledSort {
  /** The keys of a record, one per sort path. */
  keys(record: Readonly<StoredRecord>): Key[];
  /** -1 for descending, 1 for ascending, per sort path. */
  directions: number[];
}

/** Compile sort entries; undefined when there are none. Dot paths add to `reached`. */
export function compileSort(
  scope: Scope,
  sort: readonly SortEntry[] | undefined,
  name: FieldNamer,
  reached?: Set<ObjectType>,
): CompiledSort | undefined {
  if (sort === undefined || sort.length === 0) return undefined;
  const extractors: ((record: Readonly<StoredRecord>) => Key)[] = [];
  const directions: number[] = [];
  for (const [i, entry] of sort.entries()) {
    if (!isPlainObject(entry) || Object.keys(entry).length === 0) {
      throw fieldProblem(name(`sort[${i}]`), 'type', 'must be an object { slug: asc | desc }.');
    }
    for (const [path, direction] of Object.entries(entry)) {
      const field = name(`sort[${i}].${path}`);
      if (direction !== 'asc' && direction !== 'desc') {
        throw fieldProblem(field, 'enum', `must be asc or desc, not ${JSON.stringify(direction)}.`);
      }
      const steps = resolvePath(scope, path, field);
      noteReached(steps, reached);
      const def = steps[steps.length - 1]!.def;
      const direct = directOf(steps);
      const reach = reachOf(steps);
      const first =
        direct === undefined
          ? (record: Readonly<StoredRecord>) => elements(reach(record))[0]
          : (record: Readonly<StoredRecord>) => {
              const value = direct(record);
              return Array.isArray(value) ? value[0] : value;
            };
      extractors.push((record) => sortKey(first(record), def));
      directions.push(direction === 'asc' ? 1 : -1);
    }
  }
  return { keys: (record) => extractors.map((key) => key(record)), directions };
}

function sortKey(value: unknown, def: PropertyDefinition): Key {
  if (value === undefined || value === null || value === '') return undefined;
  switch (kindOf(def)) {
    case 'num':
      return typeof value === 'number' ? value : undefined;
    case 'bool':
      return value === true ? 1 : 0;
    case 'date': {
      const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      return Number.isNaN(ms) ? undefined : ms;
    }
    case 'select':
      return typeof value === 'string' ? optionRank(def, value) : undefined;
    case 'text': {
      // Case-insensitive first, then exact (as compareText): one string compared with <.
      const text = textOf(value);
      return `${text.toLowerCase()}\0${text}`;
    }
  }
}

/**
 * The order of two records' keys under `directions` (negative: `a` first); 0 when every key
 * ties (then creation order decides).
 */
export function compareKeys(
  a: readonly Key[],
  b: readonly Key[],
  directions: readonly number[],
): number {
  for (let i = 0; i < directions.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return 1;
    if (y === undefined) return -1;
    let n: number;
    if (typeof x === 'number' && typeof y === 'number') n = x - y;
    else if (typeof x === 'string' && typeof y === 'string') n = x < y ? -1 : 1;
    else n = typeof x === 'number' ? -1 : 1;
    if (n !== 0) return n * directions[i]!;
  }
  return 0;
}

/**
 * Order records (given in creation order) by the compiled sort: keys computed once per
 * record, a stable sort, so ties stay in creation order.
 */
export function sortRecords<T extends Readonly<StoredRecord>>(
  records: T[],
  sort: CompiledSort,
): T[] {
  const keyed = records.map((record) => ({ record, keys: sort.keys(record) }));
  const { directions } = sort;
  keyed.sort((a, b) => compareKeys(a.keys, b.keys, directions));
  return keyed.map((k) => k.record);
}
