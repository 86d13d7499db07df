// The property definitions cache on disk. Definitions fetched from the API are kept here,
// so that commands needing the types of properties (typed --set values, CSV coercion,
// --where checks, props commands that take a slug) do not spend a request each time.
//
// - One JSON file per base URL + team id, named by a hash of the pair, in
//   <config dir>/cache/ (mode 0600, written atomically). The API key is never stored.
// - Entries per object type (and per list id, when one scopes the listing), each with the
//   time it was fetched; an entry lives DEFINITIONS_TTL_MS (5 minutes).
// - WS_NO_CACHE=1 bypasses the cache (nothing is read or written).
// - A corrupt or unreadable cache is ignored, never an error; a cache that cannot be
//   written only costs a request next time.
// - Every change is a read-modify-write under the file's lock (util/file-lock.ts), so commands
//   run in parallel keep each other's entries.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { objectType as normalizeType } from '../api/object-types.ts';
import { bySlug, type PropertyDefinition } from '../api/props.ts';
import type { Deps } from '../factory.ts';
import { isTruthy } from '../io/streams.ts';
import { withFileLock, writeFileAtomic } from '../util/file-lock.ts';
import { fnv1a } from '../util/hash.ts';
import { trimTrailingSlashes } from '../util/text.ts';

/** How long cached definitions are used: 5 minutes. */
export const DEFINITIONS_TTL_MS = 5 * 60_000;

const FORMAT = 'ws-definitions-cache';
const VERSION = 1;

interface Entry {
  fetched_at: string;
  definitions: PropertyDefinition[];
}

interface CacheFile {
  format: typeof FORMAT;
  version: typeof VERSION;
  base_url: string;
  team_id: string;
  entries: Record<string, Entry>;
  /** The names of each view type's views, from the last full listing (for completions). */
  view_names?: Record<string, string[]>;
  /** The lists, from the last full listing (for completing --list-id). */
  lists?: CachedList[];
}

/** A list as completion offers it for --list-id. */
export interface CachedList {
  id: string;
  name: string;
  object_type: string;
}

export interface Place {
  file: string;
  baseUrl: string;
  teamId: string;
}

function entryKey(objectType: string, listId: string | undefined): string {
  return listId ? `${objectType}@${listId}` : objectType;
}

function cacheDisabled(deps: Deps): boolean {
  return isTruthy(deps.env.WS_NO_CACHE);
}

/** A workspace's file `<prefix>-<hash>.json` in the cache directory of config directory `dir`. */
export function placeOf(
  dir: string,
  creds: { baseUrl: string; teamId: string },
  prefix = 'definitions',
): Place {
  const baseUrl = trimTrailingSlashes(creds.baseUrl.trim());
  // The file says whose it is (base_url, team_id): the name only has to spread teams out.
  const hash = fnv1a(`${baseUrl}\n${creds.teamId}`);
  return { file: join(dir, 'cache', `${prefix}-${hash}.json`), baseUrl, teamId: creds.teamId };
}

/** The file of the workspace in use named `<prefix>-<hash>.json` in the cache directory. */
export async function place(deps: Deps, prefix = 'definitions'): Promise<Place> {
  const [store, creds] = await Promise.all([deps.config(), deps.credentials()]);
  return placeOf(store.dir, creds, prefix);
}

// The file is small and read once per command: read and written with node:fs's synchronous
// calls (node:fs/promises would load about ten more modules on every command that reads it).
async function readCache(p: Place): Promise<CacheFile | undefined> {
  try {
    const data = JSON.parse(readFileSync(p.file, 'utf8')) as CacheFile;
    if (
      data?.format !== FORMAT ||
      data.version !== VERSION ||
      data.base_url !== p.baseUrl ||
      data.team_id !== p.teamId ||
      !data.entries ||
      typeof data.entries !== 'object'
    ) {
      return undefined;
    }
    return data;
  } catch {
    return undefined;
  }
}

/**
 * Reads the cache afresh under its lock and writes back what `change` returns (nothing:
 * no write). A cache that cannot be locked or written is only a request next time.
 */
async function changeCache(
  deps: Deps,
  p: Place,
  change: (data: CacheFile | undefined) => CacheFile | undefined,
): Promise<void> {
  try {
    await withFileLock(p.file, async () => {
      const data = change(await readCache(p));
      if (data) writeFileAtomic(p.file, JSON.stringify(data));
    });
  } catch (err) {
    deps.io.debug(`definitions cache: not written (${(err as Error).message})`);
  }
}

/**
 * Write a JSON file of ws's own beside the others in the config directory: mode 0600,
 * through a temporary file renamed over it. A file that cannot be written is only noted
 * with --debug (`what` names it): what it holds can be learnt again.
 */
export function writeJsonFile(deps: Deps, file: string, data: unknown, what: string): void {
  try {
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    writeFileAtomic(file, JSON.stringify(data));
  } catch (err) {
    deps.io.debug(`${what}: not written (${(err as Error).message})`);
  }
}

function fresh(entry: Entry | undefined, now: number): entry is Entry {
  if (!entry || !Array.isArray(entry.definitions)) return false;
  const age = now - Date.parse(entry.fetched_at);
  return age >= 0 && age < DEFINITIONS_TTL_MS;
}

/**
 * Keep definitions just fetched (of one or more object types, one read and one write of
 * the cache file), so the next command that needs them skips the request.
 */
