// What the webhooks verbs share (and `ws deliveries --webhook`): finding a webhook by id or
// name, the columns webhooks are shown with, and waiting for a handshake's or a
// delivery's outcome by polling the delivery log.
import type { ApiClient } from '../../api/client.ts';
import {
  type DeliveryDetail,
  getDelivery,
  getWebhook,
  listDeliveries,
  listWebhooks,
  type Webhook,
} from '../../api/webhooks.ts';
import {
  ApiError,
  ConflictError,
  NotFoundError,
  UsageError,
  WaitTimeoutError,
} from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { isUuid } from '../../util/guards.ts';
import { shellWord } from '../../util/shell.ts';
import { sleep } from '../../util/time.ts';

/**
 * The webhook a user named: an id is taken as it is; anything else is a name, looked up in
 * the listing (exact, then ignoring case). None is "not found" (exit 4) with the names
 * there are; several are a usage error (exit 2) listing their ids.
 */
export async function resolveWebhook(
  deps: Deps,
  client: ApiClient,
  idOrName: string,
): Promise<{ id: string; webhook?: Webhook }> {
  const given = idOrName.trim();
  if (isUuid(given)) return { id: given };
  if (given === '') throw new UsageError('A webhook id or name is needed.');
  const all = await listWebhooks(client, { signal: deps.signal });
  let matches = all.filter((w) => w.name === given);
  if (matches.length === 0)
    matches = all.filter((w) => w.name.toLowerCase() === given.toLowerCase());
  if (matches.length === 1) return { id: matches[0]!.id, webhook: matches[0]! };
  if (matches.length === 0) {
    throw new NotFoundError(
      `No webhook has the id or name "${given}".`,
      all.length > 0
        ? `Webhooks: ${all
            .slice(0, 10)
            .map((w) => `"${w.name}"`)
            .join(', ')}${all.length > 10 ? `, … (${all.length} in all)` : ''}.`
        : 'There are no webhooks; create one with `ws webhooks create --name NAME --url URL`.',
    );
  }
  throw new UsageError(
    `${matches.length} webhooks are named "${given}": ${matches.map((w) => `${w.id} (${w.url})`).join(', ')}.`,
    'Pass the id of the one you mean.',
  );
}

/**
 * Refuse a name another webhook has (ignoring case): ws's verbs and automation files find
 * webhooks by name, and a second one of the same name would make them all fail. The API
 * itself does not refuse it. `self` is the webhook being renamed.
 */
export async function refuseTakenName(
  deps: Deps,
  client: ApiClient,
  name: string,
  self?: string,
): Promise<void> {
  const all = await listWebhooks(client, { signal: deps.signal });
  const taken = all.find((w) => w.id !== self && w.name.toLowerCase() === name.toLowerCase());
  if (taken === undefined) return;
  throw new ConflictError(
    `A webhook is already named "${taken.name}" (${taken.id}, ${taken.url}).`,
    `Webhooks are found by name (\`ws webhooks get ${shellWord(taken.name)}\`, automation files), so names are unique: pick another --name, or change that webhook with \`ws webhooks update ${shellWord(taken.name)}\`.`,
  );
}

/** A receiver's URL as the API takes it (absolute, http or https), or a usage error. */
export function checkReceiverUrl(value: string, flag = '--url'): string {
  const given = value.trim();
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(
      `${flag} "${given}" is not an absolute URL.`,
      'Give one like https://hooks.example.com/ws or http://127.0.0.1:3000/hooks.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} "${given}" must start with http:// or https://.`);
  }
  return given;
}

/** The webhook, read unless the name lookup already gave it. */
export async function webhookOf(deps: Deps, client: ApiClient, idOrName: string): Promise<Webhook> {
  const found = await resolveWebhook(deps, client, idOrName);
  return found.webhook ?? getWebhook(client, found.id, { signal: deps.signal }).catch(notFound);
}

/** For `.catch()`: a 404 of a webhook gets a hint to list them. */
export function notFound(err: unknown): never {
  if (err instanceof ApiError && err.status === 404) {
    throw new NotFoundError(err.message, 'List the webhooks with `ws webhooks list`.');
  }
  throw err;
}

/** A webhook as the verbs show it: the API's fields, and what a verb adds. */
export type ShownWebhook = Webhook & {
  verification?: { status: string; delivery_id?: string } | undefined;
  /** How the handshake went, when the verb waited for it. */
  handshake?: object | undefined;
};

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const yesNo = (v: unknown) => (v === true ? 'yes' : v === false ? 'no' : '');

