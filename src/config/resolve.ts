// Which credentials a command uses: --profile, else WS_PROFILE, else the default
// profile; WS_API_KEY, WS_TEAM_ID and WS_BASE_URL override single values of it.
import { AuthError, NotFoundError, UsageError } from '../errors.ts';
import type { Env } from '../io/streams.ts';
import { isUuid } from '../util/guards.ts';
import type { ProfileStore } from './store.ts';

export const DEFAULT_RATE_LIMIT = 10;

export interface Credentials {
  /** The profile used, or undefined when everything came from the environment. */
  profile: string | undefined;
  baseUrl: string;
  teamId: string;
  apiKey: string;
  rateLimit: number;
  /** Where each value came from, for `ws auth status`. */
  sources: { baseUrl: string; teamId: string; apiKey: string };
}

export const NO_PROFILE_HINT =
  'Add one with `ws profile add NAME --base-url URL --team-id ID --with-key < key.txt`, ' +
  'or try ws on a local sandbox: `ws sandbox start --detach`.';

/**
 * A profile that is named (by `--profile`, `WS_PROFILE` or a `ws profile` verb) and does not
 * exist: exit 4, as anything else named and not found, wherever it was named.
 */
export function noSuchProfile(
  name: string,
  names: readonly string[],
  from?: string,
): NotFoundError {
  return new NotFoundError(
    `No profile named "${name}"${from ? ` (from ${from})` : ''}.`,
    names.length > 0 ? `Profiles: ${names.join(', ')}.` : NO_PROFILE_HINT,
  );
}

export function resolveCredentials(
  store: ProfileStore,
  env: Env,
  flagProfile: string | undefined,
): Credentials {
  const explicit = flagProfile ?? (env.WS_PROFILE || undefined);
  const name = explicit ?? store.defaultName();
  const profile = name !== undefined ? store.get(name) : undefined;
  if (explicit !== undefined && profile === undefined) {
    throw noSuchProfile(
      explicit,
      store.names(),
      flagProfile !== undefined ? '--profile' : 'WS_PROFILE',
    );
  }
  const label = name !== undefined && profile ? `profile ${name}` : undefined;
  const pick = (envName: string, value: string | undefined) => {
    const fromEnv = env[envName];
    if (fromEnv) return { value: fromEnv, source: envName };
    return { value, source: label ?? 'none' };
  };
  const baseUrl = pick('WS_BASE_URL', profile?.base_url);
  const teamId = pick('WS_TEAM_ID', profile?.team_id);
  const apiKey = pick('WS_API_KEY', profile?.api_key);

  if (!profile && !baseUrl.value && !teamId.value && !apiKey.value) {
    throw new AuthError(
      'No profile is set up and no credentials are in the environment.',
      NO_PROFILE_HINT,
    );
  }
  const where = label ?? 'the environment';
  if (!baseUrl.value) {
    throw new AuthError(
      `No base URL in ${where}.`,
      'Set WS_BASE_URL, or add a profile with --base-url.',
    );
  }
  if (!teamId.value) {
    throw new AuthError(
      `No team id in ${where}.`,
      'Set WS_TEAM_ID, or add a profile with --team-id.',
    );
  }
  if (!isUuid(teamId.value)) {
    // Checked as `ws profile add` checks it, before anything is sent.
    throw new UsageError(
      `The team id "${teamId.value}" (from ${teamId.source}) is not a team id: it is a UUID, shown in the workspace settings (API section).`,
      teamId.source === 'WS_TEAM_ID'
        ? 'Fix or unset WS_TEAM_ID.'
        : `Fix it with \`ws profile add ${name ?? 'NAME'} --team-id ID\`.`,
    );
  }
  if (!apiKey.value) {
    throw new AuthError(
      `No API key in ${where}.`,
      `Set WS_API_KEY, or store one with \`ws profile add ${name ?? 'NAME'} --with-key < key.txt\`.`,
    );
  }
  return {
    profile: label ? name : undefined,
    baseUrl: baseUrl.value,
    teamId: teamId.value,
    apiKey: apiKey.value,
    rateLimit: profile?.rate_limit ?? DEFAULT_RATE_LIMIT,
    sources: { baseUrl: baseUrl.source, teamId: teamId.source, apiKey: apiKey.source },
  };
}
