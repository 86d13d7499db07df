// View operations: request in, reply out, over the views model. The request has passed the
// contract at the door (view_type enum, array shapes, formats); the model checks the
// properties a view names.

import { invalidRequest, notFound } from '../../errors.ts';
import { queryValue, teamOf } from '../../request.ts';
import type { PathContext, Reply, RequestContext } from '../../resource.ts';
import { isViewObjectType, VIEW_FIELDS, VIEW_OBJECT_TYPES, viewsOf } from './model.ts';
import { viewRecords } from './records.ts';
import type { View, ViewFields } from './types.ts';

/** Path check of every view route: the object type must be one of the six of api.md. */
export function requireViewObjectType(ctx: PathContext): void {
  const type = ctx.params['viewObjectType'] ?? '';
  if (!isViewObjectType(type)) {
    throw notFound(
      `Unknown object type '${type}' for views. Known object types: ${VIEW_OBJECT_TYPES.join(', ')}.`,
    );
  }
}

/** POST /v2/prism/{teamId}/{viewObjectType}/views → 201 */
export function createView(ctx: RequestContext): Reply {
  const fields = fieldsOf(ctx.body) as ViewFields & { name: string; view_type: string };
  const view = viewsOf(ctx.store).create(ctx.store, teamOf(ctx), typeOf(ctx), fields);
  return { status: 201, body: view };
}

/** GET /v2/prism/{teamId}/{viewObjectType}/views?list_id=&cursor=&limit= (extension) */
export function listViews(ctx: RequestContext): Reply {
  const listId = queryValue(ctx, 'list_id');
  const views = viewsOf(ctx.store).list(teamOf(ctx), typeOf(ctx), listId);
  const offset = decodeCursor(queryValue(ctx, 'cursor'));
  const limit = Number(queryValue(ctx, 'limit') ?? 50);
  const data = views.slice(offset, offset + limit);
  const hasMore = offset + limit < views.length;
  return {
    status: 200,
    body: { data, has_more: hasMore, next_cursor: hasMore ? encodeCursor(offset + limit) : null },
  };
}

/** GET .../views/{viewId}?include=records&cursor=&limit=&page= */
export function getView(ctx: RequestContext): Reply {
  const view = viewOf(ctx);
  if (queryValue(ctx, 'include') !== 'records') return { status: 200, body: view };
  const page: { cursor?: string; limit?: number; page?: number } = {};
  const cursor = queryValue(ctx, 'cursor');
  if (cursor !== undefined) page.cursor = cursor;
  const limit = queryValue(ctx, 'limit');
  if (limit !== undefined) page.limit = Math.min(Number(limit), 50);
  const number = queryValue(ctx, 'page');
  if (number !== undefined) page.page = Number(number);
  return { status: 200, body: { view, records: viewRecords(ctx.store, view, page) } };
}

/** PATCH .../views/{viewId} → 200; select, filter and sort are replaced wholesale. */
export function updateView(ctx: RequestContext): Reply {
  const view = viewsOf(ctx.store).update(
    ctx.store,
    teamOf(ctx),
    typeOf(ctx),
    ctx.params['viewId']!,
    fieldsOf(ctx.body),
  );
  return { status: 200, body: view };
}

/** DELETE .../views/{viewId} → 204 (extension) */
export function deleteView(ctx: RequestContext): Reply {
  viewsOf(ctx.store).remove(teamOf(ctx), typeOf(ctx), ctx.params['viewId']!);
  return { status: 204 };
}

// ---------------------------------------------------------------- helpers

/** The view fields of a body (read-only and unknown fields are ignored). */
function fieldsOf(body: unknown): ViewFields {
  const source = body as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const field of VIEW_FIELDS) if (source[field] !== undefined) fields[field] = source[field];
  return fields as ViewFields;
}

function viewOf(ctx: RequestContext): View {
  return viewsOf(ctx.store).get(teamOf(ctx), typeOf(ctx), ctx.params['viewId']!);
}

function typeOf(ctx: RequestContext): string {
  return ctx.params['viewObjectType']!;
}

/** The view list's cursor: the offset of the next page, opaque to clients. */
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ views: offset })).toString('base64url');
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  let offset: unknown;
  try {
    offset = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { views?: unknown })
      .views;
  } catch {
    offset = undefined;
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    const message = `The cursor '${cursor}' is not one this endpoint gave out: pass back next_cursor unchanged, or leave cursor out for the first page.`;
    throw invalidRequest(message, [{ field: 'query.cursor', message, code: 'invalid_cursor' }]);
  }
  return offset;
}
