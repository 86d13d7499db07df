// Grants of deals and actions: GET reads, PUT replaces the whole grant (idempotent).
//
// PUT takes maps of id to permission letter (`team_id`, `group_id`, `user_id`), or the
// older form, arrays of single-entry maps, and the older name `team_group_id` for
// `group_id`; answers always carry plain maps under the current names. The read-only
// participant arrays may be sent back as read and are ignored.

import { own } from '../../../util/guards.ts';
import { invalidRequest, notFound } from '../../errors.ts';
import { recordScope, requireRecord } from '../../request.ts';
import type { PathContext, Reply, RequestContext } from '../../resource.ts';
import { definitionsIn, isReference, referenceTarget, type Scope } from '../properties/scope.ts';
import type { StoredRecord } from '../records/types.ts';
import {
  GRANT_TYPES,
  type GrantType,
  grantsOf,
  isGrantType,
  type Letter,
  type PermissionMap,
  type ShareLevel,
  type StoredGrant,
} from './model.ts';

/** Path check: grants exist for deals and actions only. */
export function requireGrantType(ctx: PathContext): void {
  const type = ctx.params['objectType'] ?? '';
  if (!isGrantType(type)) {
    throw notFound(
      `${type} records have no grants: grants exist for ${GRANT_TYPES.join(' and ')} records only.`,
    );
  }
}

/** GET /v2/prism/{teamId}/{deal|action}/{id}/grant */
export function getGrant(ctx: RequestContext): Reply {
  const { scope, record } = target(ctx);
  return {
    status: 200,
    body: grantBody(scope, record, grantsOf(ctx.store).get(scope.type as GrantType, record.id)),
  };
}

/** PUT /v2/prism/{teamId}/{deal|action}/{id}/grant: full replacement. */
export function putGrant(ctx: RequestContext): Reply {
  const { scope, record } = target(ctx);
  const grant = parseGrant(ctx.body as Record<string, unknown>);
  const stored = grantsOf(ctx.store).put(scope.type as GrantType, record.id, grant);
  return { status: 200, body: grantBody(scope, record, stored) };
}

function target(ctx: RequestContext): { scope: Scope; record: Readonly<StoredRecord> } {
  const scope = recordScope(ctx);
  return { scope, record: requireRecord(ctx, scope) };
}

/** The body of a PUT as a stored grant; 400 when group_id and team_group_id are both given. */
function parseGrant(body: Record<string, unknown>): StoredGrant {
  if (body['group_id'] !== undefined && body['team_group_id'] !== undefined) {
    const message =
      'group_id and team_group_id are the same field (team_group_id is its older name); send only group_id.';
    throw invalidRequest(message, [{ field: 'body.team_group_id', code: 'conflict', message }]);
  }
  return {
    share_level: (body['share_level'] as ShareLevel | null | undefined) ?? null,
    team_id: permissionMap(body['team_id'], 'body.team_id'),
    group_id:
      body['team_group_id'] !== undefined
        ? permissionMap(body['team_group_id'], 'body.team_group_id')
        : permissionMap(body['group_id'], 'body.group_id'),
    user_id: permissionMap(body['user_id'], 'body.user_id'),
  };
}

/** A map, or an array of maps merged into one; an id given twice must keep its letter. */
function permissionMap(value: unknown, field: string): PermissionMap {
  if (value === undefined || value === null) return {};
  const parts = (Array.isArray(value) ? value : [value]) as Record<string, Letter>[];
  const entries = new Map<string, Letter>();
  for (const [i, part] of parts.entries()) {
    for (const [id, letter] of Object.entries(part)) {
      const before = entries.get(id);
      if (before !== undefined && before !== letter) {
        const message = `the id ${id} is given twice, with the letters ${before} and ${letter}; give each id once.`;
        throw invalidRequest(`${field}: ${message}`, [
          { field: `${field}[${i}].${id}`, code: 'duplicate', message },
        ]);
      }
      entries.set(id, letter);
    }
  }
  return Object.fromEntries(entries);
}

const PARTICIPANTS = {
  contact_ids: 'contact',
  identity_ids: 'identity',
  organization_ids: 'organization',
} as const;

type Participants = Record<keyof typeof PARTICIPANTS, string[] | null>;

/**
 * The grant as read, with the participants derived from the record's reference properties:
 * the ids its ref_/multiref_ properties to contacts, identities and organizations hold; null
 * for a kind no definition of the record's type refers to.
 */
function grantBody(scope: Scope, record: Readonly<StoredRecord>, grant: StoredGrant) {
  const participants: Participants = {
    contact_ids: null,
    identity_ids: null,
    organization_ids: null,
  };
  const scopes: [Scope, Record<string, unknown> | undefined][] = [
    [scope, record.default],
    ...Object.entries(record.lists).map(([listId, values]): [Scope, Record<string, unknown>] => [
      { ...scope, listId },
      values,
    ]),
  ];
  for (const [where, values] of scopes) {
    for (const def of definitionsIn(where)) {
      if (!isReference(def) || (where.listId !== null && def.list_id !== where.listId)) continue;
      const kind = (Object.keys(PARTICIPANTS) as (keyof Participants)[]).find(
        (k) => PARTICIPANTS[k] === referenceTarget(def),
      );
      if (kind === undefined) continue;
      const ids = participants[kind] ?? [];
      participants[kind] = ids;
      const value = own(values, def.slug);
      for (const id of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
        if (typeof id === 'string' && !ids.includes(id)) ids.push(id);
      }
    }
  }
  return {
    share_level: grant.share_level,
    team_id: grant.team_id,
    group_id: grant.group_id,
    user_id: grant.user_id,
    ...participants,
  };
}
