// The role each storage type's definitions get when they are created without one. The API
// gives a new definition "the canonical role for the type" but publishes no list of them,
// so ws learns each one from the API's answer to a create that sent no role_id (`ws props
// create`, `ws props apply`). `ws props export` leaves out a role_id that is its type's
// default: a file without role_id, applied and exported again, gives the same file, and a
// role that is not the default (a display format chosen on purpose) is kept.
//
// One small file per workspace (base URL and team id), <config dir>/cache/roles-<hash>.json:
// { format, version, base_url, team_id, defaults: { "<storage type>": "<role id>" } }.
// Removing it is safe: until the roles are learnt again, export writes every role_id.
import { readFileSync } from 'node:fs';
import type { PropertyDefinition } from '../api/props.ts';
import type { Deps } from '../factory.ts';
import { place, writeJsonFile } from './definitions-cache.ts';

const FORMAT = 'ws-default-roles';
const VERSION = 1;

interface RolesFile {
  format: typeof FORMAT;
  version: typeof VERSION;
  base_url: string;
  team_id: string;
  defaults: Record<string, string>;
}

/** The default role of each storage type learnt for the workspace in use (type → role id). */
export async function defaultRoles(deps: Deps): Promise<Readonly<Record<string, string>>> {
  const p = await place(deps, 'roles');
  try {
    const data = JSON.parse(readFileSync(p.file, 'utf8')) as RolesFile;
    if (
      data?.format === FORMAT &&
      data.version === VERSION &&
      data.base_url === p.baseUrl &&
      data.team_id === p.teamId &&
      data.defaults &&
      typeof data.defaults === 'object'
    ) {
      return data.defaults;
    }
  } catch {
    // None learnt yet, or a file that cannot be read: nothing is known.
  }
  return {};
}

/** Keep the roles of definitions just created without a role_id: their types' defaults. */
export async function learnDefaultRoles(
  deps: Deps,
  created: readonly PropertyDefinition[],
): Promise<void> {
  const learnt = created.filter((d) => typeof d.role_id === 'string' && d.role_id !== '');
  if (learnt.length === 0) return;
  const known = await defaultRoles(deps);
  if (learnt.every((d) => known[d.type] === d.role_id)) return;
  const p = await place(deps, 'roles');
  const defaults: Record<string, string> = { ...known };
  for (const d of learnt) defaults[d.type] = d.role_id!;
  const data: RolesFile = {
    format: FORMAT,
    version: VERSION,
    base_url: p.baseUrl,
    team_id: p.teamId,
    defaults,
  };
  writeJsonFile(deps, p.file, data, 'default roles');
}
