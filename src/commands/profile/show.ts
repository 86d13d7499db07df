import { NO_PROFILE_HINT, noSuchProfile } from '../../config/resolve.ts';
import { NotFoundError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { profileColumns, profileRow } from './shared.ts';

export interface ShowOptions {
  name?: string | undefined;
}

export async function run(opts: ShowOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const from =
    opts.name !== undefined
      ? undefined
      : deps.flags.profile !== undefined
        ? '--profile'
        : deps.env.WS_PROFILE
          ? 'WS_PROFILE'
          : undefined;
  const name =
    opts.name ?? deps.flags.profile ?? (deps.env.WS_PROFILE || undefined) ?? store.defaultName();
  if (name === undefined) throw new NotFoundError('There is no default profile.', NO_PROFILE_HINT);
  const profile = store.get(name);
  if (!profile) throw noSuchProfile(name, store.names(), from);
  await renderObject(deps.io, profileRow(name, profile, store.defaultName()), profileColumns, {
    format: deps.format,
    fields: deps.fields,
  });
}
