// The clone's snapshot, made the way a user would make it: a private sandbox (in this
// process, on 127.0.0.1, never reaching the network) gets the workspace's definitions,
// webhooks, views and automations through its own API, the sampled records through
// POST /__sandbox/seed (ids kept, nothing fires), and its snapshot is the clone.
//
// The sandbox gives what is created through its API new ids; the snapshot's text then gets
// the workspace's ids back (definitions, options, views, automations, webhooks), so ids a
// user's scripts hold work against the clone, and the same workspace gives the same file:
// the sandbox's clock is held at DEFAULTS_CREATED_AT and each webhook's signing secret and
// verification token are derived from the clone's key and the webhook's id.
//
// A webhook is created disabled, at https://clone.invalid/webhooks/<id> (a name that never
// resolves), its real URL kept only as text in its description: the clone never delivers to
// the real receiver, not even a handshake.

import { createHmac } from 'node:crypto';
import { type Automation, createAutomation } from '../api/automations.ts';
import { ApiClient, RateLimiter } from '../api/client.ts';
import { AUTOMATION_TYPES, type RecordType, VIEW_TYPES } from '../api/object-types.ts';
import {
  createProperty,
  isSharedDefault,
  listAllProperties,
  orderedOptions,
  type PropertyDefinition,
  updateOption,
  updateProperty,
} from '../api/props.ts';
import type { RecordRow } from '../api/records.ts';
import { createView, pinViewRecord, type View, type ViewCreate } from '../api/views.ts';
import { createWebhook } from '../api/webhooks.ts';
import { ApiError } from '../errors.ts';
import type { IOStreams } from '../io/streams.ts';
import { type Listing, type ReadState, referencedType, referenceIds } from './read.ts';
import type { Scrubber } from './scrub.ts';

/** Where a cloned webhook points: a host under .invalid, which never resolves (RFC 2606). */
export const CLONED_WEBHOOK_ORIGIN = 'https://clone.invalid';

/** Something of the workspace the clone does not hold, and why. */
export interface LeftOut {
  what: string;
  count: number;
  why: string;
}

export interface Built {
  text: string;
  copied: {
    definitions: number;
    options: number;
    webhooks: number;
    views: number;
    automations: number;
    pins: number;
    records: Partial<Record<RecordType, number>>;
  };
  leftOut: LeftOut[];
}

export interface BuildOptions {
  /** Keys the webhooks' secrets and tokens (and the scrubber's stand-ins). */
  key: string;
  scrub: Scrubber | undefined;
  /** Keep each automation's enabled state (default: every automation disabled). */
  enableAutomations: boolean;
  io: IOStreams;
  progress: (text: string) => void;
}

const MAX_DESCRIPTION = 1000;

class LeftOutBook {
  private readonly map = new Map<string, LeftOut>();
  add(what: string, why: string, count = 1): void {
    const k = `${what}\0${why}`;
    const e = this.map.get(k);
    if (e) e.count += count;
    else this.map.set(k, { what, why, count });
  }
  list(): LeftOut[] {
    return [...this.map.values()];
  }
}

function message(err: unknown): string {
  if (err instanceof ApiError && err.errors.length > 0) {
    return err.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  }
  return (err as Error).message;
}

/** The fields of an object whose value is not null or undefined. */
function present<T extends object>(o: T, keys: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) if (o[k] !== null && o[k] !== undefined) out[k] = o[k];
  return out;
}

