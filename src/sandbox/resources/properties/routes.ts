import type { ApiRoute, Resource } from '../../resource.ts';
import {
  createProperty,
  createPropertyOption,
  deleteProperty,
  deletePropertyOption,
  listAllProperties,
  listProperties,
  requirePropertyObjectType,
  updateProperty,
  updatePropertyOption,
} from './handlers.ts';
import { propertiesSlice } from './model.ts';

const ONE = '/v2/prism/{teamId}/{objectType}/properties/{propertyId}';

/** A route of one object type's definitions (the object type is checked first). */
function route(
  method: ApiRoute['method'],
  path: string,
  operationId: string,
  handler: ApiRoute['handler'],
): ApiRoute {
  return { kind: 'api', method, path, operationId, resolve: requirePropertyObjectType, handler };
}

export const propertiesResource: Resource = {
  name: 'properties',
  slices: [propertiesSlice],
  routes: [
    {
      kind: 'api',
      method: 'GET',
      path: '/v2/prism/{teamId}/properties',
      operationId: 'listAllProperties',
      handler: listAllProperties,
    },
    route('GET', '/v2/prism/{teamId}/{objectType}/properties', 'listProperties', listProperties),
    route('POST', '/v2/prism/{teamId}/{objectType}/properties', 'createProperty', createProperty),
    route('PATCH', ONE, 'updateProperty', updateProperty),
    route('DELETE', ONE, 'deleteProperty', deleteProperty),
    route('POST', `${ONE}/options`, 'createPropertyOption', createPropertyOption),
    route('PATCH', `${ONE}/options/{optionId}`, 'updatePropertyOption', updatePropertyOption),
    route('DELETE', `${ONE}/options/{optionId}`, 'deletePropertyOption', deletePropertyOption),
  ],
};
