// Webhooks and their deliveries, kept in the store's `webhooks` slice (so in the data file,
// with the signing secrets: the file is mode 0600): every endpoint, and every delivery with
// its attempt history and, while one is due, when its next attempt is. The delivery engine
// (engine.ts) does the sending and writes each outcome back here; a restarted sandbox finds
// the deliveries still due and sends them.
//
// The model holds the rules of the state: ids and secrets, verification moves, a delivery's
// status from its latest attempt, dead-lettering, and how many deliveries are kept. The
// slice keeps keyed entries for the data file's journal (`webhook/<id>`, `delivery/<id>`): an
// attempt appends its delivery, whatever the number of deliveries kept.

import { randomBytes } from 'node:crypto';
import { isPlainObject } from '../../../util/guards.ts';
import { randomId } from '../../ids.ts';
import { defineSlice, parseById, SliceModel, SnapshotError, type Store } from '../../store.ts';
import { cutText, REQUEST_BODY_LIMIT } from './bodies.ts';
import { deliveryEvents } from './events.ts';
import type {
  DeliveryType,
  StoredAttempt,
  StoredDelivery,
  StoredWebhook,
  WebhookView,
} from './types.ts';

/** A delivery is attempted at most this often: the first attempt and 2 retries (api.md). */
export const MAX_ATTEMPTS = 3;
/**
 * Deliveries that ended kept (those that ended first go first; every delivery an attempt
 * will follow is kept): enough history for any test or CI run, and a bound on memory and on
 * the data file when automations fire on every write of a large import.
 */
export const KEPT_DELIVERIES = 10_000;
/**
 * Deliveries an attempt will follow (not yet sent, or to be retried) kept at most: past it,
 * a new delivery is not sent but kept as failed, with the reason (`not_sent`). A bound on
 * memory when automations ask for deliveries faster than receivers take them (one import
 * of 20,000 rows with 50 webhook automations asks for a million).
 */
export const MAX_UNSENT_DELIVERIES = 100_000;

export interface WebhookInput {
  name: string;
  url: string;
  description?: string | undefined;
  enabled?: boolean | undefined;
}

export interface NewDelivery {
  type: DeliveryType;
  event: string;
  /** The request body (deliveries), made from the new delivery's id; null for handshakes. */
  body: ((deliveryId: string) => string) | null;
  /** The handshake's challenge; null for deliveries. */
  challenge: string | null;
}

/** What an attempt found, for recordAttempt. */
export type AttemptOutcome = Omit<StoredAttempt, 'attempt'>;

export class WebhooksModel extends SliceModel {
  /** By id, in creation order. */
  private webhooks = new Map<string, StoredWebhook>();
  /** By id, in creation order (so oldest first). */
  private deliveries = new Map<string, StoredDelivery>();
  /**
   * Ids of the deliveries no attempt will follow, in the order they ended (from `head` on):
   * the first to go when more than KEPT_DELIVERIES are kept. An id may be of a delivery
   * gone since (its webhook was deleted).
   */
  private ended: string[] = [];
  private head = 0;
  /** Deliveries an attempt will follow. */
  private unsent = 0;
  private seq = 0;
  /** What the journal holds, until entriesLoaded() checks it and puts it in place. */
  private loading:
    | { webhooks: Map<string, StoredWebhook>; deliveries: Map<string, StoredDelivery> }
    | undefined;

  // ------------------------------------------------------------------ webhooks

  create(teamId: string, input: WebhookInput): StoredWebhook {
    const at = this.ctx.clock.iso();
    const webhook: StoredWebhook = {
      id: randomId(),
      team_id: teamId,
      name: input.name,
      url: input.url,
      description: input.description ?? null,
      enabled: input.enabled ?? true,
      verified: false,
      verified_at: null,
      verification_token: `whtok_${randomBytes(24).toString('base64url')}`,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      created_at: at,
      updated_at: at,
      handshake_id: null,
    };
    this.webhooks.set(webhook.id, webhook);
    this.ctx.changed(webhookKey(webhook.id));
    return webhook;
  }

  /** The team's webhook with this id. */
  get(teamId: string, id: string): StoredWebhook | undefined {
    const webhook = this.webhooks.get(id);
    return webhook?.team_id === teamId ? webhook : undefined;
  }