export async function storeDefinitions(
  deps: Deps,
  byType: ReadonlyMap<string, PropertyDefinition[]>,
  opts: { listId?: string | undefined } = {},
): Promise<void> {
  if (cacheDisabled(deps)) return;
  const p = await place(deps);
  const now = deps.clock.now();
  await changeCache(deps, p, (found) => {
    const data = found ?? emptyCache(p);
    // Drop expired entries while we are here, so the file does not grow.
    for (const [k, e] of Object.entries(data.entries))
      if (!fresh(e, now.getTime())) delete data.entries[k];
    for (const [type, definitions] of byType)
      data.entries[entryKey(type, opts.listId)] = { fetched_at: now.toISOString(), definitions };
    return data;
  });
}

/** The cached definitions of a type (and list scope), when fresh. */
export async function cachedDefinitions(
  deps: Deps,
  type: string,
  listId: string | undefined,
): Promise<PropertyDefinition[] | undefined> {
  if (cacheDisabled(deps)) return undefined;
  const p = await place(deps);
  const entries = (await readCache(p))?.entries;
  const k = entryKey(type, listId);
  const entry = entries && Object.hasOwn(entries, k) ? entries[k] : undefined;
  const now = deps.clock.now().getTime();
  if (!fresh(entry, now)) return undefined;
  deps.io.debug(
    `definitions cache: ${entryKey(type, listId)} from ${p.file} (${Math.round((now - Date.parse(entry.fetched_at)) / 1000)}s old)`,
  );
  return entry.definitions;
}

/** Forget cached definitions (after a change), for one object type (every list scope) or all. */
export async function invalidateDefinitions(deps: Deps, objectType?: string): Promise<void> {
  if (cacheDisabled(deps)) return;
  const p = await place(deps);
  if (objectType === undefined) {
    try {
      rmSync(p.file, { force: true });
    } catch {
      // Not removable: it expires in 5 minutes anyway.
    }
    return;
  }
  const type = normalizeType(objectType, 'property');
  await changeCache(deps, p, (data) => {
    if (!data) return undefined;
    let changed = false;
    for (const k of Object.keys(data.entries)) {
      if (k === type || k.startsWith(`${type}@`)) {
        delete data.entries[k];
        changed = true;
      }
    }
    return changed ? data : undefined;
  });
}

/**
 * Apply a change just made through the API to the cached definitions of a type, so the
 * next command does not fetch them again. The entry of the whole type is changed in place
 * (it keeps its age, so it still expires on time); list-scoped entries of the type are
 * dropped. Nothing cached: nothing to do.
 */
export async function updateCachedDefinitions(
  deps: Deps,
  objectType: string,
  change: (defs: PropertyDefinition[]) => PropertyDefinition[],
): Promise<void> {
  if (cacheDisabled(deps)) return;
  const type = normalizeType(objectType, 'property');
  const p = await place(deps);
  await changeCache(deps, p, (data) => {
    if (!data) return undefined;
    for (const k of Object.keys(data.entries)) if (k.startsWith(`${type}@`)) delete data.entries[k];
    const entry = Object.hasOwn(data.entries, type) ? data.entries[type] : undefined;
    if (entry && fresh(entry, deps.clock.now().getTime()))
      entry.definitions = change(entry.definitions).sort(bySlug);
    return data;
  });
}

/** An empty cache file for a place. */
function emptyCache(p: Place): CacheFile {
  return { format: FORMAT, version: VERSION, base_url: p.baseUrl, team_id: p.teamId, entries: {} };
}

/**
 * Keep the names of a view type's views, from a full listing, for shell completion (they
 * do not expire: completion offers what was last seen and never sends a request).
 */
export async function storeViewNames(
  deps: Deps,
  viewType: string,
  names: readonly string[],
): Promise<void> {
  if (cacheDisabled(deps)) return;
  const p = await place(deps);
  await changeCache(deps, p, (found) => {
    const data = found ?? emptyCache(p);
    data.view_names = { ...data.view_names, [viewType]: [...new Set(names)].sort() };
    return data;
  });
}

/** Keep the lists of a full listing, for completing --list-id (they do not expire either). */
export async function storeListNames(deps: Deps, lists: readonly CachedList[]): Promise<void> {
  if (cacheDisabled(deps)) return;
  const p = await place(deps);
  await changeCache(deps, p, (found) => {
    const data = found ?? emptyCache(p);
    data.lists = lists.map(({ id, name, object_type }) => ({ id, name, object_type }));
    return data;
  });
}

/**
 * What the cache of one workspace holds, however old, for shell completion: the definitions
 * of a type (and list scope) and the names of a view type's views. Never an error.
 */
export function cachedForCompletion(p: Place): {
  definitions(type: string, listId?: string): PropertyDefinition[] | undefined;
  viewNames(viewType: string): string[];
  lists(): CachedList[];
} {
  let data: CacheFile | undefined;
  try {
    const parsed = JSON.parse(readFileSync(p.file, 'utf8')) as CacheFile;
    if (parsed?.format === FORMAT && parsed.base_url === p.baseUrl && parsed.team_id === p.teamId)
      data = parsed;
  } catch {
    // Nothing cached: nothing to offer.
  }
  return {
    definitions: (type, listId) => {
      const defs = data?.entries?.[entryKey(type, listId)]?.definitions;
      return Array.isArray(defs) ? defs : undefined;
    },
    viewNames: (viewType) => {
      const names = data?.view_names?.[viewType];
      return Array.isArray(names) ? names.filter((n) => typeof n === 'string') : [];
    },
    lists: () =>
      Array.isArray(data?.lists)
        ? data.lists.filter((l) => typeof l?.id === 'string' && typeof l.name === 'string')
        : [],
  };
}
