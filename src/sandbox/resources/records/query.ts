// The query engine of records, shared by the record list and query endpoints and by views
// (`include=records`): filter, sort, select and paginate the records of one object type.
//
//   runQuery(store, teamId, 'deal', { filter, sort, select, limit, cursor }) → PageResult
//
// Pagination is by offset, carried in an opaque cursor: base64url of JSON
// `{ v: 1, o: offset, l: limit, q: fingerprint }`, where the fingerprint hashes what decides
// the result set and its order (type, filter, combinator, sort, list, deleted, ids). A cursor
// handed to another query is refused with 400. A cursor fixes the page size it was issued
// with; `page` (1-based) is the older way to the same offsets.
//
// Performance (results.ts): an unsorted first page without a total scans only up to the end
// of the page. Other pages, sorted pages and totals come from the query's result set, cached
// per fingerprint and brought up to date after writes from the records' change log; a sorted
// page near the start of a set just computed comes from a bounded heap, not a full sort.

import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../util/canonical-json.ts';
import { isPlainObject } from '../../../util/guards.ts';
import { invalidRequest } from '../../errors.ts';
import type { ObjectType } from '../../object-types.ts';
import type { Store } from '../../store.ts';
import { fieldProblem, type Scope } from '../properties/scope.ts';
import {
  type Combinator,
  compileFilter,
  compileSort,
  type FieldNamer,
  type FilterEntry,
  type Predicate,
  type SortEntry,
} from './filter.ts';
import { recordsOf } from './model.ts';
import { compileSelect, project, rowValues } from './present.ts';
import { type CompiledQuery, pageOf, type Window } from './results.ts';
import type { StoredRecord, Values } from './types.ts';

export type { Combinator, FieldNamer, FilterEntry, Operator, SortEntry } from './filter.ts';
export { OPERATORS } from './filter.ts';

/** Page size when none is given, and the largest allowed. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 50;

/** What to fetch. Every field is optional; an empty spec is the first page of everything. */
export interface QuerySpec {
  /** Slugs and dot paths (`organization.name`) to return; undefined: every value. */
  select?: readonly string[] | undefined;
  filter?: readonly FilterEntry[] | undefined;
  /** How filter entries combine; default AND. */
  combinator?: Combinator | undefined;
  /** Array order gives priority. Default: creation order. */
  sort?: readonly SortEntry[] | undefined;
  /** 1 to 50; default 50. Ignored when a cursor is given (the cursor carries it). */
  limit?: number | undefined;
  /** A next_cursor of the same query. Wins over page. */
  cursor?: string | undefined;
  /** 1-based page number (deprecated in the API; use cursor). */
  page?: number | undefined;
  /** Only members of this list; its list-scoped properties become visible. */
  list_id?: string | null | undefined;
  /** Include soft-deleted records. */
  deleted?: boolean | undefined;
  /** Add `total`, the number of matching records ignoring pagination. */
  include_total?: boolean | undefined;
  /** Only records with these ids. */
  ids?: readonly string[] | undefined;
  /**
   * These records first, in this order (those the query matches), then the other matches in
   * the query's order: a view's pinned records (its `record_order`).
   */
  pinned?: readonly string[] | undefined;
}

/** A row of a page. */
export interface RecordRow {
  id: string;
  properties: Values;
}

/** The page envelope of api.md. */
export interface PageResult {
  data: RecordRow[];
  has_more: boolean;
  next_cursor: string | null;
  /** Present only when include_total was set. */
  total?: number;
}

export interface QueryOptions {
  /**
   * Names the field of a problem from its path inside the spec (`limit`, `cursor`,
   * `select[2]`, `filter[0].amount.>`, `sort[1].name`). Default: `query.<path>`.
   */
  field?: FieldNamer;
}

/**
 * Run a query over the records of `objectType` of team `teamId`. Throws SandboxError 400
 * (invalid_request, with the field named by options.field) for a spec that names unknown
 * properties or operators, carries operands of the wrong type, or a foreign cursor.
 */