  /** The team's webhooks, oldest first. */
  list(teamId: string): StoredWebhook[] {
    return [...this.webhooks.values()].filter((w) => w.team_id === teamId);
  }

  /**
   * Change the fields given; a new url makes the webhook unverified (its handshake is run
   * again by the caller). Returns whether the url changed.
   */
  update(webhook: StoredWebhook, patch: Partial<WebhookInput>): { urlChanged: boolean } {
    let changed = false;
    let urlChanged = false;
    if (patch.name !== undefined && patch.name !== webhook.name) {
      webhook.name = patch.name;
      changed = true;
    }
    if (patch.description !== undefined && patch.description !== webhook.description) {
      webhook.description = patch.description;
      changed = true;
    }
    if (patch.enabled !== undefined && patch.enabled !== webhook.enabled) {
      webhook.enabled = patch.enabled;
      changed = true;
    }
    if (patch.url !== undefined && patch.url !== webhook.url) {
      webhook.url = patch.url;
      webhook.verified = false;
      webhook.verified_at = null;
      webhook.handshake_id = null;
      changed = urlChanged = true;
    }
    if (changed) this.touch(webhook);
    return { urlChanged };
  }

  /** Remove the webhook and its deliveries; returns the ids of those deliveries. */
  delete(webhook: StoredWebhook): string[] {
    this.webhooks.delete(webhook.id);
    this.ctx.changed(webhookKey(webhook.id));
    const dropped: string[] = [];
    for (const [id, delivery] of this.deliveries) {
      if (delivery.webhook_id === webhook.id) {
        this.deliveries.delete(id);
        if (delivery.next_attempt_at !== null) this.unsent--;
        this.ctx.changed(deliveryKey(id));
        dropped.push(id);
      }
    }
    return dropped;
  }

  /** A new handshake of `webhook`: its verification delivery decides `verified`. */
  beginHandshake(webhook: StoredWebhook): StoredDelivery {
    const delivery = this.addDelivery(webhook, {
      type: 'verification',
      event: 'verification',
      body: null,
      challenge: randomBytes(24).toString('base64url'),
    });
    webhook.handshake_id = delivery.delivery_id;
    this.ctx.changed(webhookKey(webhook.id));
    return delivery;
  }

  /**
   * The end of a handshake: the webhook is verified when it passed, unverified when it did
   * not. A handshake that a newer one (or a url change) replaced decides nothing.
   */
  endHandshake(delivery: StoredDelivery, passed: boolean): void {
    const webhook = this.webhooks.get(delivery.webhook_id);
    if (webhook === undefined || webhook.handshake_id !== delivery.delivery_id) return;
    webhook.handshake_id = null;
    webhook.verified = passed;
    webhook.verified_at = passed ? this.ctx.clock.iso() : null;
    this.touch(webhook);
  }

  // ---------------------------------------------------------------- deliveries

  /**
   * A new delivery to `webhook`, due now, with no attempt made; or, when MAX_UNSENT_DELIVERIES
   * are waiting already, one that will not be sent, failed with the reason.
   */
  addDelivery(webhook: StoredWebhook, input: NewDelivery): StoredDelivery {
    const at = this.ctx.clock.iso();
    const id = randomId();
    const full = this.unsent >= MAX_UNSENT_DELIVERIES;
    const delivery: StoredDelivery = {
      delivery_id: id,
      webhook_id: webhook.id,
      team_id: webhook.team_id,
      type: input.type,
      event: input.event,
      url: webhook.url,
      status: full ? 'failed' : 'pending',
      status_code: null,
      attempts: 0,
      created_at: at,
      updated_at: at,
      next_attempt_at: at,
      dead_lettered: false,
      body: input.body === null ? null : input.body(id),
      body_truncated: false,
      challenge: input.challenge,
      history: [],
      seq: ++this.seq,
    };
    this.deliveries.set(delivery.delivery_id, delivery);
    this.unsent++;
    if (full) {
      delivery.not_sent = `not sent: ${MAX_UNSENT_DELIVERIES} deliveries were waiting to be sent or retried, the most the sandbox keeps; its receivers take deliveries more slowly than automations ask for them`;
      this.finish(delivery, true);
    }
    this.ctx.changed(deliveryKey(id));
    if (this.ctx.events.listening(deliveryEvents)) {
      this.ctx.events.emit(deliveryEvents, { type: 'delivery.created', delivery });
    }
    return delivery;
  }

