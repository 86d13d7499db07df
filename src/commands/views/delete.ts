import { deleteView, getView } from '../../api/views.ts';
import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { resolveView, rethrowForView, type ViewRef, viewObjectType } from './shared.ts';

export async function run(opts: ViewRef, deps: Deps): Promise<void> {
  const type = viewObjectType(opts.type);
  const client = await deps.client();
  const found = await resolveView(deps, client, type, opts.view);
  const id = found.id;
  const notFound = rethrowForView(type);
  // A person is shown the view's name before deciding; --yes and a refusal need no read.
  let view = found.view;
  if (!view && deps.io.canPrompt()) {
    view = await getView(client, type, id, { signal: deps.signal }).catch(notFound);
  }
  const label = view ? `"${view.name}" (${id})` : id;
  await confirmOrRefuse(
    deps.io,
    deps.prompter,
    `Delete ${type} view ${label}?`,
    `Not deleting ${type} view ${label} without confirmation.`,
  );
  await deleteView(client, type, id, { signal: deps.signal }).catch(notFound);
  deps.io.success(`Deleted ${type} view ${label}.`);
  if (deps.format === 'json' || deps.format === 'ndjson')
    deps.io.println(JSON.stringify({ deleted: id }));
}
