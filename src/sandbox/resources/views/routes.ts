import { type Resource, routesResolvedBy } from '../../resource.ts';
import {
  createView,
  deleteView,
  getView,
  listViewRecords,
  listViews,
  pinViewRecord,
  reorderViewRecords,
  requireViewObjectType,
  unpinViewRecord,
  updateView,
} from './handlers.ts';
import { subscribeViews, viewsSlice } from './model.ts';

const MANY = '/v2/prism/{teamId}/{viewObjectType}/views';
const ONE = `${MANY}/{viewId}`;
const RECORDS = `${ONE}/records`;

/** Routes of one object type (the object type is checked first). */
const route = routesResolvedBy(requireViewObjectType);

export const viewsResource: Resource = {
  name: 'views',
  slices: [viewsSlice],
  subscribe: subscribeViews,
  routes: [
    route('POST', MANY, 'createView', createView),
    route('GET', MANY, 'listViews', listViews),
    route('GET', ONE, 'getView', getView),
    route('PATCH', ONE, 'updateView', updateView),
    route('DELETE', ONE, 'deleteView', deleteView),
    route('GET', RECORDS, 'listViewRecords', listViewRecords),
    route('PATCH', RECORDS, 'reorderViewRecords', reorderViewRecords),
    route('POST', `${RECORDS}/{objectId}`, 'pinViewRecord', pinViewRecord),
    route('DELETE', `${RECORDS}/{objectId}`, 'unpinViewRecord', unpinViewRecord),
  ],
};
