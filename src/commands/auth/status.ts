import { refusalOf } from '../../api/errors.ts';
import { countRecords } from '../../api/records.ts';
import { redactKey } from '../../config/store.ts';
import { ApiError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { renderObject } from '../../output/render.ts';

export type StatusOptions = Record<string, never>;

interface StatusRow {
  profile: string | null;
  base_url: string;
  team_id: string;
  api_key: string;
  api_key_source: string;
  status: string;
  request_id: string | null;
}

const columns: Column<StatusRow>[] = [
  { key: 'profile', text: (v) => (v === null ? '(environment)' : String(v)) },
  { key: 'base_url' },
  { key: 'team_id' },
  { key: 'api_key' },
  { key: 'api_key_source', default: false },
  { key: 'status' },
  { key: 'request_id', default: false },
];

/** Checks the key with one cheap request (the contact count) and shows what is in use. */
export async function run(_opts: StatusOptions, deps: Deps): Promise<void> {
  const creds = await deps.credentials();
  const client = await deps.client();
  const who = `${creds.profile ? `profile "${creds.profile}"` : 'the environment'} (key ${redactKey(creds.apiKey)}, team ${creds.teamId}, ${creds.baseUrl})`;
  let requestId: string | undefined;
  try {
    ({ requestId } = await countRecords(client, 'contact', { signal: deps.signal }));
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      const which = err.status === 403 ? refusalOf(err).which : undefined;
      const hint =
        err.status === 401
          ? `Checked ${who}. Set WS_API_KEY, or store a key with \`ws profile add NAME --with-key\`.`
          : which === 'team'
            ? `Checked ${who}. The key works, but not for this team: check the team id (workspace settings, API section).`
            : which === 'key'
              ? `Checked ${who}. The key is wrong: generate a new one in the workspace settings (API section).`
              : `Checked ${who}. Check the team id, or generate a new key in the workspace settings (API section).`;
      throw new ApiError({
        status: err.status,
        ...(err.apiCode ? { code: err.apiCode } : {}),
        message: err.message,
        ...(err.requestId ? { requestId: err.requestId } : {}),
        errors: err.errors,
        method: err.method,
        url: err.url,
        hint,
      });
    }
    throw err;
  }
  const row: StatusRow = {
    profile: creds.profile ?? null,
    base_url: creds.baseUrl,
    team_id: creds.teamId,
    api_key: redactKey(creds.apiKey),
    api_key_source: creds.sources.apiKey,
    status: 'ok',
    request_id: requestId ?? null,
  };
  await renderObject(deps.io, row, columns, { format: deps.format, fields: deps.fields });
  if (deps.format === 'table') deps.io.success('The API key works for this team.');
}
