import type { Profile } from '../../config/store.ts';
import { redactKey } from '../../config/store.ts';
import { UsageError } from '../../errors.ts';
import type { Column } from '../../output/format.ts';
import { isUuid } from '../../util/guards.ts';

export interface ProfileRow {
  name: string;
  default: boolean;
  base_url: string;
  team_id: string;
  api_key: string;
  rate_limit: number;
}

export function profileRow(name: string, p: Profile, defaultName: string | undefined): ProfileRow {
  return {
    name,
    default: name === defaultName,
    base_url: p.base_url,
    team_id: p.team_id,
    api_key: redactKey(p.api_key),
    rate_limit: p.rate_limit ?? 10,
  };
}

export const profileColumns: Column<ProfileRow>[] = [
  { key: 'name' },
  { key: 'default', text: (v) => (v ? 'yes' : '') },
  { key: 'base_url', header: 'BASE URL' },
  { key: 'team_id', header: 'TEAM ID' },
  { key: 'api_key', header: 'API KEY' },
  { key: 'rate_limit', header: 'RATE LIMIT', align: 'right' },
];

export function checkTeamId(value: string): true | string {
  return isUuid(value.trim())
    ? true
    : `"${value}" is not a team id: it is a UUID, shown in the workspace settings (API section).`;
}

export function checkBaseUrl(value: string): true | string {
  try {
    const u = new URL(value.trim());
    if (u.protocol === 'http:' || u.protocol === 'https:') return true;
  } catch {
    // fall through
  }
  return `"${value}" is not an http(s) URL, e.g. https://api.example.com.`;
}

export function must(check: true | string, flag: string): void {
  if (check !== true) throw new UsageError(`${flag}: ${check}`);
}