  /**
   * Make an ended delivery due again now (a resend: one more attempt, same id, its body as
   * it was). Its body must be whole: a body cut when the delivery ended cannot be resent.
   */
  reopen(delivery: StoredDelivery): void {
    if (delivery.next_attempt_at !== null) return;
    delivery.next_attempt_at = this.ctx.clock.iso();
    delivery.dead_lettered = false;
    delivery.updated_at = delivery.next_attempt_at;
    this.unsent++;
    this.ctx.changed(deliveryKey(delivery.delivery_id));
  }

  delivery(id: string): StoredDelivery | undefined {
    return this.deliveries.get(id);
  }

  /** Every delivery, newest first. */
  *newestFirst(): Generator<StoredDelivery> {
    const all = [...this.deliveries.values()];
    for (let i = all.length - 1; i >= 0; i--) yield all[i]!;
  }

  /** The deliveries an attempt is due or will be due for, oldest first. */
  scheduled(): StoredDelivery[] {
    return [...this.deliveries.values()].filter((d) => d.next_attempt_at !== null);
  }

  /**
   * Record an attempt's outcome. `retryAtMs` is when the next attempt is due, or null when
   * none will follow (success, or the last attempt): a delivery that failed its last
   * attempt is dead-lettered.
   */
  recordAttempt(delivery: StoredDelivery, outcome: AttemptOutcome, retryAtMs: number | null) {
    delivery.attempts++;
    delivery.history.push({ attempt: delivery.attempts, ...outcome });
    delivery.status = outcome.status;
    delivery.status_code = outcome.status_code;
    delivery.updated_at = this.ctx.clock.iso();
    if (retryAtMs === null) this.finish(delivery, outcome.status === 'failed');
    else delivery.next_attempt_at = new Date(retryAtMs).toISOString();
    this.ctx.changed(deliveryKey(delivery.delivery_id));
  }

  /**
   * No attempt will be made (its webhook stopped receiving, or it was never answered for
   * good): dead-lettered as it stands.
   */
  deadLetter(delivery: StoredDelivery): void {
    delivery.updated_at = this.ctx.clock.iso();
    this.finish(delivery, true);
    this.ctx.changed(deliveryKey(delivery.delivery_id));
  }

  // -------------------------------------------------------------------- slice

  reset(): void {
    this.webhooks = new Map();
    this.deliveries = new Map();
    this.ended = [];
    this.head = 0;
    this.unsent = 0;
    this.seq = 0;
    this.loading = undefined;
  }

  /**
   * A snapshot keeps the webhooks (their secrets too, so deliveries to them verify after a
   * load), not the deliveries: loaded, it sends nothing.
   */
  snapshot(): { webhooks: StoredWebhook[]; deliveries: StoredDelivery[] } {
    const webhooks = [...this.webhooks.values()].map((w) => ({ ...w, handshake_id: null }));
    return { webhooks, deliveries: [] };
  }

  isEmpty(): boolean {
    return this.webhooks.size === 0 && this.deliveries.size === 0;
  }

  toJSON(): { webhooks: StoredWebhook[]; deliveries: StoredDelivery[] } {
    return { webhooks: [...this.webhooks.values()], deliveries: [...this.deliveries.values()] };
  }

  load(data: unknown): void {
    const base = 'store.slices.webhooks';
    if (
      !isPlainObject(data) ||
      !Array.isArray(data['webhooks']) ||
      !Array.isArray(data['deliveries'])
    ) {
      throw new SnapshotError(base, 'must be an object with arrays webhooks and deliveries');
    }
    const webhooks = parseById(data['webhooks'], `${base}.webhooks`, 'id', parseWebhook);
    const deliveries: [string, StoredDelivery][] = data['deliveries'].map((item, i) => {
      const path = `${base}.deliveries[${i}]`;
      return [path, parseDelivery(item, path)];
    });
    this.install(webhooks, deliveries);
  }

  /** Journal entries: every webhook, then every delivery, oldest first. */
  *entries(): IterableIterator<[string, unknown]> {
    for (const [id, webhook] of this.webhooks) yield [webhookKey(id), webhook];
    for (const [id, delivery] of this.deliveries) yield [deliveryKey(id), delivery];
  }