export async function buildSnapshot(state: ReadState, opts: BuildOptions): Promise<Built> {
  const { launchSandbox } = await import('../sandbox/sandbox.ts');
  const { DEFAULTS_CREATED_AT } = await import('../sandbox/resources/properties/defaults.ts');
  const { snapshotText } = await import('../sandbox/snapshot.ts');
  const fixedNow = Date.parse(DEFAULTS_CREATED_AT);
  const sandbox = await launchSandbox({
    host: '127.0.0.1',
    port: 0,
    teamId: state.team_id,
    realNow: () => fixedNow,
    // Nothing reaches the network: no host resolves, so a handshake fails at once.
    webhooks: { resolve: async () => [] },
  });
  const client = new ApiClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    teamId: sandbox.teamId,
    io: opts.io,
    limiter: new RateLimiter(0),
    retries: 0,
  });
  try {
    return await fill(state, opts, client, sandbox, snapshotText);
  } finally {
    await client.close();
    await sandbox.close();
  }
}

async function fill(
  state: ReadState,
  opts: BuildOptions,
  client: ApiClient,
  sandbox: { snapshot(): import('../sandbox/snapshot.ts').Snapshot },
  snapshotText: (s: import('../sandbox/snapshot.ts').Snapshot) => string,
): Promise<Built> {
  const left = new LeftOutBook();
  const copied: Built['copied'] = {
    definitions: 0,
    options: 0,
    webhooks: 0,
    views: 0,
    automations: 0,
    pins: 0,
    records: {},
  };
  /** The clone's id of each id of the workspace (definitions, options, views, automations, webhooks). */
  const idOf = new Map<string, string>();
  /** Secrets and tokens the sandbox made, and what the file holds instead. */
  const secrets = new Map<string, string>();
  const derive = (prefix: string, id: string) =>
    `${prefix}${createHmac('sha256', opts.key).update(`${prefix}${id}`).digest('hex').slice(0, 40)}`;
  const scrub = opts.scrub;

  // ---- definitions and options
  opts.progress('Creating property definitions in the clone');
  const properties = state.properties ?? {};
  for (const type of Object.keys(properties).sort()) {
    for (const d of properties[type]!) {
      if (isSharedDefault(d)) continue;
      if (d.list_id) {
        left.add(`${type} properties`, 'scoped to a list (lists are not cloned)');
        continue;
      }
      const options = orderedOptions(d);
      const body = {
        name: d.name ?? d.slug,
        type: d.type,
        slug: d.slug,
        required: d.required === true,
        ...present(d, ['icon', 'role_id']),
        ...(options.length > 0
          ? {
              options: options.map((o) => ({
                value: o.value ?? o.slug,
                slug: o.slug,
                ...present(o, [
                  'color_scheme',
                  'description',
                  'icon',
                  'option_group',
                  'sort_index',
                ]),
              })),
            }
          : {}),
      };
      let made: PropertyDefinition;
      try {
        made = await createProperty(client, type, body as never);
      } catch (err) {
        left.add(`${type} property ${d.slug}`, `the sandbox refused it: ${message(err)}`);
        continue;
      }
      idOf.set(d.id, made.id);
      copied.definitions++;
      if (d.enabled === false)
        await updateProperty(client, type, made.id, { type: d.type, enabled: false });
      for (const o of options) {
        const mine = made.options?.find((m) => m.slug === o.slug);
        if (mine === undefined) continue;
        idOf.set(o.id, mine.id);
        copied.options++;
        if (o.enabled === false) {
          await updateOption(client, type, made.id, mine.id, { type: d.type, enabled: false });
        }
      }
    }
  }
  const cloneDefs = await listAllProperties(client);
  for (const type of Object.keys(properties)) {
    const have = new Set((cloneDefs.get(type) ?? []).map((d) => d.slug));
    for (const d of properties[type]!) {
      if (isSharedDefault(d) && !have.has(d.slug)) {
        left.add(
          `${type} property ${d.slug}`,
          'a default of the workspace the sandbox does not have',
        );
      }
    }
  }

  // ---- webhooks: disabled, at an address that never resolves, the real URL as text
  opts.progress('Creating webhooks in the clone (disabled)');
  if (state.webhooks?.unavailable)
    left.add('webhooks', `not listed: ${state.webhooks.unavailable}`);
  for (const w of state.webhooks?.items ?? []) {
    const note = `Cloned from ${w.url}`;
    const rest = w.description ? `. ${w.description}` : '';
    const description =
      (note + rest).length <= MAX_DESCRIPTION
        ? note + rest
        : `${(note + rest).slice(0, MAX_DESCRIPTION - 1)}…`;
    const made = await createWebhook(client, {
      name: w.name,
      url: `${CLONED_WEBHOOK_ORIGIN}/webhooks/${w.id}`,
      description,
      enabled: false,
    });
    idOf.set(w.id, made.id);
    secrets.set(made.secret, derive('whsec_', w.id));
    if (made.verification_token) secrets.set(made.verification_token, derive('whtok_', w.id));
    copied.webhooks++;
  }

  // ---- views
  opts.progress('Creating views in the clone');
  const pins: { type: (typeof VIEW_TYPES)[number]; view: string; ids: string[] }[] = [];
  for (const [type, v] of cloneable(state.views, VIEW_TYPES, 'views', left)) {
    const body = viewBody(v, idOf, scrub);
    try {
      const made = await createView(client, type, body);
      idOf.set(v.id, made.id);
      copied.views++;
      if (v.record_order && v.record_order.length > 0) {
        pins.push({ type, view: made.id, ids: v.record_order });
      }
    } catch (err) {
      left.add(`${type} view "${v.name}"`, `the sandbox refused it: ${message(err)}`);
    }
  }

  // ---- records
  const seeded = await seedRecords(state, client, cloneDefs, left, scrub, opts.progress);
  copied.records = seeded.counts;

  // ---- pins of the views, of records the clone holds
  for (const p of pins) {
    for (const id of p.ids) {
      if (!seeded.ids.has(id)) {
        left.add(`pins of ${p.type} views`, 'the pinned record is not in the sample');
        continue;
      }
      await pinViewRecord(client, p.type, p.view, id);
      copied.pins++;
    }
  }

  // ---- automations: disabled unless asked, webhook steps at the cloned (disabled) webhooks
  opts.progress('Creating automations in the clone');
  for (const [type, a] of cloneable(state.automations, AUTOMATION_TYPES, 'automations', left)) {
    try {
      const made = await createAutomation(client, type, automationBody(a, idOf, left, opts));
      idOf.set(a.id, made.id);
      copied.automations++;
    } catch (err) {
      left.add(`${type} automation "${a.name}"`, `the sandbox refused it: ${message(err)}`);
    }
  }

  // ---- the snapshot, with the workspace's ids and derived secrets
  let text = snapshotText(sandbox.snapshot());
  const back = new Map<string, string>([...secrets]);
  for (const [workspace, clone] of idOf) back.set(clone, workspace);
  text = text.replace(
    /whsec_[A-Za-z0-9_-]+|whtok_[A-Za-z0-9_-]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    (m) => back.get(m) ?? m,
  );
  // Keys that were ids are now in another order: write it again in the file's order.
  text = snapshotText(JSON.parse(text));
  return { text, copied, leftOut: left.list() };
}

