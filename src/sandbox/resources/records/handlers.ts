// Record operations: request in, reply out, over the records model.

import { invalidRequest, notFound } from '../../errors.ts';
import type { PathContext, Reply, RequestContext } from '../../resource.ts';
import { isObjectType, OBJECT_TYPES, type ObjectType, recordsOf } from './model.ts';

/** Path check of every record route: the object type must be one of the six. */
export function requireObjectType(ctx: PathContext): void {
  const type = ctx.params['objectType'] ?? '';
  if (!isObjectType(type)) {
    throw notFound(
      `Unknown object type '${type}'. Known object types: ${OBJECT_TYPES.join(', ')}.`,
    );
  }
}

/** GET /v2/prism/{teamId}/{objectType}/count?list_id= → { total } */
export function countRecords(ctx: RequestContext): Reply {
  const type = ctx.params['objectType'] as ObjectType;
  const listId = singleQueryValue(ctx, 'list_id');
  const total = recordsOf(ctx.store).count(type, listId === undefined ? {} : { listId });
  return { status: 200, body: { total } };
}

function singleQueryValue(ctx: RequestContext, name: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) {
    const message = `Query parameter ${name} must be given at most once.`;
    throw invalidRequest(message, [{ field: `query.${name}`, message, code: 'repeated' }]);
  }
  return value;
}
