// The result sets of the query engine (query.ts): the records a query matches, cached per
// query fingerprint (32 per store) and brought up to date after writes, and the pages taken
// from them. Without this, any write made the next sorted query filter every record of the
// type and sort every match to return 50.
//
// - Catching up: a result set computed before some writes is brought up to date from the
//   records model's change log (`changesSince`) when it still holds those changes: each
//   changed record of the query's type leaves the set and, if it matches now, goes back in
//   where the query's order puts it (a binary search). Changes of other types are skipped,
//   unless the query reads that type through a dot path (`organization.name`): a change
//   there may move any record, so the set is computed again. So is every set when property
//   definitions change (they decide matches and option order).
// - Selecting a page: a set is kept in the query's order once it is sorted. A set just
//   computed for a page near the start (offset + limit at most 1/HEAP_SHARE of the matches)
//   is not sorted: the page comes from a bounded heap (mnemonist's FixedReverseHeap, the
//   offset + limit first of m matches in O(m log(offset + limit))), and the set stays in
//   creation order. The next page it answers (a cursor walk's, or the same query's after a
//   write) sorts it once; from then on pages are slices and writes cost a binary search.
// - The order: the sort's typed keys (filter.ts `compareKeys`), ties in creation order, the
//   same order a stable full sort of the matches in creation order gives, on every path. A
//   record's place in creation order is its ordinal: its place among every record of its
//   type, soft-deleted ones included (records are never removed, so ordinals never change);
//   `ordinalsOf` keeps them per type, built on the first catching up that needs them and
//   then extended by the change log's creations.

import { FixedReverseHeap } from 'mnemonist';
import { OBJECT_TYPES, type ObjectType } from '../../object-types.ts';
import { perStore, type Store } from '../../store.ts';
import { definitionsIn, type Scope } from '../properties/scope.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import { type CompiledSort, compareKeys, type Key, type Predicate, sortRecords } from './filter.ts';
import { recordsOf } from './model.ts';
import type { StoredRecord } from './types.ts';

/** A compiled query: what decides its result set and its order. */
export interface CompiledQuery {
  scope: Scope;
  /** Keeps a record in the result set (list membership, ids, filter); not `deleted`. */
  keep: Predicate;
  sort: CompiledSort | undefined;
  /** Soft-deleted records are kept too. */
  deleted: boolean;
  /** The types of the records the filter and sort read through dot paths. */
  reached: ReadonlySet<ObjectType>;
  /** Identifies the result set and its order. */
  fingerprint: string;
}

/** A page of records, as taken from the result set. */
export interface Window {
  records: Readonly<StoredRecord>[];
  hasMore: boolean;
  total?: number;
}

/**
 * A set just computed answers a page from a heap when offset + limit is at most this share
 * of its matches, else it is sorted (bench/sandbox-query.mjs measures both).
 */
export const HEAP_SHARE = 8;

/** The page at `offset` (`limit` records) of a compiled query, with the total if asked. */
export function pageOf(
  query: CompiledQuery,
  offset: number,
  limit: number,
  withTotal: boolean,
): Window {
  const set = resultSet(query, query.sort !== undefined || withTotal || offset > 0);
  if (set === undefined) return firstPage(query, limit);
  const end = offset + limit;
  let records: Readonly<StoredRecord>[];
  if (set.ordered) {
    records = set.records.slice(offset, end);
  } else if (!set.answered && end * HEAP_SHARE <= set.records.length) {
    records = firstOf(set.records, end, query.sort!).slice(offset);
  } else {
    set.records = sortRecords(set.records, query.sort!);
    set.ordered = true;
    records = set.records.slice(offset, end);
  }
  set.answered = true;
  const window: Window = { records, hasMore: set.records.length > end };
  if (withTotal) window.total = set.records.length;
  return window;
}

/** The first page of an unsorted query without a total: creation order, up to one past it. */
function firstPage(query: CompiledQuery, limit: number): Window {
  const records: Readonly<StoredRecord>[] = [];
  for (const record of everyRecord(query)) {
    if (!matches(query, record)) continue;
    if (records.length === limit) return { records, hasMore: true };
    records.push(record);
  }
  return { records, hasMore: false };
}

/** Every record of the query's type in creation order, soft-deleted ones included. */
function everyRecord(query: CompiledQuery): IterableIterator<Readonly<StoredRecord>> {
  return recordsOf(query.scope.store).records(query.scope.type, { includeDeleted: true });
}

/** `record` is in the query's result set. */
function matches(query: CompiledQuery, record: Readonly<StoredRecord>): boolean {
  return (query.deleted || record.deleted_at === null) && query.keep(record);
}

/** A record with its sort keys and its place in creation order among the matches. */
interface Keyed {
  record: Readonly<StoredRecord>;
  keys: Key[];
  at: number;
}

/** The first `count` of `records` (in creation order) in the sort's order: a bounded heap. */
function firstOf(
  records: readonly Readonly<StoredRecord>[],
  count: number,
  sort: CompiledSort,
): Readonly<StoredRecord>[] {
  const { directions } = sort;
  const heap = new FixedReverseHeap<Keyed>(
    Array,
    (a, b) => compareKeys(a.keys, b.keys, directions) || a.at - b.at,
    count,
  );
  for (let at = 0; at < records.length; at++) {
    const record = records[at]!;
    heap.push({ record, keys: sort.keys(record), at });
  }
  // Built with Array, the heap gives an array of its items.
  return (heap.consume() as Keyed[]).map((item) => item.record);
}