function viewBody(v: View, idOf: Map<string, string>, scrub: Scrubber | undefined): ViewCreate {
  const body: ViewCreate = {
    name: v.name,
    view_type: v.view_type as ViewCreate['view_type'],
    ...present(v, [
      'aggregation_type',
      'column_layout',
      'combinator',
      'group_by',
      'group_hide_empty',
      'group_sort',
      'icon',
      'select',
      'sort',
      'sort_order',
    ] as const),
  } as ViewCreate;
  if (v.filter) body.filter = (scrub ? scrub.deep(v.filter) : v.filter) as ViewCreate['filter'];
  if (v.aggregation_prop_def_id) {
    body.aggregation_prop_def_id = idOf.get(v.aggregation_prop_def_id) ?? v.aggregation_prop_def_id;
  }
  if (Array.isArray(v.group_hidden_option_ids)) {
    body.group_hidden_option_ids = v.group_hidden_option_ids.map((id) =>
      typeof id === 'string' ? (idOf.get(id) ?? id) : id,
    );
  }
  return body;
}

/**
 * What a clone takes of each type's listing (views, automations), with the type: a listing
 * the service did not give, and items scoped to a list (lists are not cloned), are left out.
 */
function* cloneable<K extends string, T extends { list_id?: string | null }>(
  listings: Partial<Record<K, Listing<T>>>,
  types: readonly K[],
  what: string,
  left: LeftOutBook,
): Generator<[K, T]> {
  for (const type of types) {
    const listing = listings[type];
    if (listing?.unavailable) left.add(`${type} ${what}`, `not listed: ${listing.unavailable}`);
    for (const item of listing?.items ?? []) {
      if (item.list_id) left.add(`${type} ${what}`, 'scoped to a list (lists are not cloned)');
      else yield [type, item];
    }
  }
}

