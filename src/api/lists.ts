// Typed calls for the list endpoints (`/v2/prism/{teamId}/lists`): create a list from a
// template, list the lists that are not core ones, read one with its views.
import type { ApiClient } from './client.ts';
import { type CallOptions, resource } from './resource.ts';
import type { AnswerOf, QueryOf, Schemas } from './types.ts';

export type List = Schemas['List'];
export type ListWithViews = Schemas['ListWithViews'];
export type ListCreate = Schemas['ListCreate'];
export type ListPage = AnswerOf<'listLists', 200>;
export type ListTemplate = Schemas['ListTemplate'];

function listsPath(client: ApiClient): string[] {
  return ['v2', 'prism', client.teamId, 'lists'];
}

const lists = resource(listsPath);

/** POST …/lists → the list, with the views its template made. */
export const createList = lists.create<ListCreate, ListWithViews>;

/** GET …/lists → one page of lists. */
export async function listLists(
  client: ApiClient,
  page: { cursor?: string | undefined; limit?: number | undefined } & CallOptions = {},
): Promise<ListPage> {
  const res = await client.request<ListPage>({
    method: 'GET',
    path: listsPath(client),
    query: { cursor: page.cursor, limit: page.limit } satisfies QueryOf<'listLists'>,
    signal: page.signal,
  });
  return res.body;
}

/** GET …/lists/{listId} → the list and its views. */
export const getList = lists.get<ListWithViews>;
