// `ws lists list`: every list that is not a core one (all pages).
import type { Deps } from '../../factory.ts';
import { renderRows } from '../../output/render.ts';
import { allLists, listColumns } from './shared.ts';

export type ListOptions = Record<string, never>;

export async function run(_opts: ListOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const lists = await allLists(deps, client);
  await renderRows(deps.io, lists, listColumns(true), {
    format: deps.format,
    fields: deps.fields,
    emptyMessage: 'No lists. Create one with `ws lists create --template TEMPLATE`.',
  });
}
