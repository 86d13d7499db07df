// What turning an automation's names into ids, and checking its conditions, reads from the
// workspace: property definitions (of its object type, of the types its dot-paths reach,
// of contacts for email and LinkedIn steps), the team's webhooks, and the sandbox's contact
// views. Read once before anything is checked (so the checks themselves are synchronous),
// and only what the automations at hand need: a webhook listing only when one names a
// webhook, contact views only for email and LinkedIn steps.
import { listContactViews, listTeamWebhooks } from '../api/automations.ts';
import { listScope, type PropertyDefinition } from '../api/props.ts';
import type { DefinitionData, Workspace } from '../automation-engine/types.ts';
import { ApiError, UsageError } from '../errors.ts';
import type { Deps } from '../factory.ts';
import { SLUG } from '../query/slugs.ts';
import { definitionsFor } from '../schema/definitions.ts';
import { workspaceDefinitions } from '../schema/load.ts';
import { isUuid } from '../util/guards.ts';
import { closest, didYouMean } from '../util/suggest.ts';

/** A name or id looked up: the id, or why not; `note` when it could not be checked. */
export interface Resolved {
  id?: string;
  problem?: string;
  note?: string;
}

export interface Lookups {
  /**
   * The definitions a record of `type` shows: the workspace's (listId null), or with a list
   * id what that list shows. undefined when the type's definitions are not known.
   */
  definitions(type: string, listId: string | null): PropertyDefinition[] | undefined;
  /** A webhook by name or id. */
  webhook(text: string): Resolved;
  /** A contact view (the recipients of email and LinkedIn steps) by name or id. */
  contactView(text: string): Resolved;
  /** A contact property by slug or id. */
  contactProperty(text: string): Resolved;
  /** The names a file writes for ids, when they name exactly one thing. */
  webhookName(id: string): string | undefined;
  /** True when the webhooks were read and none has this id. */
  webhookGone(id: string): boolean;
  contactViewName(id: string): string | undefined;
  contactPropertySlug(id: string): string | undefined;
  /** The workspace as src/automation-engine/check.ts reads it. */
  workspace(): Workspace;
  /** Whether some definitions came from the cache (a miss may be a newer property). */
  readonly fromCache: boolean;
}

/** What a set of automations needs read. */
export interface Needs {
  /** Object type and list of each automation. */
  scopes: { type: string; listId: string | null }[];
  /** Dot-paths of --where conditions, by the type and list they start from. */
  paths: { type: string; listId: string | null; path: string }[];
  webhooks: boolean;
  contacts: boolean;
}

export function emptyNeeds(): Needs {
  return { scopes: [], paths: [], webhooks: false, contacts: false };
}

const PATH_HEAD = new RegExp(`^\\s*(${SLUG}(?:\\.${SLUG})+)`);

/** What addNeeds reads of a draft (draft.ts's Draft, which compiles against these look-ups). */
export interface NeedingDraft {
  readonly listId?: { readonly value: string | null } | undefined;
  readonly where?:
    | { readonly groups?: readonly { readonly items: readonly { readonly value: string }[] }[] }
    | undefined;
  readonly actions?: readonly { readonly type: string }[] | undefined;
}

/** Add what `draft` (on `type`, over the automation `base` for an update) needs to `needs`. */
export function addNeeds(
  needs: Needs,
  draft: NeedingDraft,
  type: string,
  base?: { list_id?: string | null; state?: { filter?: unknown[] } | null; actions?: unknown[] },
): void {
  const listId = draft.listId !== undefined ? draft.listId.value : (base?.list_id ?? null);
  needs.scopes.push({ type, listId });
  for (const group of draft.where?.groups ?? []) {
    for (const item of group.items) {
      const path = PATH_HEAD.exec(item.value)?.[1];
      if (path !== undefined) needs.paths.push({ type, listId, path });
    }
  }
  for (const entry of base?.state?.filter ?? []) {
    for (const path of Object.keys((entry ?? {}) as object))
      if (path.includes('.')) needs.paths.push({ type, listId, path });
  }
  const kinds = draft.actions
    ? draft.actions.map((a) => a.type)
    : (base?.actions ?? []).map((a) => (a as { type: string }).type);
  if (kinds.includes('webhook')) needs.webhooks = true;
  if (kinds.includes('email') || kinds.includes('linkedin')) needs.contacts = true;
}