function automationBody(
  a: Automation,
  idOf: Map<string, string>,
  left: LeftOutBook,
  opts: BuildOptions,
) {
  const scrub = opts.scrub;
  const actions = (a.actions ?? []).map((action) => {
    const out: Record<string, unknown> = { ...action };
    for (const k of [
      'webhook_id',
      'recipient_email_prop_def_id',
      'recipient_provider_prop_def_id',
    ]) {
      const id = out[k];
      if (typeof id !== 'string') continue;
      if (idOf.has(id)) out[k] = idOf.get(id);
      else if (k === 'webhook_id') {
        left.add(
          `webhook steps of ${a.object_type ?? ''} automations`.replace('  ', ' '),
          'their webhook is not in the clone (they deliver nowhere)',
        );
      }
    }
    if (typeof out['recipient_view_id'] === 'string') {
      left.add(
        'contact views of email and linkedin steps',
        'the API does not list contact views (define them with PUT /__sandbox/contact_views/ID)',
      );
    }
    if (scrub && typeof out['subject'] === 'string') out['subject'] = scrub.text(out['subject']);
    return out;
  });
  return {
    kind: a.kind,
    name: a.name,
    actions,
    enabled: opts.enableAutomations ? a.enabled !== false : false,
    ...present(a, ['on_create', 'on_delete'] as const),
    ...(a.changeset ? { changeset: scrub ? scrub.deep(a.changeset) : a.changeset } : {}),
    ...(a.state ? { state: scrub ? scrub.deep(a.state) : a.state } : {}),
  } as never;
}

interface SeedRecord {
  id: string;
  default: Record<string, unknown>;
}

