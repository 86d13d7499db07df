import { refusalOf } from '../../api/errors.ts';
import { countRecords } from '../../api/records.ts';
import { DEFAULT_RATE_LIMIT } from '../../config/resolve.ts';
import { PROFILE_NAME, redactKey } from '../../config/store.ts';
import { ApiError, AuthError, ExitCode, NetworkError, UsageError, WsError } from '../../errors.ts';
import type { ClientCredentials, Deps } from '../../factory.ts';
import { readStdin } from '../../io/stdin.ts';
import { renderObject } from '../../output/render.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { trimTrailingSlashes } from '../../util/text.ts';
import { checkBaseUrl, checkTeamId, must, profileColumns, profileRow } from './shared.ts';

export interface AddOptions {
  name: string;
  baseUrl?: string | undefined;
  teamId?: string | undefined;
  /** Read the API key from stdin. */
  withKey: boolean;
  rateLimit?: number | undefined;
  makeDefault: boolean;
  /** Check the key with one request before saving (--no-verify: false). */
  verify: boolean;
}

async function readKey(opts: AddOptions, deps: Deps): Promise<string> {
  const { io, prompter } = deps;
  if (opts.withKey && !io.isStdinTTY) {
    const text =
      (await readStdin(io, 'The API key on stdin', { signal: deps.signal, maxBytes: 64 * 1024 }))
        .trim()
        .split(/\r?\n/)[0]
        ?.trim() ?? '';
    if (text === '')
      throw new UsageError(
        '--with-key read an empty API key from stdin.',
        'Pipe the key in: `ws profile add NAME --with-key < key.txt`.',
      );
    return text;
  }
  if (io.canPrompt() || (opts.withKey && io.isStdinTTY && io.isStdoutTTY && !io.noInput)) {
    return (
      await prompter.password({
        message: 'API key (from the workspace settings, API section)',
        validate: (v) => (v.trim() !== '' ? true : 'The key cannot be empty.'),
      })
    ).trim();
  }
  throw new UsageError(
    'No API key given.',
    'Pipe it in with --with-key, e.g. `ws profile add NAME --base-url URL --team-id ID --with-key < key.txt` (keys are never taken as flags, so they stay out of shell history).',
  );
}

/**
 * A value its flag gave, else asked for on a terminal (elsewhere the flag is required),
 * trimmed and checked.
 */
async function flagOrAsk(
  deps: Deps,
  given: string | undefined,
  want: { flag: string; hint: string; message: string; check: (v: string) => true | string },
): Promise<string> {
  let value = given?.trim();
  if (value === undefined) {
    if (!deps.io.canPrompt()) throw new UsageError(`${want.flag} is required.`, want.hint);
    value = (await deps.prompter.input({ message: want.message, validate: want.check })).trim();
  }
  must(want.check(value), want.flag);
  return value;
}

