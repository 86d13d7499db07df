// The delivery engine: sends what the webhooks slice says is due, and writes each outcome
// back to it. Work outlives the request that caused it (a handshake, a ping, an automation's
// webhook action), so the engine runs beside the server:
//
//   - Due deliveries wait in a queue per webhook; each webhook has at most
//     CONCURRENCY_PER_WEBHOOK attempts in flight, and webhooks do not share a queue, so a
//     receiver that hangs holds up only its own deliveries (until the attempt timeout).
//   - A failed attempt (non-2xx, 3xx included; transport error; timeout) is retried twice,
//     after the settings' base delays times a jitter factor in [0.8, 1.2]; a delivery that
//     fails its third attempt is dead-lettered. Retries wait on timers of the sandbox clock:
//     advancing the clock (POST /__sandbox/clock/advance) re-arms them, and makes the due
//     ones run at once. The timers keep the process alive while a retry is pending; stop()
//     ends them when the sandbox closes.
//   - The slice is the truth: a delivery is due while its next_attempt_at is set, also
//     during its attempt, so one that was due or in flight when the process stopped is sent
//     again by the restarted sandbox (with the same delivery id). reset() and a loaded
//     snapshot (a new store generation) drop the engine's queues and start from the slice.
//
// Other resources ask for deliveries through dispatch() (see dispatches.ts); ping does too.

import { createHmac } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import pkg from '../../../../package.json' with { type: 'json' };
import type { Store } from '../../store.ts';
import { deliveryEvents } from './events.ts';
import { type AttemptOutcome, MAX_ATTEMPTS, webhooksOf } from './model.ts';
import { type Answer, type Outgoing, Sender } from './sender.ts';
import { MAX_WEBHOOK_MS, type WebhookSettings } from './settings.ts';
import type { StoredDelivery, StoredWebhook } from './types.ts';

/** Attempts in flight at once per webhook. */
export const CONCURRENCY_PER_WEBHOOK = 16;
/** Deliveries asked for by automations are made in slices of this many ms of work. */
const SLICE_MS = 5;
/** Longest wait one timer takes (setTimeout's limit); a longer one is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const USER_AGENT = `ws-sandbox/${pkg.version}`;

/** An event for one webhook, from ping or another resource (an automation's webhook action). */
export interface DispatchRequest {
  teamId: string;
  webhookId: string;
  /** The event name, e.g. `webhook.test`. */
  event: string;
  /**
   * The event's payload: the delivery body's `data`; a function is called only when the
   * webhook will receive the event (so an event for no one costs nothing to build).
   */
  data: Record<string, unknown> | (() => Record<string, unknown>);
  /** When it happened (ISO-8601); default: now on the sandbox clock. */
  occurredAt?: string;
}

export type DispatchResult =
  | { dispatched: true; deliveryId: string }
  | { dispatched: false; reason: 'unknown_webhook' | 'disabled' | 'unverified' };

const engines = new WeakMap<Store, DeliveryEngine>();

/** Give `store` its delivery engine (once, when the sandbox is assembled). */
export function setUpDeliveries(store: Store, settings: WebhookSettings): DeliveryEngine {
  const engine = new DeliveryEngine(store, settings);
  engines.set(store, engine);
  return engine;
}

/** The delivery engine of `store`. */
export function deliveriesOf(store: Store): DeliveryEngine {
  const engine = engines.get(store);
  if (engine === undefined) {
    throw new Error('This store has no delivery engine: the webhooks resource is not served');
  }
  return engine;
}

/** Delivery ids due now, first in first out. */
class Queue {
  private items: string[] = [];
  private head = 0;
  push(id: string): void {
    this.items.push(id);
  }
  shift(): string | undefined {
    if (this.head === this.items.length) return undefined;
    const id = this.items[this.head++];
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return id;
  }
  get size(): number {
    return this.items.length - this.head;
  }
}

export class DeliveryEngine {
  private readonly store: Store;
  /** What the sandbox was started with (address rule, timeout, retry delays). */
  readonly settings: WebhookSettings;
  private readonly sender: Sender;
  /** Attempts in flight, by delivery id. */
  private readonly inFlight = new Map<string, AbortController>();
  /** Attempts in flight per webhook id. */
  private readonly busy = new Map<string, number>();
  /** Due deliveries waiting for a free slot of their webhook, by webhook id. */
  private readonly ready = new Map<string, Queue>();
  /** Timers of deliveries due later, by delivery id. */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Deliveries automations asked for, not made yet (enqueue()), a batch an event. */
  private intake: (readonly DispatchRequest[])[] = [];
  /** Deliveries resent by hand whose attempt has not ended: not retried. */
  private readonly resends = new Set<string>();
  /** The next to make: its batch, and its place in the batch. */
  private intakeHead = 0;
  private intakeItem = 0;
  /** The work making them, while there is some. */
  private making: Promise<void> | undefined;
  private generation: number;
  private offsetMs: number;
  private running = false;
  private unsubscribe: (() => void) | undefined;

