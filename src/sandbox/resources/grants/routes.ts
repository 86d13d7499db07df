import type { Resource } from '../../resource.ts';
import { getGrant, putGrant, requireGrantType } from './handlers.ts';
import { grantsSlice } from './model.ts';

const PATH = '/v2/prism/{teamId}/{objectType}/{id}/grant';

export const grantsResource: Resource = {
  name: 'grants',
  slices: [grantsSlice],
  routes: [
    {
      kind: 'api',
      method: 'GET',
      path: PATH,
      operationId: 'getGrant',
      resolve: requireGrantType,
      handler: getGrant,
    },
    {
      kind: 'api',
      method: 'PUT',
      path: PATH,
      operationId: 'putGrant',
      resolve: requireGrantType,
      handler: putGrant,
    },
  ],
};
