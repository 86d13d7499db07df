// `ws webhooks ping ID|NAME`: send a `webhook.test` event; with --wait, report the outcome
// of its delivery (exit 1 when the receiver did not acknowledge it). A webhook that does
// not get the event (disabled, or not verified) is an error that says which.
import { getWebhook, type PingResult, pingWebhook } from '../../api/webhooks.ts';
import { WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { renderObject } from '../../output/render.ts';
import { shellWord } from '../../util/shell.ts';
import { notFound, resolveWebhook } from '../common/find-webhook.ts';
import { attemptText, newestSettled, retryText, settledDelivery } from './delivery-outcome.ts';

export interface PingOptions {
  webhook: string;
  wait: boolean;
}

type Shown = PingResult & { delivery?: Awaited<ReturnType<typeof settledDelivery>> };

const columns: Column<Shown>[] = [
  { key: 'dispatched' },
  { key: 'event' },
  { key: 'webhook_id' },
  { key: 'delivery_id' },
  { key: 'status', get: (r) => r.delivery?.status },
  { key: 'status_code', get: (r) => r.delivery?.status_code },
  { key: 'attempts', get: (r) => r.delivery?.attempts },
];

export async function run(opts: PingOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const found = await resolveWebhook(deps, client, opts.webhook);
  const sentAt = deps.clock.now();
  const answer = await pingWebhook(client, found.id, { signal: deps.signal }).catch(notFound);
  const shown: Shown = { ...answer };
  if (!answer.dispatched) {
    const w = found.webhook ?? (await getWebhook(client, found.id, { signal: deps.signal }));
    await renderObject(deps.io, shown, columns, { format: deps.format, fields: deps.fields });
    const why = !w.enabled
      ? [`it is disabled`, `Enable it with \`ws webhooks enable ${shellWord(w.name)}\`.`]
      : !w.verified
        ? [
            `it is not verified (its receiver has not passed the handshake)`,
            `Check the receiver, then run \`ws webhooks verify ${shellWord(w.name)}\`.`,
          ]
        : ['the service did not dispatch it', 'Try again in a moment.'];
    throw new WsError(`Webhook ${w.name} did not get the test event: ${why[0]}.`, {
      code: 'not_dispatched',
      hint: why[1],
    });
  }
  const name = found.webhook?.name ?? found.id;
  if (!opts.wait) {
    await renderObject(deps.io, shown, columns, { format: deps.format, fields: deps.fields });
    deps.io.success(
      `Sent ${answer.event} to webhook ${name}${answer.delivery_id ? ` (delivery ${answer.delivery_id})` : ''}; --wait reports its outcome.`,
    );
    return;
  }
  const progress = await deps.io.progress(`Waiting for the delivery of ${answer.event}…`);
  try {
    shown.delivery = answer.delivery_id
      ? await settledDelivery(deps, client, found.id, answer.delivery_id)
      : await newestSettled(deps, client, found.id, answer.event, sentAt);
  } finally {
    progress.stop();
  }
  if (!shown.delivery_id) shown.delivery_id = shown.delivery.delivery_id;
  await renderObject(deps.io, shown, columns, { format: deps.format, fields: deps.fields });
  const d = shown.delivery;
  if (d.status === 'success') {
    deps.io.success(`Delivered ${answer.event} to ${d.url}: ${attemptText(d)}.`);
    return;
  }
  throw new WsError(
    `The delivery of ${answer.event} to ${d.url} failed: ${attemptText(d)}.${retryText(d)}`,
    {
      code: 'delivery_failed',
      hint: `See every attempt with \`ws deliveries get ${d.delivery_id} --webhook ${found.id}\`.`,
    },
  );
}
