import type { Resource } from '../../resource.ts';
import { countRecords, requireObjectType } from './handlers.ts';
import { recordsSlice } from './model.ts';

export const recordsResource: Resource = {
  name: 'records',
  slices: [recordsSlice],
  routes: [
    {
      kind: 'api',
      method: 'GET',
      path: '/v2/prism/{teamId}/{objectType}/count',
      operationId: 'countRecords',
      resolve: requireObjectType,
      handler: countRecords,
    },
  ],
};
