// Waiting for a webhook's handshake (after create, a url change, or verify) and saying how
// it went. On a terminal the verbs wait by default (--no-wait not to); piped, only with
// --wait. With the handshake's delivery id (the sandbox answers it in `verification`) its
// log entry is polled; without it, the webhook until it reads verified.
import type { ApiClient } from '../../api/client.ts';
import { getWebhook, type Webhook } from '../../api/webhooks.ts';
import { WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { shellWord } from '../../util/shell.ts';
import { poll, settledDelivery } from './delivery-outcome.ts';

export interface HandshakeOutcome {
  status: 'success' | 'failed';
  status_code: number | null;
  /** Why it failed; null on success. */
  error: string | null;
  duration_ms: number | null;
  delivery_id: string | null;
}

/** --wait (true), --no-wait (false), or neither: wait on a terminal. */
export function shouldWait(deps: Deps, wait: boolean | undefined): boolean {
  return wait ?? deps.io.isStderrTTY;
}

/** Wait for the handshake's outcome, with a spinner on a terminal. */
export async function awaitHandshake(
  deps: Deps,
  client: ApiClient,
  webhook: Pick<Webhook, 'id' | 'url'>,
  deliveryId: string | undefined,
): Promise<HandshakeOutcome> {
  const progress = await deps.io.progress(`Waiting for the handshake with ${webhook.url}…`);
  try {
    if (deliveryId) {
      const d = await settledDelivery(deps, client, webhook.id, deliveryId);
      const last = d.attempt_history[d.attempt_history.length - 1];
      return {
        status: d.status === 'success' ? 'success' : 'failed',
        status_code: d.status_code,
        error: last?.error ?? null,
        duration_ms: last?.duration_ms ?? null,
        delivery_id: d.delivery_id,
      };
    }
    await poll(
      deps,
      async () =>
        (await getWebhook(client, webhook.id, { signal: deps.signal })).verified ? true : undefined,
      `Webhook ${webhook.id} was not verified`,
      `See the handshake's log entry with \`ws deliveries list --webhook ${webhook.id} --type verification\`.`,
    );
    return {
      status: 'success',
      status_code: 200,
      error: null,
      duration_ms: null,
      delivery_id: null,
    };
  } finally {
    progress.stop();
  }
}

/** Say how the handshake went, on stderr. */
export function reportHandshake(
  deps: Deps,
  webhook: Pick<Webhook, 'id' | 'name' | 'url'>,
  outcome: HandshakeOutcome,
): void {
  if (outcome.status === 'success') {
    const took = outcome.duration_ms !== null ? ` in ${outcome.duration_ms}ms` : '';
    deps.io.success(`Verified: ${webhook.url} echoed the challenge${took}.`);
  } else {
    deps.io.warn(
      `the handshake with ${webhook.url} failed: ${outcome.error ?? 'no answer'}. The receiver must answer GET …?service_hook_challenge=X with 200 and X as the body; then run \`ws webhooks verify ${shellWord(webhook.name)}\`.`,
    );
  }
}

/** A failed handshake as the error of `ws webhooks verify` (exit 1; the warning said it all). */
export function handshakeFailed(): WsError {
  return new WsError('The handshake failed.', { code: 'handshake_failed', silent: true });
}
