// Typed calls for the view endpoints. Listing and deleting views are not in the documented
// API: the sandbox serves them as extensions, and a service without them answers 404 or
// 405, which these calls turn into one clear error (`operation_unavailable`, exit 1).
import { ApiError, ExitCode } from '../errors.ts';
import type { ApiClient } from './client.ts';
import { notOffered } from './errors.ts';
import type { ViewType } from './object-types.ts';
import { type CallOptions, resource } from './resource.ts';
import type { AnswerOf, QueryOf, Schemas } from './types.ts';

export type View = Schemas['View'];
export type ViewFields = Schemas['ViewFields'];
/** A view bundle to create: `name` and `view_type` are required. */
export type ViewCreate = ViewFields & Required<Pick<ViewFields, 'name' | 'view_type'>>;
export type ViewPatch = Schemas['ViewPatch'];
export type ViewList = AnswerOf<'listViews', 200>;
/** A record as a view returns it: a map (`{ id, properties }` on the sandbox). */
export type ViewRecord = Record<string, unknown>;
export interface ViewRecordsPage {
  view: View;
  records: { data: ViewRecord[]; has_more: boolean; next_cursor: string | null };
}

function viewsPath(client: ApiClient, type: ViewType): string[] {
  return ['v2', 'prism', client.teamId, type, 'views'];
}

const views = resource(viewsPath);

/** POST /v2/prism/{teamId}/{viewObjectType}/views → the created view. */
export const createView = views.create<ViewCreate, View>;

/** GET …/views/{viewId} → the view bundle. */
export const getView = views.get<View>;

/** GET …/views/{viewId}?include=records → the view and one page of its records (at most 50). */
export async function getViewRecords(
  client: ApiClient,
  type: ViewType,
  id: string,
  page: { cursor?: string | undefined; limit?: number | undefined } & CallOptions = {},
): Promise<ViewRecordsPage> {
  const res = await client.request<AnswerOf<'getView', 200>>({
    method: 'GET',
    path: [...viewsPath(client, type), id],
    query: {
      include: 'records',
      cursor: page.cursor,
      limit: page.limit,
    } satisfies QueryOf<'getView'>,
    signal: page.signal,
  });
  const body = res.body as Partial<ViewRecordsPage>;
  if (!body || typeof body !== 'object' || !body.view || !body.records) {
    throw new ApiError({
      status: res.status,
      code: 'unexpected_answer',
      message: `The service answered GET …/views/${id}?include=records without { view, records }.`,
      hint: 'The service may not support include=records on views.',
      requestId: res.requestId,
      method: 'GET',
      url: res.url,
      exitCode: ExitCode.error,
    });
  }
  return body as ViewRecordsPage;
}

/** PATCH …/views/{viewId}: the fields given replace the view's (select, filter, sort wholesale). */
export const updateView = views.update<ViewPatch, View>;

/** A 404 or 405 on an operation the documented API does not have: it is not offered. */
function unavailable(err: unknown, what: string, instead: string): unknown {
  return notOffered(
    err,
    (answer) =>
      `This service does not offer ${what} (it answered ${answer.method} ${new URL(answer.url).pathname} with ${answer.status}: ${answer.message}).`,
    `${what[0]!.toUpperCase()}${what.slice(1)} is an extension of the ws sandbox, not part of the documented API. ${instead}`,
  );
}

/**
 * GET …/views (sandbox extension) → one page of views. A service without the extension
 * (404, 405) gives an `operation_unavailable` error.
 */
export async function listViews(
  client: ApiClient,
  type: ViewType,
  page: {
    listId?: string | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  } & CallOptions = {},
): Promise<ViewList> {
  try {
    const res = await client.request<ViewList>({
      method: 'GET',
      path: viewsPath(client, type),
      query: {
        list_id: page.listId,
        cursor: page.cursor,
        limit: page.limit,
      } satisfies QueryOf<'listViews'>,
      signal: page.signal,
    });
    return res.body;
  } catch (err) {
    throw unavailable(
      err,
      'listing views',
      'Open a view whose id you know with `ws views get TYPE ID`; view ids are shown in the workspace app.',
    );
  }
}

/**
 * DELETE …/views/{viewId} (sandbox extension). A 404 is told apart by reading the view:
 * when it exists, deleting views is not offered (`operation_unavailable`); a 405 says so
 * directly.
 */
export async function deleteView(
  client: ApiClient,
  type: ViewType,
  id: string,
  opts: CallOptions = {},
): Promise<void> {
  try {
    await client.request({
      method: 'DELETE',
      path: [...viewsPath(client, type), id],
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) await getView(client, type, id, opts);
    throw unavailable(err, 'deleting views', 'Delete the view in the workspace app instead.');
  }
}

export type ViewRecordsList = AnswerOf<'listViewRecords', 200>;

/**
 * GET …/views/{viewId}/records → a page of the records the view selects, its pinned records
 * first (in its `record_order`).
 */
export async function listViewRecords(
  client: ApiClient,
  type: ViewType,
  id: string,
  page: { cursor?: string | undefined; limit?: number | undefined } & CallOptions = {},
): Promise<ViewRecordsList> {
  const res = await client.request<ViewRecordsList>({
    method: 'GET',
    path: [...viewsPath(client, type), id, 'records'],
    query: { cursor: page.cursor, limit: page.limit } satisfies QueryOf<'listViewRecords'>,
    signal: page.signal,
  });
  return res.body;
}

/** POST …/views/{viewId}/records/{objectId}: pin a record → the view (its record_order). */
export async function pinViewRecord(
  client: ApiClient,
  type: ViewType,
  id: string,
  recordId: string,
  opts: CallOptions = {},
): Promise<View> {
  const res = await client.request<AnswerOf<'pinViewRecord', 200>>({
    method: 'POST',
    path: [...viewsPath(client, type), id, 'records', recordId],
    signal: opts.signal,
  });
  return res.body;
}

/** DELETE …/views/{viewId}/records/{objectId}: unpin a record (204). */
export async function unpinViewRecord(
  client: ApiClient,
  type: ViewType,
  id: string,
  recordId: string,
  opts: CallOptions = {},
): Promise<void> {
  await client.request({
    method: 'DELETE',
    path: [...viewsPath(client, type), id, 'records', recordId],
    signal: opts.signal,
  });
}

/** PATCH …/views/{viewId}/records { object_ids }: reorder the pinned records → the view. */
export async function reorderViewRecords(
  client: ApiClient,
  type: ViewType,
  id: string,
  objectIds: string[],
  opts: CallOptions = {},
): Promise<View> {
  const res = await client.request<AnswerOf<'reorderViewRecords', 200>>({
    method: 'PATCH',
    path: [...viewsPath(client, type), id, 'records'],
    body: { object_ids: objectIds } satisfies Schemas['ViewRecordOrder'],
    signal: opts.signal,
  });
  return res.body;
}