/** Every field of a webhook; the listing shows a few by default. */
export const webhookColumns: Column<Webhook>[] = [
  { key: 'id', header: 'ID', id: true },
  { key: 'name', header: 'NAME' },
  { key: 'url', header: 'URL' },
  { key: 'enabled', header: 'ENABLED', text: yesNo },
  { key: 'verified', header: 'VERIFIED', text: yesNo },
  { key: 'verified_at', header: 'VERIFIED AT', text },
  { key: 'description', header: 'DESCRIPTION', text },
  { key: 'verification_token', header: 'VERIFICATION TOKEN', text },
  { key: 'created_at', header: 'CREATED', text },
  { key: 'updated_at', header: 'UPDATED', text },
];

const LIST_DEFAULTS = new Set(['id', 'name', 'url', 'enabled', 'verified']);

export const webhookListColumns: Column<Webhook>[] = webhookColumns.map((c) => ({
  ...c,
  default: LIST_DEFAULTS.has(c.key),
}));

/** How long `--wait` waits for a handshake or a delivery, by default. */
export const DEFAULT_WAIT_MS = 30_000;

/** Poll `check` with growing pauses (100 ms to 1 s) until it gives a value or time runs out. */
export async function poll<T>(
  deps: Deps,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
  timeoutMessage: () => string,
  hint?: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let pause = 100;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() + pause > deadline) throw new WaitTimeoutError(timeoutMessage(), hint);
    await sleep(pause, deps.signal);
    pause = Math.min(1000, pause * 2);
  }
}

/** The delivery once its first attempt has ended (status no longer `pending`). */
export function settledDelivery(
  deps: Deps,
  client: ApiClient,
  webhookId: string,
  deliveryId: string,
  timeoutMs = DEFAULT_WAIT_MS,
): Promise<DeliveryDetail> {
  return poll(
    deps,
    timeoutMs,
    async () => {
      const d = await getDelivery(client, webhookId, deliveryId, { signal: deps.signal });
      return d.status === 'pending' ? undefined : d;
    },
    () => `Delivery ${deliveryId} had no outcome after ${timeoutMs / 1000} s.`,
    `See it later with \`ws deliveries get ${deliveryId} --webhook ${webhookId}\`.`,
  );
}

/**
 * The newest delivery of `event` to the webhook created since `since` (for a service that
 * does not answer a ping with its delivery id), once its first attempt has ended.
 */
export function newestSettled(
  deps: Deps,
  client: ApiClient,
  webhookId: string,
  event: string,
  since: Date,
  timeoutMs = DEFAULT_WAIT_MS,
): Promise<DeliveryDetail> {
  return poll(
    deps,
    timeoutMs,
    async () => {
      const page = await listDeliveries(client, {
        webhookId,
        type: 'delivery',
        after: new Date(since.getTime() - 1000).toISOString(),
        limit: 10,
        signal: deps.signal,
      });
      const d = page.data.find((x) => x.event === event);
      // The API lists settled deliveries only; a service that lists pending ones too is waited on.
      if (!d || (d.status as string) === 'pending') return undefined;
      return getDelivery(client, webhookId, d.delivery_id, { signal: deps.signal });
    },
    () =>
      `No ${event} delivery to webhook ${webhookId} had an outcome after ${timeoutMs / 1000} s.`,
    `See the log with \`ws deliveries list --webhook ${webhookId}\`.`,
  );
}

/** The latest attempt's outcome in words: "200 in 12ms", "500: …", "connection refused". */
export function attemptText(d: DeliveryDetail): string {
  const last = d.attempt_history[d.attempt_history.length - 1];
  const code = d.status_code ?? last?.status_code ?? null;
  const ms = last?.duration_ms;
  if (d.status === 'success') return `${code ?? 'ok'}${ms !== undefined ? ` in ${ms}ms` : ''}`;
  const why = last?.error ?? (code !== null ? `answered ${code}` : 'no answer');
  return `${why}${ms !== undefined ? ` (after ${ms}ms)` : ''}`;
}

/** What follows a failed delivery: its retry, or that it was dead-lettered. */
export function retryText(d: DeliveryDetail): string {
  if (d.status !== 'failed') return '';
  if (d.next_attempt_at)
    return ` Attempt ${d.attempts} failed; the next is due at ${d.next_attempt_at}.`;
  return d.dead_lettered ? ` No attempt is left (dead-lettered after ${d.attempts}).` : '';
}
