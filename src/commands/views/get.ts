import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { namedView, type ViewRef, viewColumns } from './shared.ts';

export async function run(opts: ViewRef, deps: Deps): Promise<void> {
  const { view } = await namedView(deps, opts);
  await renderObject(deps.io, view, viewColumns, { format: deps.format, fields: deps.fields });
}