  constructor(store: Store, settings: WebhookSettings) {
    this.store = store;
    this.settings = settings;
    this.sender = new Sender(settings);
    this.generation = store.generation;
    this.offsetMs = store.clock.offsetMs;
  }

  /** Begin sending: every delivery the slice holds as due (restored ones too) is scheduled. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.store.onChange(() => this.watch());
    this.rebuild();
  }

  /** Stop for good (the sandbox is closing): attempts in flight are dropped, not recorded. */
  stop(): void {
    this.running = false;
    this.unsubscribe?.();
    this.clear();
    this.sender.close();
  }

  /** Ask for a delivery of an event to one webhook: only enabled, verified webhooks get it. */
  dispatch(request: DispatchRequest): DispatchResult {
    const model = webhooksOf(this.store);
    const webhook = model.get(request.teamId, request.webhookId);
    if (webhook === undefined) return { dispatched: false, reason: 'unknown_webhook' };
    if (!webhook.enabled) return { dispatched: false, reason: 'disabled' };
    if (!webhook.verified) return { dispatched: false, reason: 'unverified' };
    const occurredAt = request.occurredAt ?? this.store.clock.iso();
    const data = typeof request.data === 'function' ? request.data() : request.data;
    const delivery = model.addDelivery(webhook, {
      type: 'delivery',
      event: request.event,
      body: (id) =>
        JSON.stringify({
          id,
          webhook_id: webhook.id,
          event: request.event,
          occurred_at: occurredAt,
          data,
        }),
      challenge: null,
    });
    this.schedule(delivery);
    return { dispatched: true, deliveryId: delivery.delivery_id };
  }

  /**
   * Ask for a delivery to be made soon (an automation's webhook step: one write may ask for
   * thousands). Deliveries are made SLICE_MS of work at a time, other requests answered in
   * between; the write that asked waits for them (work.ts), so they are in the data file
   * before its answer leaves.
   */
  enqueue(requests: readonly DispatchRequest[]): void {
    if (requests.length === 0) return;
    this.intake.push(requests);
    this.making ??= this.make();
    this.store.work.track(this.making);
  }

  private async make(): Promise<void> {
    // After the write's other requests were queued (and after `making` is set).
    await Promise.resolve();
    try {
      while (this.intakeHead < this.intake.length) {
        const until = performance.now() + SLICE_MS;
        do {
          const batch = this.intake[this.intakeHead]!;
          this.dispatch(batch[this.intakeItem++]!);
          if (this.intakeItem === batch.length) {
            this.intakeHead++;
            this.intakeItem = 0;
          }
        } while (this.intakeHead < this.intake.length && performance.now() < until);
        if (this.intakeHead < this.intake.length) await yieldToLoop();
      }
    } finally {
      this.intake = [];
      this.intakeHead = 0;
      this.intakeItem = 0;
      this.making = undefined;
    }
  }

  /** Run `webhook`'s handshake (create, url change, verify); returns its delivery. */
  handshake(webhook: StoredWebhook): StoredDelivery {
    const delivery = webhooksOf(this.store).beginHandshake(webhook);
    this.schedule(delivery);
    return delivery;
  }

  /**
   * Send an ended delivery again now: one more attempt with the same id and body, signed
   * anew, not retried when it fails. Refused (with why) for a handshake, a delivery still
   * due, one whose body was cut when it ended, and a webhook that does not receive events.
   */
  resend(delivery: StoredDelivery): { resent: true } | { resent: false; reason: string } {
    const model = webhooksOf(this.store);
    const webhook = model.get(delivery.team_id, delivery.webhook_id);
    if (webhook === undefined) return { resent: false, reason: 'its webhook was deleted' };
    if (delivery.type !== 'delivery') {
      return { resent: false, reason: 'a handshake is run again by verifying the webhook' };
    }
    if (delivery.next_attempt_at !== null) {
      return { resent: false, reason: `an attempt is already due (${delivery.next_attempt_at})` };
    }
    if (delivery.body_truncated) {
      return {
        resent: false,
        reason: 'its body was cut at 65,536 bytes when it ended, so it cannot be sent whole',
      };
    }
    if (!webhook.enabled || !webhook.verified) {
      return {
        resent: false,
        reason: `the webhook is ${webhook.enabled ? 'not verified' : 'disabled'}: it receives no events`,
      };
    }
    model.reopen(delivery);
    this.resends.add(delivery.delivery_id);
    this.schedule(delivery);
    return { resent: true };
  }