/** Definitions of a type and list; undefined for a type the properties API does not know. */
async function definitionsOrNone(
  deps: Deps,
  type: string,
  listId: string | null,
  refresh: boolean,
): Promise<PropertyDefinition[] | undefined> {
  try {
    const defs = await definitionsFor(deps, type, { listId: listId ?? undefined, refresh });
    return listId === null ? defs.filter((d) => listScope(d) === null) : defs;
  } catch (err) {
    if (err instanceof UsageError) return undefined; // 404: no definitions for the type
    throw err;
  }
}

/**
 * The ids and names a listing gives; or, when the service does not offer it (an error of
 * `code`), why not. Other errors are thrown.
 */
async function namesOf(
  list: () => Promise<readonly { id: string; name: string }[]>,
  code: string,
): Promise<{ items?: { id: string; name: string }[]; why: string }> {
  try {
    return { items: (await list()).map(({ id, name }) => ({ id, name })), why: '' };
  } catch (err) {
    if (err instanceof ApiError && err.code === code) return { why: err.message };
    throw err;
  }
}

/**
 * Read what `needs` says. `fresh`: definitions of every type in one request (files, where
 * every check should see the workspace as it is); otherwise through the 5-minute cache, one
 * type at a time.
 */
export async function loadLookups(deps: Deps, needs: Needs, fresh: boolean): Promise<Lookups> {
  const defs = new Map<string, PropertyDefinition[] | undefined>();
  const key = (type: string, listId: string | null) => `${type}\u0000${listId ?? ''}`;
  let fromCache = false;
  if (fresh) {
    const all = await workspaceDefinitions(deps);
    for (const [type, list] of all)
      defs.set(
        key(type, null),
        list.filter((d) => listScope(d) === null),
      );
  }
  const load = async (type: string, listId: string | null) => {
    if (defs.has(key(type, listId))) return defs.get(key(type, listId));
    if (fresh && listId === null) return undefined; // not in the listing: no definitions
    const got = await definitionsOrNone(deps, type, listId, fresh);
    if (!fresh) fromCache = true;
    defs.set(key(type, listId), got);
    return got;
  };
  for (const scope of needs.scopes) await load(scope.type, scope.listId);
  for (const { type, listId, path } of needs.paths) {
    let list = await load(type, listId);
    for (const slug of path.split('.').slice(0, -1)) {
      const def = list?.find((d) => d.slug === slug);
      if (def === undefined || !/^(multi)?ref_/.test(def.type)) break;
      list = await load(def.type.replace(/^(multi)?ref_/, ''), null);
    }
  }
  if (needs.contacts) await load('contact', null);

  const client = await deps.client();
  const webhooks = needs.webhooks
    ? await namesOf(() => listTeamWebhooks(client, { signal: deps.signal }), 'webhooks_unavailable')
    : { why: '' };
  const views = needs.contacts
    ? await namesOf(
        () => listContactViews(client, { signal: deps.signal }),
        'operation_unavailable',
      )
    : { why: '' };

  const definitions = (type: string, listId: string | null) => defs.get(key(type, listId));
  const contactDefs = () => definitions('contact', null) ?? [];
  return {
    fromCache,
    definitions,
    webhook: (text) => resolveNamed('webhook', webhooks.items, webhooks.why, text),
    contactView: (text) => resolveNamed('contact view', views.items, views.why, text),
    contactProperty: (text) => resolveProperty(contactDefs(), text, definitions('contact', null)),
    webhookName: (id) => uniqueName(webhooks.items, id),
    webhookGone: (id) => webhooks.items !== undefined && !webhooks.items.some((w) => w.id === id),
    contactViewName: (id) => uniqueName(views.items, id),
    contactPropertySlug: (id) => {
      const list = contactDefs();
      const def = list.find((d) => d.id === id);
      return def !== undefined && list.filter((d) => d.slug === def.slug).length === 1
        ? def.slug
        : undefined;
    },
    workspace: () => ({
      definitions: (type, listId) => evaluatorDefinitions(definitions(type, listId)),
      record: () => undefined,
    }),
  };
}

