// Reading a request the same way in every resource: a query parameter given at most once,
// a boolean flag, the team of the path, the record object type of the path, the record
// a path names, and the list a body names (list_id or its deprecated name crm_id). Handlers import these from here, never from another resource's handlers.

import { isUuid } from '../util/guards.ts';
import { fingerprintOf, readCursor, writeCursor } from './cursor.ts';
import { invalidRequest, notFound } from './errors.ts';
import { BULK_TYPES, OBJECT_TYPES, type ObjectType } from './object-types.ts';
import type { PathContext, RequestContext } from './resource.ts';
import type { Scope } from './resources/properties/scope.ts';
import { recordsOf } from './resources/records/model.ts';
import type { StoredRecord } from './resources/records/types.ts';

/**
 * A query parameter given at most once: 400 (`query.<name>`, code `repeated`) when it is
 * repeated. Parameters the contract types are refused at the door when repeated; this
 * answers for those it leaves free (the record list's equality filters sit beside them).
 */
export function queryValue(ctx: RequestContext, name: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) {
    const message = `Query parameter ${name} must be given at most once.`;
    throw invalidRequest(message, [{ field: `query.${name}`, message, code: 'repeated' }]);
  }
  return value;
}

/** A boolean query parameter: true only for the literal `true`. */
export function queryFlag(ctx: RequestContext, name: string): boolean {
  return queryValue(ctx, name) === 'true';
}

/** The `{teamId}` of the path (the server has checked it is the sandbox's team). */
export function teamOf(ctx: PathContext): string {
  return ctx.params['teamId']!;
}

/**
 * A path check: the object type in the path parameter `param` must be one of `types` (404
 * naming them otherwise, and `what` the routes serve when given).
 */
export function requireTypeIn(
  param: string,
  types: readonly string[],
  what?: string,
): (ctx: PathContext) => void {
  return (ctx) => {
    const type = ctx.params[param] ?? '';
    if (!types.includes(type)) {
      const serving = what === undefined ? '' : ` for ${what}`;
      throw notFound(
        `Unknown object type '${type}'${serving}. Known object types: ${types.join(', ')}.`,
      );
    }
  };
}

/** Path check of the record routes: `{objectType}` must be a record type. */
export const requireObjectType = requireTypeIn('objectType', OBJECT_TYPES);

/**
 * Path check of import and the batch operations: a record type that has them (every one
 * but `event`: 404 saying what to do instead).
 */
export function requireBulkObjectType(ctx: PathContext): void {
  requireObjectType(ctx);
  const type = ctx.params['objectType']!;
  if (!(BULK_TYPES as readonly string[]).includes(type)) {
    throw notFound(
      `${type} records have no import and no batch update or delete: write them one by one (POST /v2/prism/${ctx.params['teamId']}/${type}, PATCH or DELETE …/${type}/{id}). The types that have them: ${BULK_TYPES.join(', ')}.`,
    );
  }
}

/** Where a record route looks definitions up: the path's team and object type. */
export function recordScope(ctx: PathContext, listId: string | null = null): Scope {
  return {
    store: ctx.store,
    teamId: teamOf(ctx),
    type: ctx.params['objectType'] as ObjectType,
    listId,
  };
}

/**
 * The record the path names (or `options.id`): 404 when there is none, and when it is
 * soft-deleted unless `options.deleted`.
 */
export function requireRecord(
  ctx: PathContext,
  scope: Scope,
  options: { id?: string; deleted?: boolean } = {},
): Readonly<StoredRecord> {
  const id = options.id ?? ctx.params['id']!;
  const record = recordsOf(ctx.store).get(scope.type, id);
  if (record === undefined) throw notFound(`No ${scope.type} record has the id ${id}.`);
  if (record.deleted_at !== null && options.deleted !== true) {
    throw notFound(
      `The ${scope.type} record ${id} is deleted. Restore it with POST /v2/prism/${scope.teamId}/${scope.type}/${id}/restore.`,
    );
  }
  return record;
}

/**
 * The list scope `body` names: `list_id`, or the deprecated `crm_id` when list_id is absent;
 * both with different values is a 400 (fields under `at`: `body`, `body.options`). undefined
 * when neither is present.
 */
export function listScope(body: Record<string, unknown>, at = 'body'): string | null | undefined {
  const listId = body['list_id'] as string | null | undefined;
  const crmId = body['crm_id'];
  if (crmId === undefined) return listId;
  if (crmId !== null && !(typeof crmId === 'string' && isUuid(crmId))) {
    const message = 'crm_id (the deprecated name of list_id) must be a list id (a UUID) or null.';
    throw invalidRequest(message, [{ field: `${at}.crm_id`, message, code: 'type' }]);
  }
  if (listId !== undefined && listId !== crmId) {
    const message = `list_id (${listId}) and its deprecated name crm_id (${crmId}) differ; send list_id only.`;
    throw invalidRequest(message, [{ field: `${at}.crm_id`, message, code: 'mismatch' }]);
  }
  return crmId;
}

/**
 * One page of a listing paged by offset, as `{ data, has_more, next_cursor }`: `limit` from
 * the query (50 by default), the start from the `cursor`, which wins, or the 1-based `page`
 * (deprecated in the API, still sent by clients). `listing` is what decides the items (a
 * cursor of another listing is refused); `differs` says what sets one apart, for that error.
 */
export function offsetPage<T>(
  ctx: RequestContext,
  items: readonly T[],
  listing: Readonly<Record<string, unknown>>,
  differs: string,
): { data: T[]; has_more: boolean; next_cursor: string | null } {
  const limit = Number(queryValue(ctx, 'limit') ?? 50);
  const fingerprint = fingerprintOf(listing);
  const cursor = queryValue(ctx, 'cursor');
  const page = queryValue(ctx, 'page');
  const offset =
    cursor !== undefined
      ? readCursor(cursor, fingerprint, {
          field: 'query.cursor',
          position: { o: { min: 0 } },
          listing: 'listing',
          differs,
        }).o
      : page === undefined
        ? 0
        : (Number(page) - 1) * limit;
  const hasMore = offset + limit < items.length;
  return {
    data: items.slice(offset, offset + limit),
    has_more: hasMore,
    next_cursor: hasMore ? writeCursor({ o: offset + limit }, fingerprint) : null,
  };
}
