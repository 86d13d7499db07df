import type { ApiRoute, Handler, HttpMethod, Resource } from '../../resource.ts';
import { createList, getList, listLists } from './handlers.ts';
import { listsSlice } from './model.ts';

const MANY = '/v2/prism/{teamId}/lists';

function route(method: HttpMethod, path: string, operationId: string, handler: Handler): ApiRoute {
  return { kind: 'api', method, path, operationId, handler };
}

export const listsResource: Resource = {
  name: 'lists',
  slices: [listsSlice],
  routes: [
    route('POST', MANY, 'createList', createList),
    route('GET', MANY, 'listLists', listLists),
    route('GET', `${MANY}/{listId}`, 'getList', getList),
  ],
};
