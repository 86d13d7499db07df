import type { Deps } from '../../factory.ts';
import { renderRows } from '../../output/render.ts';
import { allViews, viewListColumns, viewObjectType } from './shared.ts';

export interface ListOptions {
  type: string;
  listId?: string | undefined;
}

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const type = viewObjectType(opts.type);
  const client = await deps.client();
  const views = await allViews(deps, client, type, opts.listId);
  await renderRows(deps.io, views, viewListColumns, {
    format: deps.format,
    fields: deps.fields,
    emptyMessage: `No ${type} views${opts.listId ? ` on list ${opts.listId}` : ''}. Create one with \`ws views create ${type} --name NAME\`.`,
  });
}
