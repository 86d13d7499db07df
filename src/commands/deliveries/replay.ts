// `ws deliveries replay`: send logged deliveries again, to a URL of the developer's (the
// API has no redeliver endpoint). Each body is sent exactly as the log holds it, with the
// delivery's id and event headers and a fresh signature made with --secret-file, oldest
// first. A body the log cut cannot be sent as it was: such a delivery is refused by name
// (nothing is sent) unless --skip-truncated leaves it out.
import type { DeliveryDetail } from '../../api/webhooks.ts';
import { PartialFailureError, UsageError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { createRowWriter } from '../../output/render.ts';
import { deliveryHeaders } from '../../webhooks/delivery-body.ts';
import { acknowledged, exchange, outcomeText } from '../../webhooks/exchange.ts';
import { readSecret } from '../../webhooks/secret.ts';
import { SIGNATURE_HEADER, signatureHeader } from '../../webhooks/signature.ts';
import { resolveWebhook } from '../common/find-webhook.ts';
import { checkReceiverUrl } from '../common/receiver-url.ts';
import { type DeliveryFilters, deliveryPages, deliveryQuery, findDelivery } from './shared.ts';

export interface ReplayOptions extends DeliveryFilters {
  /** Delivery ids; or none, and the filters choose. */
  ids: string[];
  to: string;
  secretFile?: string | undefined;
  dryRun: boolean;
  skipTruncated: boolean;
  /** Seconds the receiver has to answer each (default 10). */
  maxTime?: number | undefined;
}

interface Planned {
  delivery: DeliveryDetail;
  body: string;
}

interface Row {
  delivery_id: string;
  event: string;
  created_at: string;
  bytes: number;
  sent: boolean;
  status: number | null;
  ms: number | null;
  error: string | null;
}

const columns: Column<Row>[] = [
  { key: 'delivery_id' },
  { key: 'event' },
  { key: 'created_at' },
  { key: 'bytes' },
  { key: 'sent' },
  { key: 'status' },
  { key: 'ms' },
  { key: 'error' },
];

/** The deliveries to replay, oldest first, with details. */
async function choose(opts: ReplayOptions, deps: Deps): Promise<DeliveryDetail[]> {
  const client = await deps.client();
  const details: DeliveryDetail[] = [];
  if (opts.ids.length > 0) {
    const cache = {};
    const webhook =
      opts.webhook !== undefined
        ? (await resolveWebhook(deps, client, opts.webhook)).id
        : undefined;
    for (const id of new Set(opts.ids)) {
      details.push(await findDelivery(deps, client, id, webhook, cache));
    }
  } else {
    const { query } = await deliveryQuery(deps, client, { ...opts, type: 'delivery' });
    for await (const page of deliveryPages(client, query, { all: true })) {
      for (const d of page.rows) {
        details.push(await findDelivery(deps, client, d.delivery_id, d.webhook_id));
      }
    }
  }
  return details.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
}

/** Each delivery's body as the log holds it, or the reason it cannot be replayed. */
function plan(details: DeliveryDetail[], skipTruncated: boolean, deps: Deps): Planned[] {
  const planned: Planned[] = [];
  const cut: string[] = [];
  for (const d of details) {
    if (d.type === 'verification') {
      throw new UsageError(
        `Delivery ${d.delivery_id} is a handshake (type verification): it has no body to replay.`,
        'Run the handshake again with `ws webhooks verify ID|NAME`.',
      );
    }
    const attempt = d.attempt_history.find(
      (a) => a.request_body !== null && a.request_body !== undefined,
    );
    if (!attempt) {
      throw new WsError(
        `Delivery ${d.delivery_id} has no attempt in the log yet, so its body is not known.`,
        { hint: 'Wait for its first attempt, then replay it.' },
      );
    }
    if (attempt.request_body_truncated) {
      cut.push(d.delivery_id);
      continue;
    }
    planned.push({ delivery: d, body: attempt.request_body! });
  }
  if (cut.length > 0 && !skipTruncated) {
    throw new WsError(
      `The log cut the body of ${cut.length === 1 ? 'delivery' : `${cut.length} deliveries`} ${cut.join(', ')} (it keeps the first 64 KiB): replaying would send a different body. Nothing was sent.`,
      { code: 'body_truncated', hint: '--skip-truncated replays the others and leaves these out.' },
    );
  }
  for (const id of cut) deps.io.warn(`left out delivery ${id}: the log cut its body.`);
  return planned;
}

export async function run(opts: ReplayOptions, deps: Deps): Promise<void> {
  const to = new URL(checkReceiverUrl(opts.to, '--to'));
  const secret = opts.dryRun
    ? undefined
    : await readSecret(deps, opts.secretFile, 'to sign the replayed deliveries');
  const planned = plan(await choose(opts, deps), opts.skipTruncated, deps);
  const { io } = deps;
  if (planned.length === 0) {
    io.info('No delivery to replay: none matches.');
    return;
  }
  const table = deps.format === 'table';
  const writer = table
    ? undefined
    : createRowWriter(io, columns, { format: deps.format, fields: deps.fields });
  const timeoutMs = (opts.maxTime ?? 10) * 1000;
  let failed = 0;
  for (const { delivery: d, body } of planned) {
    const row: Row = {
      delivery_id: d.delivery_id,
      event: d.event,
      created_at: d.created_at,
      bytes: Buffer.byteLength(body),
      sent: false,
      status: null,
      ms: null,
      error: null,
    };
    if (secret !== undefined) {
      const headers = {
        ...deliveryHeaders({ id: d.delivery_id, webhook_id: d.webhook_id, event: d.event }),
        'user-agent': 'ws-deliveries-replay',
        [SIGNATURE_HEADER]: signatureHeader(
          secret,
          body,
          Math.floor(deps.clock.now().getTime() / 1000),
        ),
      };
      const r = await exchange({
        method: 'POST',
        url: to,
        headers,
        body,
        timeoutMs,
        signal: deps.signal,
      });
      Object.assign(row, { sent: true, status: r.status, ms: r.ms, error: r.error });
      if (!acknowledged(r)) failed++;
      if (table) {
        const c = io.out;
        io.println(
          `${acknowledged(r) ? c.green('✓') : c.red('✗')} ${d.delivery_id}  ${d.event.padEnd(16)}  → ${outcomeText(r)}`,
        );
      }
    } else if (table) {
      io.println(`- ${d.delivery_id}  ${d.event.padEnd(16)}  ${d.created_at}  ${row.bytes} bytes`);
    }
    await writer?.write([row]);
  }
  await writer?.end();
  if (opts.dryRun) {
    io.info(
      `Dry run: ${planned.length} deliver${planned.length === 1 ? 'y' : 'ies'} would be sent to ${to.href}; nothing was sent.`,
    );
    return;
  }
  if (failed > 0) {
    throw new PartialFailureError(
      `${failed} of ${planned.length} replayed deliveries were not acknowledged by ${to.href}.`,
      failed,
      planned.length,
      'Each line says what the receiver answered.',
    );
  }
  io.success(
    `Replayed ${planned.length} deliver${planned.length === 1 ? 'y' : 'ies'} to ${to.href}.`,
  );
}
