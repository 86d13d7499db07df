import type { ViewType } from '../../api/object-types.ts';
import { createView, type ViewCreate } from '../../api/views.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import {
  checkedViewSpec,
  selectGroupBy,
  type ViewSpecFlags,
  viewColumns,
  viewObjectType,
  viewSpec,
} from './shared.ts';

export interface CreateOptions extends ViewSpecFlags {
  type: string;
  name?: string | undefined;
  /** grid, list or kanban (default grid). */
  viewType?: string | undefined;
  listId?: string | undefined;
  groupHideEmpty?: boolean | undefined;
  icon?: string | undefined;
}

async function viewName(opts: CreateOptions, deps: Deps, type: ViewType): Promise<string> {
  if (opts.name !== undefined) {
    if (opts.name.trim() === '') throw new UsageError('--name cannot be empty.');
    return opts.name;
  }
  if (!deps.io.canPrompt()) {
    throw new UsageError(
      'A view needs a name: pass --name.',
      `e.g. ws views create ${type} --name "Open deals" --type grid`,
    );
  }
  return deps.prompter.input({
    message: `Name of the new ${type} view`,
    validate: (v) => (v.trim() === '' ? 'A name is required.' : true),
  });
}

export async function run(opts: CreateOptions, deps: Deps): Promise<void> {
  const type = viewObjectType(opts.type);
  viewSpec(opts, {}); // the flags' syntax, before a prompt or a request
  const name = await viewName(opts, deps, type);
  const spec = await checkedViewSpec(deps, type, opts, opts.listId);
  const body: ViewCreate = {
    name,
    view_type: (opts.viewType ?? 'grid') as ViewCreate['view_type'],
    ...spec,
    ...(opts.listId !== undefined ? { list_id: opts.listId } : {}),
    ...(opts.groupHideEmpty !== undefined ? { group_hide_empty: opts.groupHideEmpty } : {}),
    ...(opts.icon !== undefined ? { icon: opts.icon } : {}),
  };
  selectGroupBy(deps, body);
  const client = await deps.client();
  const view = await createView(client, type, body, { signal: deps.signal });
  deps.io.success(`Created ${type} view "${view.name}" (${view.id}).`);
  await renderObject(deps.io, view, viewColumns, { format: deps.format, fields: deps.fields });
}
