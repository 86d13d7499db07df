// Typed calls for the record endpoints, over the one HTTP client. Each returns the answer
// body and what the headers add (the etag of single-record answers, the request id).
import type { ApiClient } from './client.ts';
import type { GrantType, RecordType } from './object-types.ts';
import type { AnswerOf, QueryOf, Schemas } from './types.ts';

export type CountAnswer = AnswerOf<'countRecords', 200>;
export type RecordBody = AnswerOf<'getRecord', 200>;
export type RecordWrite = Schemas['RecordWrite'];
export type RecordRow = Schemas['RecordRow'];
export type RecordPage = AnswerOf<'listRecords', 200>;
export type QueryBody = Schemas['QueryBody'];
export type ListQuery = QueryOf<'listRecords'>;
export type BatchUpdateItem = Schemas['BatchUpdateItem'];
export type BulkResult = AnswerOf<'batchDeleteRecords', 200>;
export type Grant = AnswerOf<'getGrant', 200>;
export type GrantWrite = Schemas['GrantWrite'];

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

/** For POST, PUT and PATCH: reuse a key to make a retried call safe (default: a new one). */
export interface MutateOptions extends CallOptions {
  idempotencyKey?: string | undefined;
}

/** For PATCH and DELETE of one record: an etag from a read, or `*`. */
export interface IfMatchOptions extends MutateOptions {
  ifMatch?: string | undefined;
}

/** A single record and its version. */
export interface RecordAnswer {
  record: RecordBody;
  /** The `etag` header (for If-Match), when the service sent one. */
  etag: string | undefined;
  requestId: string | undefined;
}

const base = (client: ApiClient, type: string): string[] => ['v2', 'prism', client.teamId, type];

function single(res: {
  body: RecordBody;
  headers: Record<string, string>;
  requestId: string | undefined;
}): RecordAnswer {
  return { record: res.body, etag: res.headers['etag'], requestId: res.requestId };
}

function ifMatch(opts: IfMatchOptions): Record<string, string> | undefined {
  return opts.ifMatch === undefined ? undefined : { 'if-match': opts.ifMatch };
}

/** POST /{objectType}: 201 with the created record. */
export async function createRecord(
  client: ApiClient,
  type: RecordType,
  body: RecordWrite,
  opts: MutateOptions = {},
): Promise<RecordAnswer> {
  const res = await client.request<AnswerOf<'createRecord', 201>>({
    method: 'POST',
    path: base(client, type),
    body,
    idempotencyKey: opts.idempotencyKey,
    signal: opts.signal,
  });
  return single(res);
}

/** GET /{objectType}/{id}: the record and its etag. */
export async function getRecord(
  client: ApiClient,
  type: RecordType,
  id: string,
  opts: CallOptions & { select?: string | undefined } = {},
): Promise<RecordAnswer> {
  const res = await client.request<RecordBody>({
    method: 'GET',
    path: [...base(client, type), id],
    query: { select: opts.select } satisfies QueryOf<'getRecord'>,
    signal: opts.signal,
  });
  return single(res);
}

/** PATCH /{objectType}/{id}: the patched record; 412 when `ifMatch` no longer matches. */
export async function updateRecord(
  client: ApiClient,
  type: RecordType,
  id: string,
  body: RecordWrite,
  opts: IfMatchOptions = {},
): Promise<RecordAnswer> {
  const res = await client.request<AnswerOf<'updateRecord', 200>>({
    method: 'PATCH',
    path: [...base(client, type), id],
    body,
    headers: ifMatch(opts),
    idempotencyKey: opts.idempotencyKey,
    signal: opts.signal,
  });
  return single(res);
}

/** DELETE /{objectType}/{id}: a soft delete (204). */
export async function deleteRecord(
  client: ApiClient,
  type: RecordType,
  id: string,
  opts: IfMatchOptions = {},
): Promise<{ requestId: string | undefined }> {
  const res = await client.request({
    method: 'DELETE',
    path: [...base(client, type), id],
    headers: ifMatch(opts),
    signal: opts.signal,
  });
  return { requestId: res.requestId };
}

/** GET /{objectType}: one page; unknown query names are equality filters. */
export async function listRecords(
  client: ApiClient,
  type: RecordType,
  query: ListQuery & Record<string, string | number | boolean | readonly string[] | undefined>,
  opts: CallOptions = {},
): Promise<RecordPage> {
  const res = await client.request<RecordPage>({
    method: 'GET',
    path: base(client, type),
    query,
    signal: opts.signal,
  });
  return res.body;
}

/**
 * POST /{objectType}/query: one page of a filtered, sorted query. It is a read, but the
 * client still sends an idempotency key with it, which is what makes it safe to retry.
 */
export async function queryRecords(
  client: ApiClient,
  type: RecordType,
  body: QueryBody,
  opts: CallOptions = {},
): Promise<AnswerOf<'queryRecords', 200>> {
  const res = await client.request<AnswerOf<'queryRecords', 200>>({
    method: 'POST',
    path: [...base(client, type), 'query'],
    body,
    signal: opts.signal,
  });
  return res.body;
}

