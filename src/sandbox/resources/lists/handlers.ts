// List operations: request in, reply out, over the lists model. The contract has checked
// the body at the door (template_id among the templates, object_type a record type, name
// 1 to 255 characters, nothing else).

import { invalidRequest } from '../../errors.ts';
import { pageOffset, queryValue, teamOf } from '../../request.ts';
import type { Reply, RequestContext } from '../../resource.ts';
import { viewsOf } from '../views/model.ts';
import { listsOf } from './model.ts';
import type { NewList, StoredList } from './types.ts';

/** POST /v2/prism/{teamId}/lists → 201 with the list and its views. */
export function createList(ctx: RequestContext): Reply {
  const list = listsOf(ctx.store).create(ctx.store, teamOf(ctx), ctx.body as NewList);
  return { status: 201, body: withViews(ctx, list) };
}

/** GET /v2/prism/{teamId}/lists?cursor=&limit= */
export function listLists(ctx: RequestContext): Reply {
  const lists = listsOf(ctx.store).list(teamOf(ctx));
  const limit = Number(queryValue(ctx, 'limit') ?? 50);
  const offset = pageOffset(ctx, limit, decodeCursor);
  const data = lists.slice(offset, offset + limit);
  const hasMore = offset + limit < lists.length;
  return {
    status: 200,
    body: { data, has_more: hasMore, next_cursor: hasMore ? encodeCursor(offset + limit) : null },
  };
}

/** GET /v2/prism/{teamId}/lists/{listId} → the list and its views. */
export function getList(ctx: RequestContext): Reply {
  const list = listsOf(ctx.store).get(teamOf(ctx), ctx.params['listId']!);
  return { status: 200, body: withViews(ctx, list) };
}

function withViews(ctx: RequestContext, list: StoredList) {
  return { ...list, views: viewsOf(ctx.store).list(list.team_id, list.object_type, list.id) };
}

/** The listing's cursor: the offset of the next page, opaque to clients. */
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ lists: offset })).toString('base64url');
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  let offset: unknown;
  try {
    offset = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { lists?: unknown })
      .lists;
  } catch {
    offset = undefined;
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    const message = `The cursor '${cursor}' is not one this endpoint gave out: pass back next_cursor unchanged, or leave cursor out for the first page.`;
    throw invalidRequest(message, [{ field: 'query.cursor', message, code: 'invalid_cursor' }]);
  }
  return offset;
}
