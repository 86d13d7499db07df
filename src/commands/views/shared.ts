// What the views verbs share: the object type, finding a view by id or name, the
// definitions that --where/--select/--sort/--group-by are checked against, the fields a
// create or update sends, and the columns views are shown with.
import type { ApiClient } from '../../api/client.ts';
import { objectType, type ViewType } from '../../api/object-types.ts';
import { paginate } from '../../api/paginate.ts';
import { getView, listViews, type View, type ViewFields } from '../../api/views.ts';
import { ApiError, UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { buildFilter } from '../../query/filter.ts';
import { parseSelect } from '../../query/select.ts';
import { checkPath, type PropertyDefinition, type SlugContext } from '../../query/slugs.ts';
import { formatSort, parseSort } from '../../query/sort.ts';
import { formatWhere } from '../../query/where.ts';
import { definitionsFor } from '../../schema/definitions.ts';
import { storeViewNames } from '../../schema/definitions-cache.ts';
import { isUuid } from '../../util/guards.ts';
import { givenIdOrName, oneNamed } from '../common/by-name.ts';

export { VIEW_KINDS } from './kinds.ts';

export function viewObjectType(input: string): ViewType {
  return objectType(input, 'view') as ViewType;
}

/** Every view of a type (all pages of the listing extension). */
export async function allViews(
  deps: Deps,
  client: ApiClient,
  type: ViewType,
  listId?: string,
): Promise<View[]> {
  const views: View[] = [];
  const pages = paginate(
    (cursor, limit) => listViews(client, type, { listId, cursor, limit, signal: deps.signal }),
    { all: true },
  );
  for await (const page of pages) views.push(...page.rows);
  // The names, for shell completion of VIEW (which reads them from the cache, offline).
  if (listId === undefined)
    await storeViewNames(
      deps,
      type,
      views.map((v) => v.name),
    );
  return views;
}

/**
 * The view a user named: an id is taken as it is; anything else is a view name, looked up
 * in the listing (a sandbox extension; on a service without it, pass the id). A view
 * found by name comes with the listing's copy of it.
 */
export async function resolveView(
  deps: Deps,
  client: ApiClient,
  type: ViewType,
  idOrName: string,
): Promise<{ id: string; view?: View }> {
  const given = givenIdOrName(idOrName, 'A view');
  if (isUuid(given)) return { id: given };
  let views: View[];
  try {
    views = await allViews(deps, client, type);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'operation_unavailable') {
      throw new UsageError(
        `"${given}" is not a view id (a UUID), and this service does not list views, so a name cannot be looked up.`,
        "Pass the view's id instead; it is shown in the workspace app.",
      );
    }
    throw err;
  }
  const view = oneNamed(views, given, {
    one: `${type} view`,
    many: `${type} views`,
    heading: `${type} views`,
    none: `There are no ${type} views; create one with \`ws views create ${type} --name NAME\`.`,
  });
  return { id: view.id, view };
}

/** The arguments that name one view: its object type, and its id or name. */
export interface ViewRef {
  type: string;
  /** A view id, or a view name (looked up in the listing). */
  view: string;
}

/** The view a verb's TYPE and VIEW name, with its type and the client that read it. */
export async function namedView(
  deps: Deps,
  ref: ViewRef,
): Promise<{ type: ViewType; client: ApiClient; view: View }> {
  const type = viewObjectType(ref.type);
  const client = await deps.client();
  const found = await resolveView(deps, client, type, ref.view);
  // A view found by name comes from the listing already: no second read.
  const view =
    found.view ??
    (await getView(client, type, found.id, { signal: deps.signal }).catch(rethrowForView(type)));
  return { type, client, view };
}

/** For `.catch()`: rethrow, a 404 for a view with a hint to list them. */
export function rethrowForView(type: ViewType): (err: unknown) => never {
  return (err) => {
    throw viewNotFound(err, type);
  };
}

/** A 404 for a view gets a hint to list them. */
export function viewNotFound(err: unknown, type: ViewType): unknown {
  if (!(err instanceof ApiError) || err.status !== 404 || err.code === 'operation_unavailable')
    return err;
  return new ApiError({
    status: err.status,
    ...(err.apiCode ? { code: err.apiCode } : {}),
    message: err.message,
    requestId: err.requestId,
    errors: err.errors,
    details: err.details,
    method: err.method,
    url: err.url,
    hint: `List the ${type} views with \`ws views list ${type}\`.`,
  });
}

/**
 * The definitions to check slugs against, or undefined (with a warning) when the service
 * cannot give them: the view's own answer will then say what is wrong.
 */
export async function definitionsOrWarn(
  deps: Deps,
  type: ViewType,
  listId: string | null | undefined,
  refresh = false,
): Promise<PropertyDefinition[] | undefined> {
  try {
    return await definitionsFor(deps, type, { listId: listId ?? undefined, refresh });
  } catch (err) {
    // A 404 on the definitions of a view type comes back as a usage error. Anything but
    // refused credentials only costs the check.
    const refused = err instanceof ApiError && (err.status === 401 || err.status === 403);
    if ((err instanceof ApiError || err instanceof UsageError) && !refused) {
      deps.io.warn(
        `could not read the ${type} property definitions, so slugs are not checked here: ${err.message}`,
      );
      return undefined;
    }
    throw err;
  }
}