/** Write the sample with POST /__sandbox/seed: values the clone cannot hold are left out and counted. */
async function seedRecords(
  state: ReadState,
  client: ApiClient,
  cloneDefs: Map<string, PropertyDefinition[]>,
  left: LeftOutBook,
  scrub: Scrubber | undefined,
  progress: (text: string) => void,
): Promise<{ counts: Partial<Record<RecordType, number>>; ids: Set<string> }> {
  const rows = new Map<RecordType, RecordRow[]>();
  for (const [type, s] of Object.entries(state.records) as [RecordType, { rows: RecordRow[] }][]) {
    rows.set(type, [...s.rows]);
  }
  for (const [type, r] of Object.entries(state.referenced ?? {}) as [
    RecordType,
    { rows: RecordRow[]; asked: number },
  ][]) {
    rows.set(type, [...(rows.get(type) ?? []), ...r.rows]);
  }
  const held = new Map<RecordType, Set<string>>();
  for (const [type, list] of rows) held.set(type, new Set(list.map((r) => r.id)));
  const defsOf = (type: string) => new Map((cloneDefs.get(type) ?? []).map((d) => [d.slug, d]));

  if (scrub) {
    for (const [type, list] of rows) {
      const defs = defsOf(type);
      for (const row of list) {
        for (const [slug, value] of Object.entries(row.properties ?? {})) {
          const d = defs.get(slug);
          if (d) scrub.learnNames({ objectType: type, slug, name: d.name, type: d.type }, value);
        }
      }
    }
  }

  const body: Record<string, SeedRecord[]> = {};
  for (const [type, list] of rows) {
    const defs = defsOf(type);
    body[type] = list.map((row) => {
      const values: Record<string, unknown> = {};
      for (const [slug, value] of Object.entries(row.properties ?? {})) {
        if (value === null || value === undefined) continue;
        const d = defs.get(slug);
        if (d === undefined) {
          left.add(`values of ${type} property ${slug}`, 'the clone has no such property');
          continue;
        }
        if (/^(multi)?ref_/.test(d.type)) {
          const target = referencedType(d.type);
          const ids = referenceIds(value);
          if (target === undefined) {
            left.add(
              `${type} references in ${slug}`,
              `they name ${d.type.replace(/^(multi)?ref_/, '')} records, which are not cloned`,
              ids.length,
            );
            continue;
          }
          const kept = ids.filter((id) => held.get(target)?.has(id));
          if (kept.length < ids.length) {
            left.add(
              `${type} references in ${slug}`,
              'the record referred to is in neither the sample nor its references (cleared)',
              ids.length - kept.length,
            );
          }
          if (kept.length === 0) continue;
          values[slug] = d.type.startsWith('multiref_') ? kept : kept[0];
          continue;
        }
        values[slug] = scrub
          ? scrub.value({ objectType: type, slug, name: d.name, type: d.type }, value)
          : value;
      }
      return { id: row.id, default: values };
    });
  }

  progress(
    `Writing ${[...rows.values()].reduce((n, l) => n + l.length, 0)} records into the clone`,
  );
  for (let attempt = 0; ; attempt++) {
    const res = await client.request<{ created: Partial<Record<RecordType, number>> }>({
      method: 'POST',
      path: '/__sandbox/seed',
      body: { records: body },
      acceptErrors: true,
    });
    if (res.status === 200) {
      const ids = new Set<string>();
      for (const list of Object.values(body)) for (const r of list) ids.add(r.id);
      return { counts: res.body.created, ids };
    }
    const err = client.errorOf(res, 'POST', '/__sandbox/seed');
    if (res.status !== 400 || err.errors.length === 0 || attempt >= 20) throw err;
    // Each problem names its place (records.contact[3].default.email): that value is left
    // out; a problem with a record as a whole leaves the record out.
    const dropped = new Set<string>();
    for (const e of err.errors) {
      const m = /^records\.(\w+)\[(\d+)\](?:\.default\.([^.[]+))?/.exec(e.field);
      const record = m ? body[m[1]!]?.[Number(m[2])] : undefined;
      if (!m || record === undefined) throw err;
      const slug = m[3];
      if (slug !== undefined && slug in record.default) {
        delete record.default[slug];
        left.add(`values of ${m[1]} property ${slug}`, `the sandbox refused them: ${e.message}`);
      } else {
        dropped.add(record.id);
        left.add(`${m[1]} records`, `the sandbox refused them: ${e.message}`);
      }
    }
    for (const [type, list] of Object.entries(body)) {
      body[type] = list.filter((r) => !dropped.has(r.id));
      const defs = defsOf(type);
      for (const r of body[type]!) {
        for (const [slug, v] of Object.entries(r.default)) {
          if (!/^(multi)?ref_/.test(defs.get(slug)?.type ?? '')) continue;
          const ids = Array.isArray(v) ? v : [v];
          if (!ids.some((id) => typeof id === 'string' && dropped.has(id))) continue;
          const kept = ids.filter((id) => !dropped.has(id as string));
          if (kept.length === 0) delete r.default[slug];
          else r.default[slug] = Array.isArray(v) ? kept : kept[0];
          left.add(`${type} references in ${slug}`, 'the record referred to was refused (cleared)');
        }
      }
    }
  }
}
