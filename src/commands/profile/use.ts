import { noSuchProfile } from '../../config/resolve.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { profileColumns, profileRow } from './shared.ts';

export interface UseOptions {
  name: string;
}

export async function run(opts: UseOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const profile = store.get(opts.name);
  if (!profile) throw noSuchProfile(opts.name, store.names());
  await store.setDefault(opts.name);
  deps.io.success(`"${opts.name}" is now the default profile.`);
  if (deps.format === 'json' || deps.format === 'ndjson') {
    await renderObject(deps.io, profileRow(opts.name, profile, opts.name), profileColumns, {
      format: deps.format,
      fields: deps.fields,
    });
  }
}
