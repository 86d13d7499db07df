import { getView } from '../../api/views.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { resolveView, rethrowForView, viewColumns, viewObjectType } from './shared.ts';

export interface GetOptions {
  type: string;
  /** A view id, or a view name (looked up in the listing). */
  view: string;
}

export async function run(opts: GetOptions, deps: Deps): Promise<void> {
  const type = viewObjectType(opts.type);
  const client = await deps.client();
  const found = await resolveView(deps, client, type, opts.view);
  // A view found by name comes from the listing already: no second read.
  const view =
    found.view ??
    (await getView(client, type, found.id, { signal: deps.signal }).catch(rethrowForView(type)));
  await renderObject(deps.io, view, viewColumns, { format: deps.format, fields: deps.fields });
}
