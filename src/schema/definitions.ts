// The property definitions of an object type as commands read them: through the cache on
// disk (definitions-cache.ts), fetched from the API when the cache has none fresh, and
// looked up by slug or id with "did you mean" when a slug is not found.
import { objectType as normalizeType, PROPERTY_TYPES } from '../api/object-types.ts';
import { listProperties, type PropertyDefinition } from '../api/props.ts';
import { ApiError, NotFoundError, UsageError } from '../errors.ts';
import type { Deps } from '../factory.ts';
import { isUuid } from '../util/guards.ts';
import { closest } from '../util/suggest.ts';
import { cachedDefinitions, storeDefinitions } from './definitions-cache.ts';

export type { PropertyDefinition, PropertyOption } from '../api/props.ts';

/** A 404 on listing the definitions of a type: the workspace has no such object type. */
export function unknownPropertyType(type: string, err: unknown): unknown {
  if (!(err instanceof ApiError) || err.status !== 404) return err;
  return new UsageError(
    `Unknown object type "${type}" for properties (the API answered 404).`,
    `Object types for properties: ${PROPERTY_TYPES.join(', ')} (singular or plural), and others your workspace has.`,
  );
}

/** Fetch the definitions of a type from the API (with options) and cache them. */
export async function fetchDefinitions(
  deps: Deps,
  type: string,
  listId?: string | undefined,
): Promise<PropertyDefinition[]> {
  const client = await deps.client();
  const defs = await listProperties(client, type, { listId, signal: deps.signal }).catch(
    (err: unknown) => {
      throw unknownPropertyType(type, err);
    },
  );
  await storeDefinitions(deps, new Map([[type, defs]]), { listId });
  return defs;
}

async function load(
  deps: Deps,
  objectType: string,
  opts: { listId?: string | undefined; refresh?: boolean },
): Promise<{ type: string; defs: PropertyDefinition[]; fromCache: boolean }> {
  const type = normalizeType(objectType, 'property');
  const hit = opts.refresh ? undefined : await cachedDefinitions(deps, type, opts.listId);
  if (hit) return { type, defs: hit, fromCache: true };
  return { type, defs: await fetchDefinitions(deps, type, opts.listId), fromCache: false };
}

/**
 * Visible definitions of one object type, with their options (cached per base URL + team
 * id for 5 minutes; a list id scopes the cache key). `refresh` skips the cache and
 * stores what the API answers.
 */
export async function definitionsFor(
  deps: Deps,
  objectType: string,
  opts: { listId?: string | undefined; refresh?: boolean } = {},
): Promise<PropertyDefinition[]> {
  return (await load(deps, objectType, opts)).defs;
}

/**
 * The definition with this id or slug (slugs also match ignoring case), or undefined.
 * Several definitions with the slug (list-scoped ones of different lists) are a usage
 * error that asks for the id.
 */
export function lookupDefinition(
  defs: readonly PropertyDefinition[],
  slugOrId: string,
): PropertyDefinition | undefined {
  const key = slugOrId.trim();
  if (isUuid(key)) {
    const byId = defs.find((d) => d.id.toLowerCase() === key.toLowerCase());
    if (byId) return byId;
  }
  let matches = defs.filter((d) => d.slug === key);
  if (matches.length === 0)
    matches = defs.filter((d) => d.slug.toLowerCase() === key.toLowerCase());
  if (matches.length > 1) {
    throw new UsageError(
      `Several properties have the slug "${key}": ${matches.map((d) => `${d.id} (${d.list_id ? `list ${d.list_id}` : 'workspace'})`).join(', ')}.`,
      'Give the id of the one you mean.',
    );
  }
  return matches[0];
}

/**
 * Find a definition by slug or id. None matching is a usage error (exit 2) with "did you
 * mean" (the closest slugs); with `notFound`, a not-found error (exit 4) instead, for
 * commands whose subject is the property itself.
 */
export function findDefinition(
  defs: readonly PropertyDefinition[],
  slugOrId: string,
  objectType: string,
  opts: { notFound?: boolean } = {},
): PropertyDefinition {
  const found = lookupDefinition(defs, slugOrId);
  if (found) return found;
  const near = closest(
    slugOrId,
    defs.map((d) => d.slug),
  );
  const message = `No ${objectType} property "${slugOrId}".${near.length > 0 ? ` Did you mean ${near.map((s) => `"${s}"`).join(', ')}?` : ''}`;
  const hint = `List the ${objectType} properties with \`ws props list ${objectType}\`.`;
  throw opts.notFound ? new NotFoundError(message, hint) : new UsageError(message, hint);
}

/**
 * Find a definition by slug or id through the cache. A miss on cached definitions fetches
 * them once more before reporting it (the property may be newer than the cache).
 */
export async function resolveDefinition(
  deps: Deps,
  objectType: string,
  slugOrId: string,
  opts: { listId?: string | undefined; notFound?: boolean } = {},
): Promise<PropertyDefinition> {
  const first = await load(deps, objectType, { listId: opts.listId });
  const found = lookupDefinition(first.defs, slugOrId);
  if (found || !first.fromCache)
    return found ?? findDefinition(first.defs, slugOrId, first.type, opts);
  const again = await load(deps, first.type, { listId: opts.listId, refresh: true });
  return findDefinition(again.defs, slugOrId, first.type, opts);
}