/** GET /{objectType}/count: records visible to the caller (filters do not apply). */
export async function countRecords(
  client: ApiClient,
  objectType: RecordType,
  opts: { listId?: string | undefined; signal?: AbortSignal } = {},
): Promise<{ total: number; requestId: string | undefined }> {
  const res = await client.request<CountAnswer>({
    method: 'GET',
    path: [...base(client, objectType), 'count'],
    query: { list_id: opts.listId } satisfies QueryOf<'countRecords'>,
    signal: opts.signal,
  });
  return { total: res.body.total, requestId: res.requestId };
}

/** GET /{objectType}/by/{slug}/{value}: the one match; 404 none, 409 several. */
export async function findRecordByValue(
  client: ApiClient,
  type: RecordType,
  slug: string,
  value: string,
  opts: CallOptions & { listId?: string | undefined } = {},
): Promise<RecordAnswer> {
  const res = await client.request<AnswerOf<'findRecordByValue', 200>>({
    method: 'GET',
    path: [...base(client, type), 'by', slug, value],
    query: { list_id: opts.listId } satisfies QueryOf<'findRecordByValue'>,
    signal: opts.signal,
  });
  return single(res);
}

/** PUT /{objectType}/by/{slug}/{value}: patch the one match (200) or create (201); 409 several. */
export async function upsertRecordByValue(
  client: ApiClient,
  type: RecordType,
  slug: string,
  value: string,
  body: RecordWrite,
  opts: MutateOptions = {},
): Promise<RecordAnswer & { created: boolean }> {
  const res = await client.request<AnswerOf<'upsertRecordByValue', 200 | 201>>({
    method: 'PUT',
    path: [...base(client, type), 'by', slug, value],
    body,
    idempotencyKey: opts.idempotencyKey,
    signal: opts.signal,
  });
  return { ...single(res), created: res.status === 201 };
}

/** POST /{objectType}/batch/update: at most 100 patches; 200 with a result per item. */
export async function batchUpdateRecords(
  client: ApiClient,
  type: RecordType,
  items: BatchUpdateItem[],
  opts: MutateOptions = {},
): Promise<AnswerOf<'batchUpdateRecords', 200>> {
  const res = await client.request<AnswerOf<'batchUpdateRecords', 200>>({
    method: 'POST',
    path: [...base(client, type), 'batch', 'update'],
    body: { items } satisfies Schemas['BatchUpdateBody'],
    idempotencyKey: opts.idempotencyKey,
    signal: opts.signal,
  });
  return res.body;
}

/** POST /{objectType}/batch/delete: at most 100 soft deletes; 200 with a result per id. */
export async function batchDeleteRecords(
  client: ApiClient,
  type: RecordType,
  ids: string[],
  opts: MutateOptions = {},
): Promise<BulkResult> {
  const res = await client.request<BulkResult>({
    method: 'POST',
    path: [...base(client, type), 'batch', 'delete'],
    body: { ids } satisfies Schemas['BatchDeleteBody'],
    idempotencyKey: opts.idempotencyKey,
    signal: opts.signal,
  });
  return res.body;
}

/** POST /{objectType}/{id}/{action}: a call on one record that takes no body. */
async function recordAction(
  client: ApiClient,
  type: RecordType,
  id: string,
  action: 'duplicate' | 'restore',
  opts: MutateOptions,
): Promise<RecordAnswer> {
  const res = await client.request<
    AnswerOf<'duplicateRecord', 201> | AnswerOf<'restoreRecord', 200>
  >({
    method: 'POST',
    path: [...base(client, type), id, action],
    idempotencyKey: opts.idempotencyKey,
    signal: opts.signal,
  });
  return single(res);
}

/** POST /{objectType}/{id}/duplicate: 201 with the copy. */
export function duplicateRecord(
  client: ApiClient,
  type: RecordType,
  id: string,
  opts: MutateOptions = {},
): Promise<RecordAnswer> {
  return recordAction(client, type, id, 'duplicate', opts);
}

/** POST /{objectType}/{id}/restore: 200 with the restored record. */
export function restoreRecord(
  client: ApiClient,
  type: RecordType,
  id: string,
  opts: MutateOptions = {},
): Promise<RecordAnswer> {
  return recordAction(client, type, id, 'restore', opts);
}

/** GET /{deal|action}/{id}/grant. */
export async function getGrant(
  client: ApiClient,
  type: GrantType,
  id: string,
  opts: CallOptions = {},
): Promise<Grant> {
  const res = await client.request<Grant>({
    method: 'GET',
    path: [...base(client, type), id, 'grant'],
    signal: opts.signal,
  });
  return res.body;
}

/** PUT /{deal|action}/{id}/grant: replaces the grant; answers it as stored. */
export async function putGrant(
  client: ApiClient,
  type: GrantType,
  id: string,
  body: GrantWrite,
  opts: MutateOptions = {},
): Promise<AnswerOf<'putGrant', 200>> {
  const res = await client.request<AnswerOf<'putGrant', 200>>({
    method: 'PUT',
    path: [...base(client, type), id, 'grant'],
    body,
    idempotencyKey: opts.idempotencyKey,
    signal: opts.signal,
  });
  return res.body;
}
