// Grants of records (deal, action, document, event, engagement, identity) and of messages:
// GET reads, PUT replaces the whole grant (idempotent).
//
// PUT takes maps of id to permission letter (`team_id`, `group_id`, `user_id`), or the
// older form, arrays of single-entry maps, and the older name `team_group_id` for
// `group_id`; answers always carry plain maps under the current names. The read-only
// participant arrays may be sent back as read and are ignored.
//
// `message` has no record routes (the official client reaches only its grant), so the
// sandbox keeps no messages: a message grant is kept by the id the path names, whatever it
// is, and its participants are null (they cannot be resolved).

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

/** Path check: the object types that have grants. */
export function requireGrantType(ctx: PathContext): void {
  const type = ctx.params['objectType'] ?? '';
  if (!isGrantType(type)) {
    throw notFound(
      `${type} records have no grants: grants exist for ${GRANT_TYPES.join(', ')} only.`,
    );
  }
}

/** GET /v2/prism/{teamId}/{type}/{id}/grant */
export function getGrant(ctx: RequestContext): Reply {
  const { type, id, participants } = target(ctx);
  return { status: 200, body: grantBody(grantsOf(ctx.store).get(type, id), participants) };
}

/** PUT /v2/prism/{teamId}/{type}/{id}/grant: full replacement. */
export function putGrant(ctx: RequestContext): Reply {
  const { type, id, participants } = target(ctx);
  const grant = parseGrant(ctx.body as Record<string, unknown>);
  const stored = grantsOf(ctx.store).put(type, id, grant);
  return { status: 200, body: grantBody(stored, participants) };
}

/** The grant's owner: a record (404 when missing or deleted), or a message by its id. */
function target(ctx: RequestContext): { type: GrantType; id: string; participants: Participants } {
  const type = ctx.params['objectType'] as GrantType;
  if (type === 'message') {
    return { type, id: ctx.params['id']!, participants: NO_PARTICIPANTS };
  }
  const scope = recordScope(ctx);
  const record = requireRecord(ctx, scope);
  return { type, id: record.id, participants: participantsOf(scope, record) };
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

const NO_PARTICIPANTS: Participants = {
  contact_ids: null,
  identity_ids: null,
  organization_ids: null,
};

/**
 * The participants of a record, derived from its reference properties: the ids its
 * ref_/multiref_ properties to contacts, identities and organizations hold; null for a kind
 * no definition of the record's type refers to.
 */
function participantsOf(scope: Scope, record: Readonly<StoredRecord>): Participants {
  const participants: Participants = { ...NO_PARTICIPANTS };
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
  return participants;
}

/** The grant as read, with its participants. */
function grantBody(grant: StoredGrant, participants: Participants) {
  return {
    share_level: grant.share_level,
    team_id: grant.team_id,
    group_id: grant.group_id,
    user_id: grant.user_id,
    ...participants,
  };
}