  entry(key: string): unknown {
    const [kind, id] = splitKey(key);
    return kind === 'webhook' ? this.webhooks.get(id) : this.deliveries.get(id);
  }

  loadEntry(key: string, value: unknown): void {
    const at = `store.slices.webhooks[${JSON.stringify(key)}]`;
    this.loading ??= { webhooks: new Map(this.webhooks), deliveries: new Map(this.deliveries) };
    const [kind, id] = splitKey(key, at);
    if (kind === 'webhook') {
      if (value === undefined) this.loading.webhooks.delete(id);
      else this.loading.webhooks.set(id, parseWebhook(value, at, id));
    } else if (value === undefined) {
      this.loading.deliveries.delete(id);
    } else {
      this.loading.deliveries.set(id, parseDelivery(value, at, id));
    }
  }

  entriesLoaded(): void {
    if (this.loading === undefined) return;
    const { webhooks, deliveries } = this.loading;
    this.loading = undefined;
    const sorted = [...deliveries.values()].sort((a, b) => a.seq - b.seq);
    this.install(
      webhooks,
      sorted.map((d) => [`store.slices.webhooks["delivery/${d.delivery_id}"]`, d]),
    );
  }

  /** Put loaded webhooks and deliveries (oldest first, with where each was read) in place. */
  private install(
    webhooks: Map<string, StoredWebhook>,
    loaded: readonly [string, StoredDelivery][],
  ): void {
    const deliveries = new Map<string, StoredDelivery>();
    let seq = 0;
    for (const [path, delivery] of loaded) {
      if (!webhooks.has(delivery.webhook_id)) {
        throw new SnapshotError(
          `${path}.webhook_id`,
          `no webhook has the id ${delivery.webhook_id}`,
        );
      }
      if (deliveries.has(delivery.delivery_id) || delivery.seq <= seq) {
        throw new SnapshotError(`${path}`, 'deliveries must have distinct ids, in creation order');
      }
      seq = delivery.seq;
      deliveries.set(delivery.delivery_id, delivery);
    }
    this.webhooks = webhooks;
    this.deliveries = deliveries;
    this.seq = seq;
    // The ones that ended, oldest first (the order they ended is not kept).
    this.ended = [];
    this.head = 0;
    this.unsent = 0;
    for (const [id, delivery] of deliveries) {
      if (delivery.next_attempt_at === null) this.ended.push(id);
      else this.unsent++;
    }
  }

  // ------------------------------------------------------------------ private

  private finish(delivery: StoredDelivery, deadLettered: boolean): void {
    if (delivery.next_attempt_at !== null) this.unsent--;
    this.ended.push(delivery.delivery_id);
    delivery.next_attempt_at = null;
    delivery.dead_lettered = deadLettered;
    if (delivery.body !== null) {
      const kept = cutText(delivery.body, REQUEST_BODY_LIMIT);
      delivery.body = kept.text;
      delivery.body_truncated = kept.truncated;
    }
    this.forgetOld();
  }

  private touch(webhook: StoredWebhook): void {
    webhook.updated_at = this.ctx.clock.iso();
    this.ctx.changed(webhookKey(webhook.id));
  }

  /**
   * Keep the latest KEPT_DELIVERIES that ended: drop the ones that ended first (those an
   * attempt will follow are all kept). Each delivery ends and is dropped once: O(1) a
   * delivery.
   */
  private forgetOld(): void {
    while (this.deliveries.size - this.unsent > KEPT_DELIVERIES && this.head < this.ended.length) {
      const id = this.ended[this.head++]!;
      const delivery = this.deliveries.get(id);
      if (delivery === undefined || delivery.next_attempt_at !== null) continue;
      this.deliveries.delete(id);
      this.ctx.changed(deliveryKey(id));
    }
    if (this.head > 4096 && this.head * 2 > this.ended.length) {
      this.ended = this.ended.slice(this.head);
      this.head = 0;
    }
  }
}

/** The wire form of a webhook: everything but the secret and the running handshake. */
export function webhookView(webhook: StoredWebhook): WebhookView {
  const { secret, handshake_id, ...view } = webhook;
  return view;
}