// ---------------------------------------------------------------- result sets

interface ResultSet {
  /** The records' generation the set is exact at. */
  generation: number;
  /** The definitions arrays the set was computed with (the properties model's caches). */
  definitions: readonly (readonly PropertyDefinition[])[];
  /** The matches: in the query's order when `ordered`, else in creation order. */
  records: Readonly<StoredRecord>[];
  ordered: boolean;
  /** The set has answered a page. */
  answered: boolean;
}

/**
 * A set catches up with at most this many changed records of its type; more, and it is
 * computed again. Each costs a search and two moves in the set (about 1 ms at 100,000
 * matches), so 128 cost at most about half a new set's heap page (bench/sandbox-query.mjs).
 */
export const CATCH_UP_MAX = 128;

/** Result sets kept per store (most recently used last). */
const CACHE_SIZE = 32;
const cacheOf = perStore(() => new Map<string, ResultSet>());

/**
 * The result set of a compiled query: cached (brought up to date when it can be), else
 * computed (and cached) when `build`, else undefined.
 */
function resultSet(query: CompiledQuery, build: boolean): ResultSet | undefined {
  const { store } = query.scope;
  const cache = cacheOf(store);
  const definitions = definitionsSeen(query.scope);
  let set = cache.get(query.fingerprint);
  if (
    set === undefined ||
    set.definitions.length !== definitions.length ||
    !set.definitions.every((defs, i) => defs === definitions[i]) ||
    !catchUp(set, query)
  ) {
    if (!build) return undefined;
    const records: Readonly<StoredRecord>[] = [];
    for (const record of everyRecord(query)) if (matches(query, record)) records.push(record);
    set = {
      generation: recordsOf(store).generation,
      definitions,
      records,
      ordered: query.sort === undefined,
      answered: false,
    };
  }
  cache.delete(query.fingerprint);
  cache.set(query.fingerprint, set);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return set;
}

/** Every definitions array a query of this scope may have read (dot paths reach any type). */
function definitionsSeen(scope: Scope): (readonly PropertyDefinition[])[] {
  const seen = OBJECT_TYPES.map((type) => definitionsIn({ ...scope, type, listId: null }));
  if (scope.listId !== null) seen.push(definitionsIn(scope));
  return seen;
}

/**
 * Bring `set` up to date with the records' changes since it was computed; false when it
 * cannot be (the changes are no longer all known, or one may move any record).
 */
function catchUp(set: ResultSet, query: CompiledQuery): boolean {
  const model = recordsOf(query.scope.store);
  if (set.generation === model.generation) return true;
  const changes = model.changesSince(set.generation);
  if (changes === undefined) return false;
  const { type } = query.scope;
  const changed = new Set<Readonly<StoredRecord>>();
  const created = new Set<Readonly<StoredRecord>>();
  for (const change of changes) {
    if (query.reached.has(change.type)) return false;
    if (change.type !== type) continue;
    changed.add(change.record);
    if (change.created) created.add(change.record);
  }
  if (changed.size > CATCH_UP_MAX) return false;
  if (changed.size > 0) {
    const ordinals = ordinalsOf(query.scope.store, type);
    // Every changed record leaves before any goes back: the binary searches below then
    // compare only with records whose keys are what they were when the set was ordered.
    for (const record of changed) {
      if (created.has(record)) continue;
      const at = set.records.indexOf(record);
      if (at >= 0) set.records.splice(at, 1);
    }
    for (const record of changed) {
      if (matches(query, record))
        set.records.splice(placeOf(set, query, record, ordinals), 0, record);
    }
  }
  set.generation = model.generation;
  return true;
}

/** Where `record` goes in the set's order: after every record that comes before it. */
function placeOf(
  set: ResultSet,
  query: CompiledQuery,
  record: Readonly<StoredRecord>,
  ordinals: Ordinals,
): number {
  const { sort } = query;
  const ordinal = ordinals.of(record);
  const keys = set.ordered && sort !== undefined ? sort.keys(record) : undefined;
  let low = 0;
  let high = set.records.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const other = set.records[middle]!;
    const order =
      (keys === undefined ? 0 : compareKeys(keys, sort!.keys(other), sort!.directions)) ||
      ordinal - ordinals.of(other);
    if (order < 0) high = middle;
    else low = middle + 1;
  }
  return low;
}

// ---------------------------------------------------------------- ordinals

/** The places of records of one type in creation order. */
interface Ordinals {
  of(record: Readonly<StoredRecord>): number;
}

interface OrdinalIndex {
  generation: number;
  places: Map<Readonly<StoredRecord>, number>;
}

const ordinalIndexesOf = perStore(() => new Map<ObjectType, OrdinalIndex>());

/** The ordinals of the records of `type`, up to date. */
function ordinalsOf(store: Store, type: ObjectType): Ordinals {
  const indexes = ordinalIndexesOf(store);
  const model = recordsOf(store);
  let index = indexes.get(type);
  const changes = index === undefined ? undefined : model.changesSince(index.generation);
  if (index === undefined || changes === undefined) {
    const places = new Map<Readonly<StoredRecord>, number>();
    for (const record of model.records(type, { includeDeleted: true })) {
      places.set(record, places.size);
    }
    index = { generation: model.generation, places };
    indexes.set(type, index);
  } else {
    for (const change of changes) {
      if (change.created && change.type === type)
        index.places.set(change.record, index.places.size);
    }
    index.generation = model.generation;
  }
  const { places } = index;
  return { of: (record) => places.get(record)! };
}
