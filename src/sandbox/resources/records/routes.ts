import { requireBulkObjectType, requireObjectType } from '../../request.ts';
import {
  type ApiRoute,
  type Handler,
  type HttpMethod,
  type Resource,
  routesResolvedBy,
} from '../../resource.ts';
import {
  batchDeleteRecords,
  batchUpdateRecords,
  countRecords,
  createRecord,
  deleteRecord,
  duplicateRecord,
  findRecordByValue,
  getRecord,
  listRecords,
  queryRecords,
  restoreRecord,
  updateRecord,
  upsertRecordByValue,
} from './handlers.ts';
import { refuseDeletingUsedProperties } from './in-use.ts';
import { recordsSlice } from './model.ts';
import { seedRecords } from './seed.ts';

const BASE = '/v2/prism/{teamId}/{objectType}';

const typed = routesResolvedBy(requireObjectType);
const bulk = routesResolvedBy(requireBulkObjectType);

/** A route below the object type's collection (the object type is checked first). */
function route(method: HttpMethod, path: string, operationId: string, handler: Handler): ApiRoute {
  return typed(method, BASE + path, operationId, handler);
}

export const recordsResource: Resource = {
  name: 'records',
  slices: [recordsSlice],
  routes: [
    route('POST', '', 'createRecord', createRecord),
    // Records that set up a test: written without an event (seed.ts).
    { kind: 'control', method: 'POST', path: '/__sandbox/seed', handler: seedRecords },
    route('GET', '', 'listRecords', listRecords),
    route('POST', '/query', 'queryRecords', queryRecords),
    route('GET', '/count', 'countRecords', countRecords),
    bulk('POST', `${BASE}/batch/update`, 'batchUpdateRecords', batchUpdateRecords),
    bulk('POST', `${BASE}/batch/delete`, 'batchDeleteRecords', batchDeleteRecords),
    route('GET', '/by/{slug}/{value}', 'findRecordByValue', findRecordByValue),
    route('PUT', '/by/{slug}/{value}', 'upsertRecordByValue', upsertRecordByValue),
    route('GET', '/{id}', 'getRecord', getRecord),
    route('PATCH', '/{id}', 'updateRecord', updateRecord),
    route('DELETE', '/{id}', 'deleteRecord', deleteRecord),
    route('POST', '/{id}/duplicate', 'duplicateRecord', duplicateRecord),
    route('POST', '/{id}/restore', 'restoreRecord', restoreRecord),
  ],
  subscribe: refuseDeletingUsedProperties,
};
