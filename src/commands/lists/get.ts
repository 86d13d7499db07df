// `ws lists get LIST`: one list, by id or name, with its views.
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { listColumns, resolveList } from './shared.ts';

export interface GetOptions {
  /** A list id, or a list name (looked up in the listing). */
  list: string;
}

export async function run(opts: GetOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const list = await resolveList(deps, client, opts.list);
  await renderObject(deps.io, list, listColumns(false), {
    format: deps.format,
    fields: deps.fields,
  });
}