  /** Drop the work of deliveries that are gone (their webhook was deleted). */
  forget(deliveryIds: readonly string[]): void {
    for (const id of deliveryIds) {
      this.inFlight.get(id)?.abort();
      clearTimeout(this.timers.get(id));
      this.timers.delete(id);
    }
  }

  // ------------------------------------------------------------- scheduling

  /** Queue `delivery` when it is due, or arm a timer for when it will be. */
  private schedule(delivery: StoredDelivery): void {
    const id = delivery.delivery_id;
    if (!this.running || delivery.next_attempt_at === null || this.inFlight.has(id)) return;
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    const wait = Date.parse(delivery.next_attempt_at) - this.store.clock.nowMs();
    if (wait > 0) {
      const timer = setTimeout(
        () => {
          this.timers.delete(id);
          const current = webhooksOf(this.store).delivery(id);
          if (current !== undefined) this.schedule(current);
        },
        Math.min(wait, MAX_TIMER_MS),
      );
      this.timers.set(id, timer);
      return;
    }
    let queue = this.ready.get(delivery.webhook_id);
    if (queue === undefined) {
      queue = new Queue();
      this.ready.set(delivery.webhook_id, queue);
    }
    queue.push(id);
    this.drain(delivery.webhook_id);
  }

  /** Start due attempts of a webhook while it has free slots. */
  private drain(webhookId: string): void {
    const queue = this.ready.get(webhookId);
    if (queue === undefined) return;
    const model = webhooksOf(this.store);
    while ((this.busy.get(webhookId) ?? 0) < CONCURRENCY_PER_WEBHOOK) {
      const id = queue.shift();
      if (id === undefined) break;
      const delivery = model.delivery(id);
      if (delivery === undefined || delivery.next_attempt_at === null || this.inFlight.has(id)) {
        continue;
      }
      void this.run(delivery);
    }
    if (queue.size === 0) this.ready.delete(webhookId);
  }

  private async run(delivery: StoredDelivery): Promise<void> {
    const id = delivery.delivery_id;
    const webhookId = delivery.webhook_id;
    const controller = new AbortController();
    const generation = this.generation;
    this.inFlight.set(id, controller);
    this.busy.set(webhookId, (this.busy.get(webhookId) ?? 0) + 1);
    try {
      await this.attempt(delivery, controller.signal);
    } catch (err) {
      // A fault of the sandbox itself: seen as a warning, and the delivery not retried forever.
      const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
      process.emitWarning(`A webhook delivery attempt failed: ${detail}`, 'SandboxWebhookWarning');
      if (webhooksOf(this.store).delivery(id) === delivery)
        webhooksOf(this.store).deadLetter(delivery);
    } finally {
      // After a reset, a loaded snapshot or stop(), the books were cleared already.
      if (generation === this.generation && this.running) {
        this.inFlight.delete(id);
        const left = (this.busy.get(webhookId) ?? 1) - 1;
        if (left === 0) this.busy.delete(webhookId);
        else this.busy.set(webhookId, left);
        // A retry follows (or an attempt that was dropped, e.g. the webhook's url changed).
        if (webhooksOf(this.store).delivery(id) === delivery) this.schedule(delivery);
        this.drain(webhookId);
      }
    }
  }

  /** One attempt of `delivery`, its outcome recorded (with when the retry is due, if one is). */
  private async attempt(delivery: StoredDelivery, signal: AbortSignal): Promise<void> {
    const model = webhooksOf(this.store);
    const webhook = model.get(delivery.team_id, delivery.webhook_id);
    if (webhook === undefined) return;
    if (delivery.type === 'delivery' && !(webhook.enabled && webhook.verified)) {
      // "Disabled webhooks are skipped at delivery time" (api.md): so is an unverified one.
      model.deadLetter(delivery);
      return;
    }
    const startedAt = this.store.clock.iso();
    const outgoing = this.request(delivery, webhook);
    const answer = await this.sender.send(outgoing, signal);
    // Stopped, reset, or the delivery is gone (webhook deleted): nothing to record.
    if (signal.aborted || model.delivery(delivery.delivery_id) !== delivery) return;
    const outcome = judge(delivery, answer, startedAt);
    const made = delivery.attempts + 1;
    // A resend is one attempt, not retried.
    const resend = this.resends.delete(delivery.delivery_id);
    const retry =
      outcome.status === 'failed' && delivery.type === 'delivery' && made < MAX_ATTEMPTS && !resend;
    model.recordAttempt(
      delivery,
      outcome,
      retry ? this.store.clock.nowMs() + this.retryDelay(made, answer) : null,
    );
    const { events } = this.store;
    if (events.listening(deliveryEvents)) {
      events.emit(deliveryEvents, {
        type: 'delivery.attempted',
        delivery,
        attempt: delivery.history.at(-1)!,
        request: { method: outgoing.method, url: outgoing.url.href, headers: outgoing.headers },
      });
    }
    if (delivery.type === 'verification') {
      model.endHandshake(delivery, outcome.status === 'success');
    }
  }

