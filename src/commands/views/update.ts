import { getView, updateView, type ViewPatch } from '../../api/views.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import {
  checkedViewSpec,
  resolveView,
  rethrowForView,
  selectGroupBy,
  type ViewSpecFlags,
  viewColumns,
  viewObjectType,
  viewSpec,
} from './shared.ts';

export interface UpdateOptions extends ViewSpecFlags {
  type: string;
  view: string;
  name?: string | undefined;
  viewType?: string | undefined;
  /** --and: the filter's entries combine with AND. */
  and?: boolean | undefined;
  clearFilter?: boolean | undefined;
  clearSort?: boolean | undefined;
  clearGroupBy?: boolean | undefined;
  groupHideEmpty?: boolean | undefined;
  listId?: string | undefined;
  icon?: string | undefined;
}

function conflicts(opts: UpdateOptions): void {
  const pairs: [boolean, string][] = [
    [!!opts.or && !!opts.and, '--or and --and'],
    [
      !!opts.clearFilter && ((opts.where?.length ?? 0) > 0 || opts.filterJson !== undefined),
      '--clear-filter and --where/--filter-json',
    ],
    [!!opts.clearSort && opts.sort !== undefined, '--clear-sort and --sort'],
    [!!opts.clearGroupBy && opts.groupBy !== undefined, '--clear-group-by and --group-by'],
  ];
  for (const [clash, flags] of pairs) {
    if (clash) throw new UsageError(`${flags} cannot be used together.`);
  }
  if (opts.name !== undefined && opts.name.trim() === '')
    throw new UsageError('--name cannot be empty.');
}

/** The patch the flags ask for, before slugs are checked. */
function patchOf(opts: UpdateOptions, spec: ViewPatch): ViewPatch {
  const patch: ViewPatch = { ...spec };
  if (opts.name !== undefined) patch.name = opts.name;
  if (opts.viewType !== undefined) patch.view_type = opts.viewType as ViewPatch['view_type'];
  if (opts.and) patch.combinator = 'AND';
  if (opts.clearFilter) patch.filter = [];
  if (opts.clearSort) patch.sort = [];
  if (opts.clearGroupBy) patch.group_by = null;
  if (opts.groupHideEmpty !== undefined) patch.group_hide_empty = opts.groupHideEmpty;
  if (opts.listId !== undefined) patch.list_id = opts.listId;
  if (opts.icon !== undefined) patch.icon = opts.icon;
  return patch;
}

export async function run(opts: UpdateOptions, deps: Deps): Promise<void> {
  const type = viewObjectType(opts.type);
  conflicts(opts);
  if (Object.keys(patchOf(opts, viewSpec(opts, {}))).length === 0) {
    throw new UsageError(
      'Nothing to update: pass at least one flag that changes the view.',
      `See \`ws views update --help\`; e.g. ws views update ${type} ID --name "New name".`,
    );
  }
  const client = await deps.client();
  const found = await resolveView(deps, client, type, opts.view);
  const id = found.id;
  const notFound = rethrowForView(type);
  let current = found.view;
  const currentView = async () => {
    current ??= await getView(client, type, id, { signal: deps.signal }).catch(notFound);
    return current;
  };
  // Slugs are checked against the definitions of the view's list; when the view is not at
  // hand, it is read only if a slug is not among the workspace-wide definitions.
  const knownList = opts.listId ?? current?.list_id;
  const spec = await checkedViewSpec(
    deps,
    type,
    opts,
    knownList,
    knownList === undefined ? async () => (await currentView()).list_id : undefined,
  );
  const patch = patchOf(opts, spec);
  if (patch.select) {
    const known = patch.view_type !== undefined && patch.group_by !== undefined;
    selectGroupBy(deps, patch, known ? undefined : await currentView());
  }
  const view = await updateView(client, type, id, patch, { signal: deps.signal }).catch(notFound);
  deps.io.success(`Updated ${type} view "${view.name}" (${view.id}).`);
  await renderObject(deps.io, view, viewColumns, { format: deps.format, fields: deps.fields });
}
