// What the lists verbs share: the templates, reading every list (and keeping their names
// for shell completion of --list-id), finding a list by id or name, and the columns lists
// are shown with.
import type { ApiClient } from '../../api/client.ts';
import { getList, type List, type ListWithViews, listLists } from '../../api/lists.ts';
import { paginate } from '../../api/paginate.ts';
import type { Deps } from '../../factory.ts';
import { ListTemplate } from '../../generated/enums.ts';
import type { Column } from '../../output/format.ts';
import { storeListNames } from '../../schema/definitions-cache.ts';
import { isUuid } from '../../util/guards.ts';
import { givenIdOrName, oneNamed } from '../common/by-name.ts';

export const LIST_TEMPLATES = ListTemplate;

/** Every list (all pages); their names are kept for completing --list-id. */
export async function allLists(deps: Deps, client: ApiClient): Promise<List[]> {
  const lists: List[] = [];
  const pages = paginate(
    (cursor, limit) => listLists(client, { cursor, limit, signal: deps.signal }),
    { all: true },
  );
  for await (const page of pages) lists.push(...page.rows);
  await storeListNames(
    deps,
    lists.map((l) => ({ id: l.id, name: l.name, object_type: l.object_type })),
  );
  return lists;
}

/** The list a user named: an id, or a name looked up in the listing (exactly, else ignoring case). */
export async function resolveList(
  deps: Deps,
  client: ApiClient,
  idOrName: string,
): Promise<ListWithViews> {
  const given = givenIdOrName(idOrName, 'A list');
  if (isUuid(given)) return getList(client, given.toLowerCase(), { signal: deps.signal });
  const list = oneNamed(await allLists(deps, client), given, {
    one: 'list',
    many: 'lists',
    heading: 'Lists',
    none: 'There are no lists; create one with `ws lists create --template TEMPLATE`.',
  });
  return getList(client, list.id, { signal: deps.signal });
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The columns of a list (get, create) and of the listing (--fields picks among them). */
export function listColumns(listing: boolean): Column<List | ListWithViews>[] {
  return [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME' },
    { key: 'template_id', header: 'TEMPLATE' },
    { key: 'object_type', header: 'TYPE' },
    { key: 'stage_property_id', header: 'STAGE PROPERTY', text, default: !listing },
    {
      key: 'views',
      header: 'VIEWS',
      get: (l) =>
        'views' in l ? l.views.map((v) => `${v.name} (${v.view_type}, ${v.id})`) : undefined,
      text: (v) => ((v as string[] | undefined) ?? []).join('\n'),
      default: !listing,
    },
    { key: 'created_at', header: 'CREATED' },
    { key: 'updated_at', header: 'UPDATED', default: false },
  ];
}
