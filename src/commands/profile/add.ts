import { PROFILE_NAME, redactKey } from '../../config/store.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
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

  let baseUrl = opts.baseUrl?.trim();
  if (baseUrl === undefined) {
    if (!io.canPrompt())
      throw new UsageError(
        '--base-url is required.',
        'Give the API address, e.g. --base-url https://api.example.com.',
      );
    baseUrl = (
      await prompter.input({ message: 'Base URL of the API', validate: checkBaseUrl })
    ).trim();
  }
  must(checkBaseUrl(baseUrl), '--base-url');

  let teamId = opts.teamId?.trim();
  if (teamId === undefined) {
    if (!io.canPrompt())
      throw new UsageError(
        '--team-id is required.',
        'The team id is shown in the workspace settings (API section).',
      );
    teamId = (await prompter.input({ message: 'Team id', validate: checkTeamId })).trim();
  }
  must(checkTeamId(teamId), '--team-id');

  const apiKey = await readKey(opts, deps);
  const makeDefault = await store.set(
    opts.name,
    {
      base_url: trimTrailingSlashes(baseUrl),
      team_id: teamId,
      api_key: apiKey,
      ...(opts.rateLimit !== undefined ? { rate_limit: opts.rateLimit } : {}),
    },
    opts.makeDefault ? 'always' : 'if-none',
  );
  io.success(
    `Saved profile "${opts.name}" (key ${redactKey(apiKey)})${makeDefault ? ' as the default profile' : ''}.`,
  );
  io.info(`Check it with: ws auth status${makeDefault ? '' : ` --profile ${opts.name}`}`);
  if (deps.format === 'json' || deps.format === 'ndjson') {
    const saved = store.get(opts.name)!;
    await renderObject(io, profileRow(opts.name, saved, store.defaultName()), profileColumns, {
      format: deps.format,
      fields: deps.fields,
    });
  }
}