export const webhooksSlice = defineSlice('webhooks', (ctx) => new WebhooksModel(ctx));

/** The webhooks slice of `store`. */
export function webhooksOf(store: Store): WebhooksModel {
  return store.slice(webhooksSlice);
}

// ----------------------------------------------------------- snapshot checks

type Check = (value: unknown) => boolean;

const isString: Check = (v) => typeof v === 'string';
const isBoolean: Check = (v) => typeof v === 'boolean';
const isCount: Check = (v) => Number.isInteger(v) && (v as number) >= 0;
const isDate: Check = (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v));
const orNull =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const prefixed =
  (prefix: string): Check =>
  (v) =>
    typeof v === 'string' && v.startsWith(prefix);

const WEBHOOK_SHAPE: Record<keyof StoredWebhook, Check> = {
  id: isString,
  team_id: isString,
  name: isString,
  url: isString,
  description: orNull(isString),
  enabled: isBoolean,
  verified: isBoolean,
  verified_at: orNull(isDate),
  verification_token: prefixed('whtok_'),
  secret: prefixed('whsec_'),
  created_at: isDate,
  updated_at: isDate,
  handshake_id: orNull(isString),
};

const DELIVERY_SHAPE: Record<keyof StoredDelivery, Check> = {
  delivery_id: isString,
  webhook_id: isString,
  team_id: isString,
  type: oneOf('delivery', 'verification'),
  event: isString,
  url: isString,
  status: oneOf('pending', 'success', 'failed'),
  status_code: orNull(isCount),
  attempts: isCount,
  created_at: isDate,
  updated_at: isDate,
  next_attempt_at: orNull(isDate),
  dead_lettered: isBoolean,
  body: orNull(isString),
  body_truncated: isBoolean,
  challenge: orNull(isString),
  history: Array.isArray,
  seq: isCount,
  not_sent: (v) => v === undefined || typeof v === 'string',
};

const ATTEMPT_SHAPE: Record<keyof StoredAttempt, Check> = {
  attempt: isCount,
  created_at: isDate,
  status: oneOf('success', 'failed'),
  status_code: orNull(isCount),
  error: orNull(isString),
  response_body: orNull(isString),
  response_body_truncated: isBoolean,
  duration_ms: isCount,
};

function webhookKey(id: string): string {
  return `webhook/${id}`;
}

function deliveryKey(id: string): string {
  return `delivery/${id}`;
}

/** A journal key's kind and id. */
function splitKey(key: string, at = 'store.slices.webhooks'): ['webhook' | 'delivery', string] {
  const slash = key.indexOf('/');
  const kind = key.slice(0, slash);
  if (slash < 0 || (kind !== 'webhook' && kind !== 'delivery')) {
    throw new SnapshotError(at, 'a key must be webhook/<id> or delivery/<id>');
  }
  return [kind, key.slice(slash + 1)];
}

function parseWebhook(item: unknown, path: string, id?: string): StoredWebhook {
  const webhook = checkShape<StoredWebhook>(item, WEBHOOK_SHAPE, path);
  if (id !== undefined && webhook.id !== id) throw new SnapshotError(`${path}.id`, `must be ${id}`);
  return webhook;
}

function parseDelivery(item: unknown, path: string, id?: string): StoredDelivery {
  const delivery = checkShape<StoredDelivery>(item, DELIVERY_SHAPE, path);
  for (const [j, attempt] of delivery.history.entries()) {
    checkShape(attempt, ATTEMPT_SHAPE, `${path}.history[${j}]`);
  }
  if (id !== undefined && delivery.delivery_id !== id) {
    throw new SnapshotError(`${path}.delivery_id`, `must be ${id}`);
  }
  return delivery;
}

/** `value` when it is an object whose fields pass `shape`'s checks; SnapshotError otherwise. */
function checkShape<T>(value: unknown, shape: Record<string, Check>, path: string): T {
  if (!isPlainObject(value)) throw new SnapshotError(path, 'must be an object');
  for (const [name, check] of Object.entries(shape)) {
    if (!check(value[name])) {
      // The value is not quoted: it may be a secret.
      throw new SnapshotError(`${path}.${name}`, 'is missing or has an unexpected value');
    }
  }
  return value as T;
}
