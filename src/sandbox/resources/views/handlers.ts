// View operations: request in, reply out, over the views model. The request has passed the
// contract at the door (view_type enum, array shapes, formats); the model checks the
// properties a view names.

import { notFound } from '../../errors.ts';
import { isObjectType } from '../../object-types.ts';
import { offsetPage, queryValue, requireTypeIn, teamOf } from '../../request.ts';
import type { Reply, RequestContext } from '../../resource.ts';
import { recordsOf } from '../records/model.ts';
import { VIEW_FIELDS, VIEW_OBJECT_TYPES, viewsOf } from './model.ts';
import { viewRecords } from './records.ts';
import type { View, ViewFields } from './types.ts';

/** Path check of every view route: the object type must be one of the six of api.md. */
export const requireViewObjectType = requireTypeIn('viewObjectType', VIEW_OBJECT_TYPES, 'views');

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
  const listing = { views: teamOf(ctx), type: typeOf(ctx), list_id: listId ?? null };
  return {
    status: 200,
    body: offsetPage(ctx, views, listing, 'a different object type or list_id'),
  };
}

/** GET .../views/{viewId}?include=records&cursor=&limit=&page= */
export function getView(ctx: RequestContext): Reply {
  const view = viewOf(ctx);
  if (queryValue(ctx, 'include') !== 'records') return { status: 200, body: view };
  return { status: 200, body: { view, records: viewRecords(ctx.store, view, pageOf(ctx)) } };
}

/** GET .../views/{viewId}/records?cursor=&limit=&page=: pinned records first. */
export function listViewRecords(ctx: RequestContext): Reply {
  return { status: 200, body: viewRecords(ctx.store, viewOf(ctx), pageOf(ctx)) };
}

/** POST .../views/{viewId}/records/{objectId} → 200 with the view: pin a record. */
export function pinViewRecord(ctx: RequestContext): Reply {
  viewOf(ctx);
  const recordId = pinnable(ctx);
  const view = viewsOf(ctx.store).pin(teamOf(ctx), typeOf(ctx), ctx.params['viewId']!, recordId);
  return { status: 200, body: view };
}

/** DELETE .../views/{viewId}/records/{objectId} → 204: unpin a record. */
export function unpinViewRecord(ctx: RequestContext): Reply {
  viewsOf(ctx.store).unpin(
    teamOf(ctx),
    typeOf(ctx),
    ctx.params['viewId']!,
    ctx.params['objectId']!.toLowerCase(),
  );
  return { status: 204 };
}

/** PATCH .../views/{viewId}/records { object_ids } → 200 with the view: reorder the pins. */
export function reorderViewRecords(ctx: RequestContext): Reply {
  const ids = ((ctx.body as { object_ids: string[] }).object_ids ?? []).map((id) =>
    id.toLowerCase(),
  );
  const view = viewsOf(ctx.store).reorder(teamOf(ctx), typeOf(ctx), ctx.params['viewId']!, ids);
  return { status: 200, body: view };
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

/** The paging parameters of a view's records. */
function pageOf(ctx: RequestContext): { cursor?: string; limit?: number; page?: number } {
  const page: { cursor?: string; limit?: number; page?: number } = {};
  const cursor = queryValue(ctx, 'cursor');
  if (cursor !== undefined) page.cursor = cursor;
  const limit = queryValue(ctx, 'limit');
  if (limit !== undefined) page.limit = Math.min(Number(limit), 50);
  const number = queryValue(ctx, 'page');
  if (number !== undefined) page.page = Number(number);
  return page;
}

/** The record a pin names: one of the view's object type that exists and is not deleted. */
function pinnable(ctx: RequestContext): string {
  const type = typeOf(ctx);
  const id = ctx.params['objectId']!.toLowerCase();
  if (!isObjectType(type)) {
    throw notFound(`${type} views have no records to pin: the API serves no ${type} records.`);
  }
  const record = recordsOf(ctx.store).get(type, id);
  if (record === undefined || record.deleted_at !== null) {
    throw notFound(
      `No ${type} record has the id ${id}${record === undefined ? '' : ' (it is deleted)'}: a view pins records of its own object type.`,
    );
  }
  return id;
}

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
