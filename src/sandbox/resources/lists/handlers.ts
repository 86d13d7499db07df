// List operations: request in, reply out, over the lists model. The contract has checked
// the body at the door (template_id among the templates, object_type a record type, name
// 1 to 255 characters, nothing else).

import { offsetPage, teamOf } from '../../request.ts';
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
  return { status: 200, body: offsetPage(ctx, lists, { lists: teamOf(ctx) }, 'a different team') };
}

/** GET /v2/prism/{teamId}/lists/{listId} → the list and its views. */
export function getList(ctx: RequestContext): Reply {
  const list = listsOf(ctx.store).get(teamOf(ctx), ctx.params['listId']!);
  return { status: 200, body: withViews(ctx, list) };
}

function withViews(ctx: RequestContext, list: StoredList) {
  return { ...list, views: viewsOf(ctx.store).list(list.team_id, list.object_type, list.id) };
}
