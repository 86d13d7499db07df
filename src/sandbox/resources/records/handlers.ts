// Record operations: request in, reply out, over the records model, the value checks
// (values.ts), the query engine (query.ts) and the read shapes (present.ts).

import type { components } from '../../../generated/api-types.ts';
import { isPlainObject } from '../../../util/guards.ts';
import { notFound, SandboxError } from '../../errors.ts';
import type { ObjectType } from '../../object-types.ts';
import { queryFlag, queryValue, recordScope, requireRecord } from '../../request.ts';
import type { Reply, RequestContext } from '../../resource.ts';
import { definitionIn, type Scope, unknownProperty } from '../properties/scope.ts';
import type { WriteCause, WriteSource } from './events.ts';
import type { FilterEntry, SortEntry } from './filter.ts';
import { newRecord, recordsOf } from './model.ts';
import { compileSelect, etagOf, type Projection, recordBody } from './present.ts';
import { type QuerySpec, recordsWhereEquals, runQuery } from './query.ts';
import type { StoredRecord } from './types.ts';
import { checkWrite, type RecordInput, valueFromText } from './values.ts';

// ---------------------------------------------------------------- single records

/** POST /v2/prism/{teamId}/{objectType} → 201 record */
export function createRecord(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const changes = checkWrite(scope, recordInput(ctx.body), 'create');
  const record = recordsOf(ctx.store).create(
    scope.type,
    newRecord(changes),
    causeOf(scope, 'create'),
  );
  return recordReply(scope, record, 201, { created: true });
}

/** GET /v2/prism/{teamId}/{objectType}/{id}?select=&deleted= → record */
export function getRecord(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const record = requireRecord(ctx, scope, { deleted: queryFlag(ctx, 'deleted') });
  const projection = selectParam(ctx, scope);
  return recordReply(scope, record, 200, { projection });
}

/** PATCH /v2/prism/{teamId}/{objectType}/{id} (If-Match) → record */
export function updateRecord(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const record = requireRecord(ctx, scope);
  checkIfMatch(ctx, scope, record);
  const changes = checkWrite(scope, recordInput(ctx.body), 'patch', record);
  const updated = recordsOf(ctx.store).update(
    scope.type,
    record.id,
    changes,
    causeOf(scope, 'patch'),
  );
  return recordReply(scope, updated, 200);
}

/**
 * DELETE /v2/prism/{teamId}/{objectType}/{id} (If-Match) → 204. Deleting a record that is
 * already soft-deleted changes nothing and answers 204 too, so a retried delete succeeds.
 */
export function deleteRecord(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const record = requireRecord(ctx, scope, { deleted: true });
  checkIfMatch(ctx, scope, record);
  recordsOf(ctx.store).softDelete(scope.type, record.id, causeOf(scope, 'delete'));
  return { status: 204 };
}

/** POST /v2/prism/{teamId}/{objectType}/{id}/duplicate → 201 the copy */
export function duplicateRecord(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const record = requireRecord(ctx, scope);
  const copy = recordsOf(ctx.store).create(
    scope.type,
    { default: record.default, lists: record.lists },
    causeOf(scope, 'duplicate'),
  );
  return recordReply(scope, copy, 201, { created: true });
}

/** POST /v2/prism/{teamId}/{objectType}/{id}/restore → the restored record */
export function restoreRecord(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const record = requireRecord(ctx, scope, { deleted: true });
  const restored = recordsOf(ctx.store).restore(scope.type, record.id, causeOf(scope, 'restore'));
  return recordReply(scope, restored, 200);
}

// ---------------------------------------------------------------- by value

/** GET /v2/prism/{teamId}/{objectType}/by/{slug}/{value}?list_id= → the one match */
export function findRecordByValue(ctx: RequestContext): Reply {
  const listId = queryValue(ctx, 'list_id') ?? null;
  const scope = recordScope(ctx, listId);
  const record = oneMatch(ctx, scope, 'find');
  if (record === undefined) {
    const { slug, value } = ctx.params;
    throw notFound(`No ${scope.type} record has ${slug} = '${value}'.`);
  }
  return recordReply(scope, record, 200);
}

/**
 * PUT /v2/prism/{teamId}/{objectType}/by/{slug}/{value}: patch the one match (200), or
 * create a record with the lookup property set when the body does not set it (201).
 */
export function upsertRecordByValue(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const input = recordInput(ctx.body);
  const record = oneMatch(ctx, scope, 'upsert');
  const records = recordsOf(ctx.store);
  if (record !== undefined) {
    const changes = checkWrite(scope, input, 'patch', record);
    const updated = records.update(scope.type, record.id, changes, causeOf(scope, 'upsert'));
    return recordReply(scope, updated, 200);
  }
  const slug = ctx.params['slug']!;
  const given = input.default ?? {};
  const values =
    isPlainObject(given) && !Object.hasOwn(given, slug)
      ? { ...given, [slug]: valueFromText(definitionIn(scope, slug)!, ctx.params['value']!) }
      : given;
  const changes = checkWrite(scope, { ...input, default: values }, 'create');
  const created = records.create(scope.type, newRecord(changes), causeOf(scope, 'upsert'));
  return recordReply(scope, created, 201, { created: true });
}

