// What `ws sandbox clone` reads from the workspace, read-only and with as few requests as
// the listing allows: one for every definition and option, one for the webhooks, one page
// per object type of views and of automations, the sample of records per type in pages of
// 50 (the largest), then the records the sample refers to and did not include, 50 ids per
// query. Every answer goes into the checkpoint (a file beside the clone) as it arrives, so
// a clone stopped by Ctrl-C continues where it stopped when the same command runs again.

import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { type Automation, listAutomations } from '../api/automations.ts';
import type { ApiClient } from '../api/client.ts';
import {
  AUTOMATION_TYPES,
  type AutomationType,
  RECORD_TYPES,
  type RecordType,
  VIEW_TYPES,
  type ViewType,
} from '../api/object-types.ts';
import { MAX_PAGE } from '../api/paginate.ts';
import { listAllProperties, type PropertyDefinition } from '../api/props.ts';
import { listRecords, queryRecords, type RecordRow } from '../api/records.ts';
import { listViews, type View } from '../api/views.ts';
import { listWebhooks, type Webhook } from '../api/webhooks.ts';
import { ApiError, UsageError } from '../errors.ts';
import { isPlainObject } from '../util/guards.ts';

export const CHECKPOINT_FORMAT = 'ws-clone-checkpoint';
const CHECKPOINT_VERSION = 1;

/** A listing read page by page; `unavailable` says why the service did not list it. */
export interface Listing<T> {
  items: T[];
  cursor: string | null;
  done: boolean;
  unavailable?: string;
}

export interface Sample {
  rows: RecordRow[];
  cursor: string | null;
  /** Read as far as the sample needs, or to the end of the type's records. */
  done: boolean;
}

/** Records the sample refers to and does not hold, fetched by id. */
export interface Referenced {
  /** Ids still to fetch. */
  wanted: string[];
  /** Ids asked for, in all. */
  asked: number;
  rows: RecordRow[];
}

/** Everything read so far: the checkpoint file's content. */
export interface ReadState {
  format: typeof CHECKPOINT_FORMAT;
  version: typeof CHECKPOINT_VERSION;
  base_url: string;
  team_id: string;
  /** Requests sent by the runs before this one (this run's are the client's). */
  requests: number;
  properties?: Record<string, PropertyDefinition[]>;
  webhooks?: Listing<Webhook>;
  views: Partial<Record<ViewType, Listing<View>>>;
  automations: Partial<Record<AutomationType, Listing<Automation>>>;
  records: Partial<Record<RecordType, Sample>>;
  /** Filled once every sample is read. */
  referenced?: Partial<Record<RecordType, Referenced>>;
}

/** The record type a reference property points at, when it is one the API lists. */
export function referencedType(propertyType: string): RecordType | undefined {
  const m = /^(?:multi)?ref_(.+)$/.exec(propertyType);
  const target = m?.[1];
  return (RECORD_TYPES as readonly string[]).includes(target ?? '')
    ? (target as RecordType)
    : undefined;
}

/** The id of each record a reference value names ({ id } objects, or bare ids). */
export function referenceIds(value: unknown): string[] {
  const one = (v: unknown): string | undefined =>
    typeof v === 'string'
      ? v
      : isPlainObject(v) && typeof v['id'] === 'string'
        ? v['id']
        : undefined;
  if (Array.isArray(value)) return value.map(one).filter((id): id is string => id !== undefined);
  const id = one(value);
  return id === undefined ? [] : [id];
}

export function checkpointPath(file: string): string {
  return `${file}.checkpoint`;
}

/** The checkpoint of an earlier run of this clone, or a fresh state. */
export function openState(file: string, baseUrl: string, teamId: string): ReadState {
  const path = checkpointPath(file);
  const fresh: ReadState = {
    format: CHECKPOINT_FORMAT,
    version: CHECKPOINT_VERSION,
    base_url: baseUrl,
    team_id: teamId,
    requests: 0,
    views: {},
    automations: {},
    records: {},
  };
  if (!existsSync(path)) return fresh;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(
      `The checkpoint ${path} cannot be read (${(err as Error).message}).`,
      'Delete it to start the clone over.',
    );
  }
  if (
    !isPlainObject(data) ||
    data['format'] !== CHECKPOINT_FORMAT ||
    data['version'] !== CHECKPOINT_VERSION
  ) {
    throw new UsageError(
      `${path} is not a checkpoint of \`ws sandbox clone\`.`,
      'Move it away, or clone to another file.',
    );
  }
  if (data['base_url'] !== baseUrl || data['team_id'] !== teamId) {
    throw new UsageError(
      `The checkpoint ${path} is of another workspace (${String(data['base_url'])}, team ${String(data['team_id'])}).`,
      'Clone to another file, or delete the checkpoint to start over.',
    );
  }
  return data as unknown as ReadState;
}

/** Written atomically and 0600: it holds the workspace's data as read (not scrubbed). */
export function saveState(file: string, state: ReadState): void {
  const path = checkpointPath(file);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
  renameSync(tmp, path);
}

export function removeState(file: string): void {
  rmSync(checkpointPath(file), { force: true });
}

/** Why a listing is not offered, when the answer says so (404, 405, the webhook preview's 403). */
function notOffered(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  if (err.apiCode === 'webhooks_unavailable' || err.status === 404 || err.status === 405) {
    return err.message;
  }
  return undefined;
}

export interface ReadStep {
  /** What is being read, for the progress line. */
  what: string;
}

/**
 * Read what `state` does not hold yet, saving it after every answer (`save`). `sample` is
 * the most records per type; `progress` hears of each step.
 */
