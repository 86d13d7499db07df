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
// The comparators themselves (how an operand is read in a property's type and how it
// compares with stored values) live in src/filter/compare.ts, shared with the automation
// evaluator; this file walks records and dot paths to the values they compare.
//
// Sorting: typed order, records without a value last in both directions, ties in creation
// order.

import {
  type Comparison,
  ComparisonProblem,
  compileComparison,
  elements,
  kindOf,
  OPERATORS,
  type Operator,
  type OptionSource,
  textOf,
} from '../../../filter/compare.ts';
import { ownValueOf, reachAlong } from '../../../filter/reach.ts';
import { isPlainObject } from '../../../util/guards.ts';
import type { ObjectType } from '../../object-types.ts';
import {
  fieldProblem,
  findOption,
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

export { OPERATORS, type Operator };

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
  return (record) => ownValueOf(record, slug, listId);
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
  return reachAlong(
    steps.map(({ def }) => ({ slug: def.slug, listId: def.list_id, target: referenceTarget(def) })),
    (type, id) => records.get(type as ObjectType, id),
  );
}

/** The options a select operand of `step` may name: those its definition shows in its scope. */
function optionsOf(step: PathStep): OptionSource {
  const { def, scope } = step;
  return {
    find: (text) => findOption(scope, def, text),
    shown: () => optionsIn(scope, def),
    rank: (slug) => optionRank(def, slug),
  };
}

// ---------------------------------------------------------------- filters

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
  const last = steps[steps.length - 1]!;
  let comparison: Comparison;
  try {
    comparison = compileComparison(last.def, optionsOf(last), operator, raw, field);
  } catch (err) {
    if (err instanceof ComparisonProblem) throw fieldProblem(err.field, err.code, err.detail);
    throw err;
  }
  if (comparison.kind === 'some') {
    const test = someValue(steps, comparison.test);
    return comparison.negate ? (record) => !test(record) : test;
  }
  const reach = reachOf(steps);
  const { test } = comparison;
  return (record) => test(reach(record));
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
