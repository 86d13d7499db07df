// Reading a request the same way in every resource: a query parameter given at most once,
// a boolean flag, the team of the path, the record object type of the path, the record
// a path names, and the list a body names (list_id or its deprecated name crm_id). Handlers import these from here, never from another resource's handlers.

import { isUuid } from '../util/guards.ts';
import { invalidRequest, notFound } from './errors.ts';
import { BULK_TYPES, isObjectType, OBJECT_TYPES, type ObjectType } from './object-types.ts';
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

/** Path check of the record routes: `{objectType}` must be a record type. */
export function requireObjectType(ctx: PathContext): void {
  const type = ctx.params['objectType'] ?? '';
  if (!isObjectType(type)) {
    throw notFound(
      `Unknown object type '${type}'. Known object types: ${OBJECT_TYPES.join(', ')}.`,
    );
  }
}

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
 * Where a page of a listing starts: the `cursor` (read by `decode`), which wins, or the
 * 1-based `page` (deprecated in the API, still sent by clients) times `limit`; else 0.
 */
export function pageOffset(
  ctx: RequestContext,
  limit: number,
  decode: (cursor: string | undefined) => number,
): number {
  const cursor = queryValue(ctx, 'cursor');
  if (cursor !== undefined) return decode(cursor);
  const page = queryValue(ctx, 'page');
  return page === undefined ? 0 : (Number(page) - 1) * limit;
}
