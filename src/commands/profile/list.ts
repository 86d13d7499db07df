import type { Deps } from '../../factory.ts';
import { renderRows } from '../../output/render.ts';
import { profileColumns, profileRow } from './shared.ts';

export type ListOptions = Record<string, never>;

export async function run(_opts: ListOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const def = store.defaultName();
  const rows = store.names().map((n) => profileRow(n, store.get(n)!, def));
  await renderRows(deps.io, rows, profileColumns, {
    format: deps.format,
    fields: deps.fields,
    emptyMessage:
      'No profiles yet. Add one with `ws profile add NAME`, or start a sandbox with `ws sandbox start --detach`.',
  });
}
