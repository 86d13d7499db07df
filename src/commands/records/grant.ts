// ws records grant get|set TYPE ID: who may see a record (deal, action, document, event,
// engagement, identity) or a message. `set` replaces the whole grant (PUT), from flags
// (--user ID=LETTER, --team, --group, --share-level) and/or --data JSON.
import { type GrantType, objectType } from '../../api/object-types.ts';
import { type Grant, type GrantWrite, getGrant, putGrant } from '../../api/records.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { renderObject } from '../../output/render.ts';
import { readJsonArg } from '../common/input.ts';
import { recordId } from '../common/record-args.ts';

export interface GrantGetOptions {
  action: 'get';
  type: string;
  id: string;
}

export interface GrantSetOptions {
  action: 'set';
  type: string;
  id: string;
  user: string[];
  team: string[];
  group: string[];
  shareLevel?: string | undefined;
  data?: string | undefined;
}

export type GrantOptions = GrantGetOptions | GrantSetOptions;

const LETTERS = ['a', 'r', 'w'];
const SHARE_LEVELS = ['metadata', 'full'];

function grantType(input: string): GrantType {
  return objectType(input, 'grant') as GrantType;
}

type PermissionMap = Record<string, string>;

/** A permission map from its current form or the older list of one-entry maps. */
export function permissionMap(value: unknown): PermissionMap {
  if (Array.isArray(value))
    return Object.assign({}, ...value.filter((v) => v && typeof v === 'object'));
  if (value && typeof value === 'object') return { ...(value as PermissionMap) };
  return {};
}

/** The grant in one shape: maps for every kind, group_id merged with its older name. */
export function normaliseGrant(g: Grant): {
  share_level: string | null;
  team_id: PermissionMap;
  group_id: PermissionMap;
  user_id: PermissionMap;
  contact_ids: string[] | null;
  identity_ids: string[] | null;
  organization_ids: string[] | null;
} {
  return {
    share_level: g.share_level ?? null,
    team_id: permissionMap(g.team_id),
    group_id: { ...permissionMap(g.team_group_id), ...permissionMap(g.group_id) },
    user_id: permissionMap(g.user_id),
    contact_ids: g.contact_ids ?? null,
    identity_ids: g.identity_ids ?? null,
    organization_ids: g.organization_ids ?? null,
  };
}

type Shown = ReturnType<typeof normaliseGrant>;

const mapText = (v: unknown) => {
  const entries = Object.entries((v ?? {}) as PermissionMap);
  return entries.length === 0 ? '(none)' : entries.map(([id, l]) => `${id}=${l}`).join(', ');
};
const listText = (v: unknown) =>
  v === null
    ? '(unavailable)'
    : (v as string[]).length === 0
      ? '(none)'
      : (v as string[]).join(', ');

const columns: Column<Shown>[] = [
  { key: 'share_level', text: (v) => (v === null ? '(not set)' : String(v)) },
  { key: 'team_id', text: mapText },
  { key: 'group_id', text: mapText },
  { key: 'user_id', text: mapText },
  { key: 'contact_ids', text: listText },
  { key: 'identity_ids', text: listText },
  { key: 'organization_ids', text: listText },
];

/** `--user ID=LETTER` entries as a map. */
type Letter = 'a' | 'r' | 'w';

function entries(flag: string, specs: readonly string[]): Record<string, Letter> | undefined {
  if (specs.length === 0) return undefined;
  const out: Record<string, Letter> = {};
  for (const spec of specs) {
    const m = /^([^=\s]+)=([a-z])$/i.exec(spec.trim());
    if (!m || !LETTERS.includes(m[2]!.toLowerCase())) {
      throw new UsageError(
        `${flag} "${spec}" must be ID=LETTER with LETTER one of ${LETTERS.join(', ')}.`,
        `For example ${flag} 7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a=w`,
      );
    }
    out[m[1]!] = m[2]!.toLowerCase() as Letter;
  }
  return out;
}

async function buildGrant(opts: GrantSetOptions, deps: Deps): Promise<GrantWrite> {
  let body: GrantWrite = {};
  if (opts.data !== undefined) {
    const data = await readJsonArg(opts.data, deps, '--data');
    if (data === null || typeof data !== 'object' || Array.isArray(data))
      throw new UsageError('--data must be a JSON object: {"user_id": {"ID": "w"}, …}.');
    body = data as GrantWrite;
  }
  const user = entries('--user', opts.user);
  const team = entries('--team', opts.team);
  const group = entries('--group', opts.group);
  if (user) body.user_id = user;
  if (team) body.team_id = team;
  if (group) body.group_id = group;
  if (opts.shareLevel !== undefined) {
    if (!SHARE_LEVELS.includes(opts.shareLevel))
      throw new UsageError(
        `--share-level takes ${SHARE_LEVELS.join(' or ')}, not "${opts.shareLevel}".`,
      );
    body.share_level = opts.shareLevel as GrantWrite['share_level'];
  }
  if (Object.keys(body).length === 0) {
    throw new UsageError(
      'Nothing to set: give --user, --team, --group, --share-level or --data.',
      'grant set replaces the whole grant, e.g. ws records grant set deal ID --user USER_ID=w --team TEAM_ID=r',
    );
  }
  return body;
}

export async function run(opts: GrantOptions, deps: Deps): Promise<void> {
  const type = grantType(opts.type);
  const id = recordId(opts.id);
  const body = opts.action === 'set' ? await buildGrant(opts, deps) : undefined;
  const client = await deps.client();
  const grant =
    body === undefined
      ? await getGrant(client, type, id, { signal: deps.signal })
      : await putGrant(client, type, id, body, { signal: deps.signal });
  if (body !== undefined) deps.io.success(`Set the grant of ${type} ${id}.`);
  await renderObject(deps.io, normaliseGrant(grant), columns, {
    format: deps.format,
    fields: deps.fields,
  });
}
