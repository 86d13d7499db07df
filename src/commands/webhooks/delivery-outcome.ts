// Waiting for a handshake's or a delivery's outcome by polling the delivery log, and that
// outcome in words.
import type { ApiClient } from '../../api/client.ts';
import { type DeliveryDetail, getDelivery, listDeliveries } from '../../api/webhooks.ts';
import { WaitTimeoutError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { sleep } from '../../util/time.ts';

/** How long `--wait` waits for a handshake or a delivery. */
export const WAIT_MS = 30_000;

/**
 * Poll `check` with growing pauses (100 ms to 1 s) until it gives a value; after WAIT_MS, a
 * timeout (exit 7) that says `nothing` happened "after 30 s.", with `hint`.
 */
export async function poll<T>(
  deps: Deps,
  check: () => Promise<T | undefined>,
  nothing: string,
  hint?: string,
): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let pause = 100;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() + pause > deadline)
      throw new WaitTimeoutError(`${nothing} after ${WAIT_MS / 1000} s.`, hint);
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
): Promise<DeliveryDetail> {
  return poll(
    deps,
    async () => {
      const d = await getDelivery(client, webhookId, deliveryId, { signal: deps.signal });
      return d.status === 'pending' ? undefined : d;
    },
    `Delivery ${deliveryId} had no outcome`,
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
): Promise<DeliveryDetail> {
  return poll(
    deps,
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
    `No ${event} delivery to webhook ${webhookId} had an outcome`,
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