  /**
   * The wait before the retry that follows attempt `made`: its base delay, jittered; after a
   * 429 or 503 whose Retry-After asks for longer, that long, up to MAX_WEBHOOK_MS (an hour,
   * the longest retry delay a sandbox takes).
   */
  private retryDelay(made: number, answer: Answer): number {
    const base = this.settings.retryDelaysMs[made - 1]!;
    const delay = Math.round(base * (0.8 + 0.4 * this.settings.random()));
    if (answer.statusCode !== 429 && answer.statusCode !== 503) return delay;
    const asked = retryAfterMs(answer.retryAfter, Date.now());
    return asked === undefined ? delay : Math.min(Math.max(delay, asked), MAX_WEBHOOK_MS);
  }

  private request(delivery: StoredDelivery, webhook: StoredWebhook): Outgoing {
    const url = new URL(delivery.url);
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      'x-service-webhook-id': webhook.id,
      'x-service-delivery-id': delivery.delivery_id,
      'x-service-event': delivery.event,
    };
    if (delivery.type === 'verification') {
      url.searchParams.append('service_hook_mode', 'subscribe');
      url.searchParams.append('service_hook_challenge', delivery.challenge ?? '');
      url.searchParams.append('service_hook_token', webhook.verification_token);
      return { method: 'GET', url, headers };
    }
    const body = delivery.body ?? '';
    headers['content-type'] = 'application/json';
    headers['x-service-signature'] = signature(webhook.secret, this.store.clock.nowMs(), body);
    return { method: 'POST', url, headers, body };
  }

  // ------------------------------------------------------- the store's state

  /** After a change of the store: a new generation starts over, a moved clock re-arms. */
  private watch(): void {
    if (this.store.generation !== this.generation) {
      this.rebuild();
    } else if (this.store.clock.offsetMs !== this.offsetMs) {
      this.offsetMs = this.store.clock.offsetMs;
      const model = webhooksOf(this.store);
      for (const id of [...this.timers.keys()]) {
        const delivery = model.delivery(id);
        if (delivery !== undefined) this.schedule(delivery);
      }
    }
  }

  /** Drop every queue and timer, and schedule what the slice holds as due. */
  private rebuild(): void {
    this.clear();
    this.generation = this.store.generation;
    this.offsetMs = this.store.clock.offsetMs;
    for (const delivery of webhooksOf(this.store).scheduled()) this.schedule(delivery);
  }

  private clear(): void {
    // Deliveries asked for before a reset or a loaded snapshot are not made.
    this.intakeHead = this.intake.length;
    this.intakeItem = 0;
    for (const controller of this.inFlight.values()) controller.abort();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.inFlight.clear();
    this.resends.clear();
    this.busy.clear();
    this.ready.clear();
    this.timers.clear();
    // Attempts still settling belong to the old books.
    this.generation = Number.NaN;
  }
}

/**
 * How long a Retry-After header asks to wait, in ms: delay-seconds or an HTTP date (RFC 9110
 * 10.2.3) after `nowMs`; undefined when there is none or it cannot be read.
 */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date starts with its day's name (IMF-fixdate, RFC 850 and asctime forms).
  const date = /^[A-Za-z]/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** `X-Service-Signature` at `nowMs`: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">. */
export function signature(secret: string, nowMs: number, body: string): string {
  const t = Math.floor(nowMs / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/** An answer as an attempt's outcome: success or failed, and why. */
function judge(delivery: StoredDelivery, answer: Answer, startedAt: string): AttemptOutcome {
  const base = {
    created_at: startedAt,
    status_code: answer.statusCode,
    response_body: answer.body,
    response_body_truncated: answer.bodyTruncated,
    duration_ms: answer.durationMs,
  };
  const failed = (error: string): AttemptOutcome => ({ ...base, status: 'failed', error });
  if (answer.error !== null || answer.statusCode === null) {
    return failed(answer.error ?? 'no answer');
  }
  const code = answer.statusCode;
  const redirect = code >= 300 && code < 400 ? ' (a redirect: redirects are not followed)' : '';
  if (delivery.type === 'verification') {
    if (code !== 200) {
      return failed(
        `answered ${code}${redirect}; the handshake needs 200 with the challenge as the body`,
      );
    }
    if (answer.body !== delivery.challenge) {
      return failed('answered 200, but the body was not the challenge (service_hook_challenge)');
    }
    return { ...base, status: 'success', error: null };
  }
  if (code >= 200 && code < 300) return { ...base, status: 'success', error: null };
  return failed(`answered ${code}${redirect}; deliveries need a 2xx answer`);
}
