import { type Resource, routesResolvedBy } from '../../resource.ts';
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

/** Routes of one object type (the object type is checked first). */
const route = routesResolvedBy(requirePropertyObjectType);

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