/** Definitions as the evaluator reads them (an option without a display value has null). */
export function evaluatorDefinitions(
  defs: readonly PropertyDefinition[] | undefined,
): DefinitionData[] | undefined {
  return defs?.map((d) =>
    d.options ? { ...d, options: d.options.map((o) => ({ ...o, value: o.value ?? null })) } : d,
  ) as DefinitionData[] | undefined;
}

/** The name of the item `id`, when no other item has it. */
function uniqueName(items: { id: string; name: string }[] | undefined, id: string) {
  const item = items?.find((i) => i.id === id);
  if (item === undefined) return undefined;
  return items!.filter((i) => i.name === item.name).length === 1 && !isUuid(item.name)
    ? item.name
    : undefined;
}

/** A thing named by name or id among `items` (undefined: they cannot be listed, `why`). */
export function resolveNamed(
  what: string,
  items: { id: string; name: string }[] | undefined,
  why: string,
  text: string,
): Resolved {
  const t = text.trim();
  if (t === '') return { problem: `a ${what} name or id cannot be empty.` };
  if (items === undefined) {
    return isUuid(t)
      ? { id: t, note: `could not check that the ${what} ${t} exists: ${why}` }
      : {
          problem: `"${t}" is not a ${what} id, and the ${what}s of this service cannot be listed, so a name cannot be looked up: name the ${what} by its id. (${why})`,
        };
  }
  const names = items.map((i) => i.name);
  const listed =
    names.length > 0 ? ` ${cap(what)}s: ${quoteList(names)}.` : ` There are no ${what}s.`;
  if (isUuid(t)) {
    const found = items.find((i) => i.id.toLowerCase() === t.toLowerCase());
    return found ? { id: found.id } : { problem: `no ${what} has the id ${t}.${listed}` };
  }
  let matches = items.filter((i) => i.name === t);
  if (matches.length === 0) matches = items.filter((i) => i.name.toLowerCase() === t.toLowerCase());
  if (matches.length === 1) return { id: matches[0]!.id };
  if (matches.length > 1) {
    return {
      problem: `${matches.length} ${what}s are named "${t}" (${matches.map((m) => m.id).join(', ')}): name the one you mean by its id.`,
    };
  }
  const near = didYouMean(t, names);
  return { problem: `no ${what} is named "${t}".${near ? ` ${near}` : listed}` };
}

function resolveProperty(
  defs: readonly PropertyDefinition[],
  text: string,
  known: PropertyDefinition[] | undefined,
): Resolved {
  const t = text.trim();
  if (known === undefined) {
    return isUuid(t)
      ? { id: t }
      : {
          problem: `the contact properties cannot be read, so "${t}" cannot be looked up: give the property's id.`,
        };
  }
  const byId = defs.find((d) => d.id.toLowerCase() === t.toLowerCase());
  if (byId) return { id: byId.id };
  const matches = defs.filter((d) => d.slug === t);
  if (matches.length === 1) return { id: matches[0]!.id };
  if (matches.length > 1) {
    return {
      problem: `${matches.length} contact properties have the slug "${t}" (${matches.map((m) => m.id).join(', ')}): give the id of the one you mean.`,
    };
  }
  const near = closest(
    t,
    defs.map((d) => d.slug),
  );
  return {
    problem: `no contact property has the slug or id "${t}" (the recipients are contacts).${near.length > 0 ? ` Did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : ''}`,
  };
}

function cap(s: string): string {
  return `${s[0]!.toUpperCase()}${s.slice(1)}`;
}

function quoteList(names: readonly string[]): string {
  const shown = names.slice(0, 10).map((n) => `"${n}"`);
  return `${shown.join(', ')}${names.length > 10 ? `, … (${names.length} in all)` : ''}`;
}