/** The flags of create and update that set what a view shows. */
export interface ViewSpecFlags {
  select?: string | undefined;
  where?: string[] | undefined;
  filterJson?: string | undefined;
  or?: boolean | undefined;
  sort?: string | undefined;
  groupBy?: string | undefined;
  /** --type: a kanban view's columns are the options of the property it groups by. */
  viewType?: string | undefined;
}

/** Whether the flags name any property (so definitions are worth reading). */
export function namesProperties(f: ViewSpecFlags): boolean {
  return (
    f.select !== undefined ||
    (f.where?.length ?? 0) > 0 ||
    f.filterJson !== undefined ||
    f.sort !== undefined ||
    f.groupBy !== undefined
  );
}

/** The view fields the flags ask for; slugs are checked when the context has definitions. */
export function viewSpec(f: ViewSpecFlags, ctx: SlugContext): ViewFields {
  const fields: ViewFields = {};
  if (f.select !== undefined) fields.select = parseSelect(f.select, ctx);
  const built = buildFilter({ where: f.where, filterJson: f.filterJson, or: f.or }, ctx);
  if (built.filter) fields.filter = built.filter;
  if (built.combinator) fields.combinator = built.combinator;
  if (f.sort !== undefined) fields.sort = parseSort(f.sort, ctx);
  if (f.groupBy !== undefined) {
    const slug = f.groupBy.trim();
    if (slug.includes('.')) {
      throw new UsageError(
        `--group-by "${slug}": a view groups by a property of its own object type, not a dot-path.`,
      );
    }
    const def = checkPath(slug, ctx, '--group-by');
    if (f.viewType === 'kanban' && def !== undefined && def.type !== 'select_str') {
      const selects = (ctx.definitions ?? []).filter((d) => d.type === 'select_str');
      throw new UsageError(
        `--group-by "${slug}": a kanban view's columns are the options of a select property, and ${slug} is a ${def.type} property.`,
        selects.length > 0
          ? `Group by one of: ${selects.map((d) => d.slug).join(', ')}; or use --type grid or list.`
          : `${ctx.objectType ?? 'This type'} has no select property: make one with \`ws props create\`, or use --type grid or list.`,
      );
    }
    fields.group_by = slug;
  }
  return fields;
}

/**
 * The fields for the flags, checked: first their syntax (before any request), then, when
 * they name properties, against the definitions of the view's list. A slug unknown to
 * them is looked up once more before it is reported: in the definitions of the view's
 * actual list when `actualListId` can tell it (an update names only the view), else
 * afresh (the property may be newer than the cache).
 */
export async function checkedViewSpec(
  deps: Deps,
  type: ViewType,
  flags: ViewSpecFlags,
  listId: string | null | undefined,
  actualListId?: () => Promise<string | null | undefined>,
): Promise<ViewFields> {
  const unchecked = viewSpec(flags, {});
  if (!namesProperties(flags)) return unchecked;
  const defs = await definitionsOrWarn(deps, type, listId);
  if (!defs) return unchecked;
  try {
    return viewSpec(flags, { definitions: defs, objectType: type });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    const scope = actualListId ? await actualListId() : listId;
    const again = await definitionsOrWarn(deps, type, scope, true);
    if (!again) return unchecked;
    return viewSpec(flags, { definitions: again, objectType: type });
  }
}

/**
 * A kanban view's records must carry the property they are grouped by, or they cannot be
 * put in their columns: a --select without it gets it added (and says so). `current` is
 * the view before an update, for what the fields do not set.
 */
export function selectGroupBy(
  deps: Deps,
  fields: ViewFields,
  current?: Pick<View, 'view_type' | 'group_by'>,
): void {
  const kind = fields.view_type ?? current?.view_type;
  const groupBy = fields.group_by !== undefined ? fields.group_by : current?.group_by;
  const select = fields.select;
  if (kind !== 'kanban' || !groupBy || !select?.length || select.includes(groupBy)) return;
  fields.select = [...select, groupBy];
  deps.io.info(
    `Added "${groupBy}" to --select: the records of a kanban view carry the property they are grouped by.`,
  );
}

/** How a view's filter reads: its --where expressions joined by its combinator. */
export function filterText(view: Pick<View, 'filter' | 'combinator'>): string {
  return formatWhere(view.filter).join(view.combinator === 'OR' ? ' OR ' : ' AND ');
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** Every field of a view, for get/create/update (and --fields on list). */
const ALL_COLUMNS: Column<View>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  { key: 'view_type', header: 'TYPE' },
  { key: 'select', header: 'SELECT', text: (v) => ((v as string[] | null) ?? []).join(', ') },
  { key: 'filter', header: 'FILTER', text: (_v, view) => filterText(view) },
  { key: 'combinator', header: 'COMBINATOR', text },
  { key: 'sort', header: 'SORT', text: (_v, view) => formatSort(view.sort) },
  { key: 'group_by', header: 'GROUP BY', text },
  { key: 'group_hide_empty', header: 'HIDE EMPTY GROUPS', text },
  { key: 'list_id', header: 'LIST ID', text },
  { key: 'created_at', header: 'CREATED', text },
  { key: 'updated_at', header: 'UPDATED', text },
  {
    key: 'record_order',
    header: 'PINNED',
    text: (v) => ((v as string[] | null | undefined) ?? []).join(', '),
  },
];

const LIST_DEFAULTS = new Set(['id', 'name', 'view_type', 'group_by', 'updated_at']);

export const viewColumns: Column<View>[] = ALL_COLUMNS;
export const viewListColumns: Column<View>[] = ALL_COLUMNS.map((c) => ({
  ...c,
  default: LIST_DEFAULTS.has(c.key),
}));