export async function run(opts: AddOptions, deps: Deps): Promise<void> {
  const { io, prompter } = deps;
  if (!PROFILE_NAME.test(opts.name)) {
    throw new UsageError(
      `"${opts.name}" is not a valid profile name.`,
      'Use letters, digits, ".", "_" and "-" (up to 64 characters), starting with a letter or digit.',
    );
  }
  const store = await deps.config();
  if (store.get(opts.name)) {
    await confirmOrRefuse(
      io,
      prompter,
      `Profile "${opts.name}" exists. Replace it?`,
      `Profile "${opts.name}" already exists; nothing was changed.`,
    );
  }

  const baseUrl = await flagOrAsk(deps, opts.baseUrl, {
    flag: '--base-url',
    hint: 'Give the API address, e.g. --base-url https://api.example.com.',
    message: 'Base URL of the API',
    check: checkBaseUrl,
  });
  const teamId = await flagOrAsk(deps, opts.teamId, {
    flag: '--team-id',
    hint: 'The team id is shown in the workspace settings (API section).',
    message: 'Team id',
    check: checkTeamId,
  });

  const apiKey = await readKey(opts, deps);
  const base = trimTrailingSlashes(baseUrl);
  if (opts.verify) {
    await verifyKey(
      {
        baseUrl: base,
        teamId,
        apiKey,
        rateLimit: opts.rateLimit ?? DEFAULT_RATE_LIMIT,
      },
      opts.name,
      deps,
    );
  }
  const makeDefault = await store.set(
    opts.name,
    {
      base_url: base,
      team_id: teamId,
      api_key: apiKey,
      ...(opts.rateLimit !== undefined ? { rate_limit: opts.rateLimit } : {}),
    },
    opts.makeDefault ? 'always' : 'if-none',
  );
  io.success(
    `Saved profile "${opts.name}" (key ${redactKey(apiKey)})${makeDefault ? ' as the default profile' : ''}.`,
  );
  if (opts.verify) io.success(`The key works for team ${teamId}.`);
  else io.info(`Check it with: ws auth status${makeDefault ? '' : ` --profile ${opts.name}`}`);
  if (deps.format === 'json' || deps.format === 'ndjson') {
    const saved = store.get(opts.name)!;
    await renderObject(io, profileRow(opts.name, saved, store.defaultName()), profileColumns, {
      format: deps.format,
      fields: deps.fields,
    });
  }
}

/**
 * One cheap request (the contact count, as `ws auth status` makes it) with the profile's
 * values before they are saved: a refused key or team, or an address that is not the API,
 * is an error that says which, and nothing is saved.
 */
async function verifyKey(creds: ClientCredentials, name: string, deps: Deps): Promise<void> {
  const client = await deps.clientFor(creds);
  const skip = `Nothing was saved; \`ws profile add ${name} … --no-verify\` saves it without checking.`;
  try {
    await countRecords(client, 'contact', { signal: deps.signal });
  } catch (err) {
    if (!(err instanceof ApiError)) {
      if (err instanceof NetworkError)
        throw new NetworkError(err.message, {
          hint: `${err.hint ?? ''} ${skip}`.trim(),
          cause: err,
        });
      throw err;
    }
    throw refusal(err, creds, skip);
  }
}

/** The error of a check the service answered with something other than a count. */
function refusal(err: ApiError, creds: ClientCredentials, skip: string): WsError {
  const key = redactKey(creds.apiKey);
  if (err.status === 403) {
    const { which, said } = refusalOf(err);
    const message =
      which === 'team'
        ? `The API key ${key} works, but it has no access to team ${creds.teamId}: the team id is wrong (or the key belongs to another team).`
        : which === 'key'
          ? `The API key ${key} is not valid for ${creds.baseUrl}: the key is wrong (mistyped, revoked, or of another service).`
          : `The service refused the API key ${key} for team ${creds.teamId} (HTTP 403) without saying whether the key or the team id is wrong.`;
    const fix =
      which === 'team'
        ? 'Check --team-id: it is shown in the workspace settings (API section), beside the key.'
        : which === 'key'
          ? 'Check the key: it is shown once, when it is generated in the workspace settings (API section); generate a new one if it is lost.'
          : 'Check both in the workspace settings (API section).';
    return new AuthError(`${message} The service said: ${said}`, `${fix} ${skip}`);
  }
  if (err.status === 401)
    return new AuthError(
      `The service at ${creds.baseUrl} did not receive the API key (HTTP 401).`,
      `A proxy between you and the service may drop the x-api-key header. ${skip}`,
    );
  if (err.status === 404 || err.status === 405)
    return new WsError(
      `${creds.baseUrl} does not answer as the API does (HTTP ${err.status} to ${err.method} /v2/prism/…/contact/count).`,
      {
        exitCode: ExitCode.notFound,
        code: 'not_found',
        hint: `Check --base-url: the address of the API, without /v2. ${skip}`,
      },
    );
  return err.with({ hint: `${err.hint ?? ''} ${skip}`.trim() });
}