/** The single active record whose {slug} equals {value}; 409 when several. */
function oneMatch(
  ctx: RequestContext,
  scope: Scope,
  verb: 'find' | 'upsert',
): Readonly<StoredRecord> | undefined {
  const slug = ctx.params['slug']!;
  const value = ctx.params['value']!;
  if (definitionIn(scope, slug) === undefined) throw unknownProperty(scope, slug, 'path.slug');
  const matches = recordsWhereEquals(scope, slug, value, 'path.slug', 'path.value');
  if (matches.length <= 1) return matches[0];
  const ids = matches.map((r) => r.id);
  const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, and ${ids.length - 5} more` : '');
  const advice =
    verb === 'upsert'
      ? `Patch the one you mean by id instead: PATCH /v2/prism/${scope.teamId}/${scope.type}/{id}.`
      : `Read them with the query endpoint, or get the one you mean by id.`;
  throw new SandboxError(
    409,
    'conflict',
    `${matches.length} ${scope.type} records have ${slug} = '${value}' (${shown}); ${verb} by value needs exactly one. ${advice}`,
    undefined,
    { details: { ids } },
  );
}

// ---------------------------------------------------------------- pages

/** Query parameters of the list endpoint that are not equality filters. */
const LIST_PARAMETERS = new Set([
  'cursor',
  'deleted',
  'include_total',
  'limit',
  'list_id',
  'select',
  'sort',
]);

/**
 * GET /v2/prism/{teamId}/{objectType}: a query with an empty body plus conveniences; every
 * other query parameter is an equality filter (repeated: `in`).
 */
export function listRecords(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const filter: FilterEntry[] = [];
  const filterParams: string[] = [];
  for (const [name, value] of Object.entries(ctx.query)) {
    if (LIST_PARAMETERS.has(name)) continue;
    filter.push({ [name]: Array.isArray(value) ? { in: value } : { '=': value } });
    filterParams.push(name);
  }
  const spec: QuerySpec = { filter };
  const limit = queryValue(ctx, 'limit');
  if (limit !== undefined) spec.limit = Math.min(Number(limit), 50);
  const cursor = queryValue(ctx, 'cursor');
  if (cursor !== undefined) spec.cursor = cursor;
  const listId = queryValue(ctx, 'list_id');
  if (listId !== undefined) spec.list_id = listId;
  spec.deleted = queryFlag(ctx, 'deleted');
  spec.include_total = queryFlag(ctx, 'include_total');
  const select = commaList(queryValue(ctx, 'select'));
  if (select !== undefined) spec.select = select;
  const sort = commaList(queryValue(ctx, 'sort'));
  if (sort !== undefined) {
    spec.sort = sort.map(
      (s): SortEntry => (s.startsWith('-') ? { [s.slice(1)]: 'desc' } : { [s]: 'asc' }),
    );
  }
  const page = runQuery(ctx.store, scope.teamId, scope.type, spec, {
    field: (path) => {
      const filterIndex = /^filter\[(\d+)\]/.exec(path)?.[1];
      if (filterIndex !== undefined) return `query.${filterParams[Number(filterIndex)]}`;
      return `query.${path.replace(/\[.*$/, '')}`;
    },
  });
  return { status: 200, body: page };
}

/** POST /v2/prism/{teamId}/{objectType}/query → page */
export function queryRecords(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const body = ctx.body as components['schemas']['QueryBody'];
  const { query } = body;
  const cursorAtTop = query.cursor === undefined && body.cursor !== undefined;
  const spec: QuerySpec = {
    select: query.select,
    filter: query.filter,
    combinator: query.combinator,
    sort: query.sort,
    limit: query.limit,
    page: query.page,
    cursor: query.cursor ?? body.cursor,
    list_id: query.list_id,
    deleted: body.deleted,
    include_total: body.include_total,
    ids: typeof body.id === 'string' ? [body.id] : body.id,
  };
  const page = runQuery(ctx.store, scope.teamId, scope.type, spec, {
    field: (path) => (path === 'id' || (path === 'cursor' && cursorAtTop) ? path : `query.${path}`),
  });
  return { status: 200, body: page };
}

/** GET /v2/prism/{teamId}/{objectType}/count?list_id= → { total } (filters do not apply) */
export function countRecords(ctx: RequestContext): Reply {
  const type = ctx.params['objectType'] as ObjectType;
  const listId = queryValue(ctx, 'list_id');
  const total = recordsOf(ctx.store).count(type, listId === undefined ? {} : { listId });
  return { status: 200, body: { total } };
}

// ---------------------------------------------------------------- batches

interface ItemResult {
  id: string | null;
  status: 'ok' | 'error';
  error?: { code: string; message: string };
  record?: ReturnType<typeof recordBody>;
}

/** POST /v2/prism/{teamId}/{objectType}/batch/update: each item patched on its own. */
export function batchUpdateRecords(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const items = (ctx.body as { items: unknown[] }).items;
  const results = items.map((item, i): ItemResult => {
    if (!isPlainObject(item) || typeof item['id'] !== 'string') {
      return failed(null, 'invalid_request', `items[${i}] is not an object with a string id.`);
    }
    const id = item['id'];
    const extra = Object.keys(item).filter((k) => k !== 'id' && k !== 'default' && k !== 'list');
    if (extra.length > 0) {
      return failed(
        id,
        'invalid_request',
        `items[${i}] has ${extra.map((k) => `'${k}'`).join(', ')}: an item holds id, default and list only (property values go in default).`,
      );
    }
    return attempt(id, () => {
      const record = requireRecord(ctx, scope, { id });
      const changes = checkWrite(scope, recordInput(item), 'patch', record);
      const cause = causeOf(scope, 'batch_update');
      return recordBody(scope, recordsOf(ctx.store).update(scope.type, id, changes, cause));
    });
  });
  return { status: 200, body: bulkResult(results) };
}

/** POST /v2/prism/{teamId}/{objectType}/batch/delete: each id soft-deleted on its own. */
export function batchDeleteRecords(ctx: RequestContext): Reply {
  const scope = recordScope(ctx);
  const ids = (ctx.body as { ids: unknown[] }).ids;
  const results = ids.map((id, i): ItemResult => {
    if (typeof id !== 'string') {
      return failed(null, 'invalid_request', `ids[${i}] is not a string record id.`);
    }
    return attempt(id, () => {
      const record = requireRecord(ctx, scope, { id, deleted: true });
      recordsOf(ctx.store).softDelete(scope.type, record.id, causeOf(scope, 'batch_delete'));
      return undefined;
    });
  });
  return { status: 200, body: bulkResult(results) };
}

/** Run one item; a SandboxError becomes the item's error. */
function attempt(id: string, work: () => ReturnType<typeof recordBody> | undefined): ItemResult {
  try {
    const record = work();
    return record === undefined ? { id, status: 'ok' } : { id, status: 'ok', record };
  } catch (err) {
    if (err instanceof SandboxError) return failed(id, err.code, err.message);
    throw err;
  }
}

function failed(id: string | null, code: string, message: string): ItemResult {
  return { id, status: 'error', error: { code, message } };
}

function bulkResult(results: ItemResult[]) {
  const succeeded = results.filter((r) => r.status === 'ok').length;
  return {
    results,
    summary: { total: results.length, succeeded, failed: results.length - succeeded },
  };
}

// ---------------------------------------------------------------- helpers

/** The cause of a write of this request: its operation and team (records/events.ts). */
function causeOf(scope: Scope, source: WriteSource): WriteCause {
  return { source, teamId: scope.teamId };
}

function recordInput(body: unknown): RecordInput {
  return isPlainObject(body) ? body : {};
}

/** If-Match: `*` needs only the record; else one of the listed etags must be current. */
function checkIfMatch(ctx: RequestContext, scope: Scope, record: Readonly<StoredRecord>): void {
  const header = ctx.headers['if-match'];
  if (header === undefined) return;
  const tags = header.split(',').map((t) => t.trim());
  const etag = etagOf(record);
  if (tags.includes('*') || tags.includes(etag)) return;
  throw new SandboxError(
    412,
    'precondition_failed',
    `The ${scope.type} record ${record.id} changed since ${header} (If-Match): its current etag is ${etag}. Read it again, then retry with If-Match: ${etag}.`,
    undefined,
    { details: { current_etag: etag }, headers: { etag } },
  );
}

function recordReply(
  scope: Scope,
  record: Readonly<StoredRecord>,
  status: number,
  options: { created?: boolean; projection?: Projection } = {},
): Reply {
  const headers: Record<string, string> = { etag: etagOf(record) };
  if (options.created === true) {
    headers['location'] = `/v2/prism/${scope.teamId}/${scope.type}/${record.id}`;
  }
  return { status, body: recordBody(scope, record, options.projection), headers };
}

function selectParam(ctx: RequestContext, scope: Scope): Projection {
  const select = commaList(queryValue(ctx, 'select'));
  return compileSelect(scope, select, () => 'query.select');
}

/** `a, b,,c` → ['a', 'b', 'c']; undefined stays undefined. */
function commaList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