export async function readWorkspace(
  client: ApiClient,
  state: ReadState,
  opts: {
    sample: number;
    signal: AbortSignal;
    save: () => void;
    progress: (text: string) => void;
  },
): Promise<void> {
  const { signal, save, progress } = opts;
  if (state.properties === undefined) {
    progress('Reading property definitions and options');
    const all = await listAllProperties(client, { signal });
    state.properties = Object.fromEntries(all);
    save();
  }
  if (state.webhooks === undefined) {
    progress('Reading webhooks');
    try {
      state.webhooks = { items: await listWebhooks(client, { signal }), cursor: null, done: true };
    } catch (err) {
      const why = notOffered(err);
      if (why === undefined) throw err;
      state.webhooks = { items: [], cursor: null, done: true, unavailable: why };
    }
    save();
  }
  for (const type of VIEW_TYPES) {
    progress(`Reading ${type} views`);
    state.views[type] = await readListing(state.views[type], save, (cursor) =>
      listViews(client, type, { cursor, limit: MAX_PAGE, signal }),
    );
  }
  for (const type of AUTOMATION_TYPES) {
    progress(`Reading ${type} automations`);
    state.automations[type] = await readListing(state.automations[type], save, (cursor) =>
      listAutomations(client, type, { cursor, limit: MAX_PAGE, signal }),
    );
  }
  for (const type of RECORD_TYPES) {
    state.records[type] ??= { rows: [], cursor: null, done: false };
    const s = state.records[type];
    if (s.rows.length >= opts.sample) {
      s.rows = s.rows.slice(0, opts.sample);
      s.done = true;
    }
    const seen = new Set(s.rows.map((r) => r.id));
    while (!s.done) {
      progress(`Reading ${type} records: ${s.rows.length} of at most ${opts.sample}`);
      const limit = Math.min(MAX_PAGE, opts.sample - s.rows.length);
      const page = await listRecords(
        client,
        type,
        { limit, ...(s.cursor === null ? {} : { cursor: s.cursor }) },
        { signal },
      );
      for (const row of page.data) {
        if (seen.has(row.id) || s.rows.length >= opts.sample) continue;
        seen.add(row.id);
        s.rows.push(row);
      }
      s.cursor = page.next_cursor ?? null;
      s.done = !page.has_more || s.cursor === null || s.rows.length >= opts.sample;
      save();
    }
  }
  state.referenced ??= plannedReferences(state);
  for (const type of RECORD_TYPES) {
    const r = state.referenced[type];
    if (r === undefined) continue;
    const select = (state.properties[type] ?? []).map((d) => d.slug);
    while (r.wanted.length > 0) {
      progress(`Reading the ${type} records the sample refers to: ${r.wanted.length} to go`);
      const ids = r.wanted.slice(0, MAX_PAGE);
      const page = await queryRecords(
        client,
        type,
        { id: ids, query: { select, limit: MAX_PAGE } },
        { signal },
      );
      const asked = new Set(ids);
      r.rows.push(...page.data.filter((row) => asked.has(row.id)));
      r.wanted = r.wanted.slice(ids.length);
      save();
    }
  }
}

async function readListing<T>(
  listing: Listing<T> | undefined,
  save: () => void,
  fetchPage: (
    cursor: string | undefined,
  ) => Promise<{ data: T[]; has_more: boolean; next_cursor: string | null }>,
): Promise<Listing<T>> {
  const l = listing ?? { items: [], cursor: null, done: false };
  while (!l.done) {
    try {
      const page = await fetchPage(l.cursor ?? undefined);
      l.items.push(...page.data);
      l.cursor = page.next_cursor;
      l.done = !page.has_more || page.next_cursor === null;
    } catch (err) {
      const why = notOffered(err);
      if (why === undefined) throw err;
      l.unavailable = why;
      l.done = true;
    }
    save();
  }
  return l;
}

/** The records sampled records refer to, by type, that no sample holds. */
function plannedReferences(state: ReadState): Partial<Record<RecordType, Referenced>> {
  const held = new Set<string>();
  for (const s of Object.values(state.records)) for (const row of s.rows) held.add(row.id);
  const wanted = new Map<RecordType, Set<string>>();
  for (const [type, s] of Object.entries(state.records) as [RecordType, Sample][]) {
    const refs = (state.properties?.[type] ?? []).flatMap((d) => {
      const target = referencedType(d.type);
      return target === undefined ? [] : [{ slug: d.slug, target }];
    });
    for (const row of s.rows) {
      for (const { slug, target } of refs) {
        for (const id of referenceIds(row.properties?.[slug])) {
          if (held.has(id)) continue;
          const set = wanted.get(target) ?? new Set<string>();
          wanted.set(target, set.add(id));
        }
      }
    }
  }
  const out: Partial<Record<RecordType, Referenced>> = {};
  for (const [type, ids] of wanted) out[type] = { wanted: [...ids], asked: ids.size, rows: [] };
  return out;
}

/** The fewest requests that read what `state` holds: full pages, nothing asked twice. */
export function leastRequests(state: ReadState): number {
  const pages = (n: number) => Math.max(1, Math.ceil(n / MAX_PAGE));
  let n = 2; // every definition; the webhooks
  for (const l of [...Object.values(state.views), ...Object.values(state.automations)]) {
    n += pages(l.items.length);
  }
  for (const s of Object.values(state.records)) n += pages(s.rows.length);
  for (const r of Object.values(state.referenced ?? {})) n += Math.ceil(r.asked / MAX_PAGE);
  return n;
}