export function runQuery(
  store: Store,
  teamId: string,
  objectType: ObjectType,
  spec: QuerySpec,
  options: QueryOptions = {},
): PageResult {
  const name = options.field ?? ((path: string) => `query.${path}`);
  const listId = spec.list_id ?? null;
  const scope: Scope = { store, teamId, type: objectType, listId };
  const pinned = [...new Set(spec.pinned ?? [])];
  const compiled = compile(scope, spec, name, pinned);
  const projection = compileSelect(scope, checkStrings(spec.select, name('select')), name);

  let limit = checkInteger(spec.limit, name('limit'), 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
  let offset = 0;
  if (spec.cursor !== undefined) {
    ({ offset, limit } = decodeCursor(spec.cursor, compiled.fingerprint, name('cursor')));
  } else {
    const page = checkInteger(spec.page, name('page'), 1, Number.MAX_SAFE_INTEGER);
    if (page !== undefined) offset = (page - 1) * limit;
  }

  const window =
    pinned.length === 0
      ? pageOf(compiled, offset, limit, spec.include_total === true)
      : pinnedFirst(compiled, pinned, offset, limit, spec.include_total === true);
  const result: PageResult = {
    data: window.records.map((record) => ({
      id: record.id,
      properties: project(scope, rowValues(record, listId), projection),
    })),
    has_more: window.hasMore,
    next_cursor: window.hasMore
      ? encodeCursor({ offset: offset + limit, limit, fingerprint: compiled.fingerprint })
      : null,
  };
  if (window.total !== undefined) result.total = window.total;
  return result;
}

/**
 * The records of a type (not soft-deleted) whose property `slug` equals `value` (a string,
 * read in the property's type as filters read it): find and upsert by value. Problems name
 * `slugField` (an unknown slug) or `valueField` (a value the property cannot hold).
 */
export function recordsWhereEquals(
  scope: Scope,
  slug: string,
  value: string,
  slugField: string,
  valueField: string,
): Readonly<StoredRecord>[] {
  const predicate = compileFilter(scope, [{ [slug]: { '=': value } }], 'AND', (path) =>
    path.endsWith('.=') ? valueField : slugField,
  );
  const out: Readonly<StoredRecord>[] = [];
  for (const record of recordsOf(scope.store).records(scope.type)) {
    if (predicate === undefined || predicate(record)) out.push(record);
  }
  return out;
}

/**
 * A page of `pinned` (those the query matches, in their order) followed by the query's other
 * matches (`query` leaves the pinned out): offsets run over the two together.
 */
function pinnedFirst(
  query: CompiledQuery & { matches: Predicate },
  pinned: readonly string[],
  offset: number,
  limit: number,
  withTotal: boolean,
): Window {
  const { store, type } = query.scope;
  const model = recordsOf(store);
  const first: Readonly<StoredRecord>[] = [];
  for (const id of pinned) {
    const record = model.get(type, id);
    if (record !== undefined && (query.deleted || record.deleted_at === null)) {
      if (query.matches(record)) first.push(record);
    }
  }
  const records = first.slice(offset, offset + limit);
  const need = limit - records.length;
  const rest = pageOf(query, Math.max(0, offset - first.length), Math.max(need, 1), withTotal);
  if (need > 0) records.push(...rest.records);
  const window: Window = {
    records,
    hasMore: need > 0 ? rest.hasMore : offset + limit < first.length || rest.records.length > 0,
  };
  if (withTotal) window.total = first.length + (rest.total ?? 0);
  return window;
}

// ---------------------------------------------------------------- compiling

function compile(
  scope: Scope,
  spec: QuerySpec,
  name: FieldNamer,
  pinned: readonly string[] = [],
): CompiledQuery & { matches: Predicate } {
  const combinator = spec.combinator ?? 'AND';
  if (combinator !== 'AND' && combinator !== 'OR') {
    throw fieldProblem(
      name('combinator'),
      'enum',
      `must be AND or OR, not ${JSON.stringify(combinator)}.`,
    );
  }
  if (spec.filter !== undefined && !Array.isArray(spec.filter)) {
    throw fieldProblem(
      name('filter'),
      'type',
      'must be an array of { slug: { operator: value } }.',
    );
  }
  if (spec.sort !== undefined && !Array.isArray(spec.sort)) {
    throw fieldProblem(name('sort'), 'type', 'must be an array of { slug: asc | desc }.');
  }
  const ids = checkStrings(spec.ids, name('id'));
  const reached = new Set<ObjectType>();
  const filter = compileFilter(scope, spec.filter, combinator, name, reached);
  const sort = compileSort(scope, spec.sort, name, reached);
  const idSet = ids === undefined ? undefined : new Set(ids);
  const { listId } = scope;
  const matches: Predicate = (record) =>
    (listId === null || record.lists[listId] !== undefined) &&
    (idSet === undefined || idSet.has(record.id)) &&
    (filter === undefined || filter(record));
  // With pinned records, the result set is the other matches (the pinned come first).
  const pinnedSet = new Set(pinned);
  const keep: Predicate =
    pinnedSet.size === 0 ? matches : (record) => !pinnedSet.has(record.id) && matches(record);
  const fingerprint = createHash('sha256')
    .update(
      canonicalJson({
        team: scope.teamId,
        type: scope.type,
        filter: spec.filter ?? [],
        combinator,
        sort: spec.sort ?? [],
        list_id: listId,
        deleted: spec.deleted === true,
        ids: ids === undefined ? null : [...new Set(ids)].sort(),
        ...(pinned.length === 0 ? {} : { pinned }),
      }),
    )
    .digest('base64url')
    .slice(0, 16);
  return { scope, keep, matches, sort, deleted: spec.deleted === true, reached, fingerprint };
}

function checkStrings(value: unknown, field: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw fieldProblem(field, 'type', 'must be an array of strings.');
  }
  return value;
}

function checkInteger(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) {
    return value;
  }
  const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `${min} to ${max}`;
  const code = typeof value !== 'number' ? 'type' : value > max ? 'maximum' : 'minimum';
  throw fieldProblem(field, code, `must be an integer ${range}, got ${JSON.stringify(value)}.`);
}

// ---------------------------------------------------------------- cursors

interface CursorState {
  offset: number;
  limit: number;
  fingerprint: string;
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(
    JSON.stringify({ v: 1, o: state.offset, l: state.limit, q: state.fingerprint }),
  ).toString('base64url');
}

function decodeCursor(cursor: string, fingerprint: string, field: string): CursorState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const state = isPlainObject(parsed) ? parsed : {};
  const offset = state['o'];
  const limit = state['l'];
  if (
    state['v'] !== 1 ||
    typeof offset !== 'number' ||
    !Number.isSafeInteger(offset) ||
    offset < 0 ||
    typeof limit !== 'number' ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > MAX_LIMIT ||
    typeof state['q'] !== 'string'
  ) {
    throw invalidRequest(
      `${field}: this is not a cursor the API issued. Pass next_cursor back exactly as received, or leave the cursor out to start from the first page.`,
      [{ field, code: 'invalid_cursor', message: 'not a cursor the API issued' }],
    );
  }
  if (state['q'] !== fingerprint) {
    throw invalidRequest(
      `${field}: the cursor belongs to another query (a different filter, sort, list, deleted or id set). Send the same query with its next_cursor, or leave the cursor out to start from the first page.`,
      [{ field, code: 'cursor_mismatch', message: 'the cursor belongs to another query' }],
    );
  }
  return { offset, limit, fingerprint };
}
