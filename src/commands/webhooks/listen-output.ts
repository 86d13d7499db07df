// What `ws webhooks listen` prints: one line per event on stdout (a readable line on a
// terminal; with --format ndjson one JSON object per line, the first `{"type":"ready",…}`
// and the last `{"type":"stopped",…}`; tsv/csv rows when piped), and messages on stderr.
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { createRowWriter, type RowWriter } from '../../output/render.ts';
import { displayWidth, fitLine, type LineCell } from '../../output/width.ts';
import { wrapText } from '../../output/wrap.ts';
import type { Received } from '../../webhooks/receiver.ts';

export interface ReadyInfo {
  url: string;
  webhook: { id: string; name: string; url: string };
  forwardTo: string | undefined;
  events: readonly string[];
  /** Only with --print-secret. */
  secret: string | undefined;
  /** Whether the webhook is listen's own (removed when it stops). */
  own: boolean;
}

export interface Stopped {
  received: number;
  rejected: number;
  skipped: number;
  webhookRemoved: boolean;
}

type Row = Record<string, unknown>;

const rowColumns: Column<Row>[] = [
  { key: 'type' },
  { key: 'received_at' },
  { key: 'event' },
  { key: 'delivery_id' },
  { key: 'webhook_id' },
  { key: 'signature' },
  { key: 'answered' },
  { key: 'forward_status', get: (r) => (r.forward as Row | null)?.status },
  { key: 'forward_ms', get: (r) => (r.forward as Row | null)?.ms },
  { key: 'forward_error', get: (r) => (r.forward as Row | null)?.error },
];

/** The JSON form of a received request. */
export function receivedRow(r: Received): Row {
  if (r.kind === 'handshake') {
    return {
      type: 'handshake',
      received_at: r.at.toISOString(),
      event: 'verification',
      answered: r.answered,
      token_matched: r.tokenMatched ?? null,
    };
  }
  let payload: unknown = null;
  try {
    payload = JSON.parse(r.body.toString('utf8'));
  } catch {
    payload = null;
  }
  return {
    type: 'delivery',
    received_at: r.at.toISOString(),
    event: r.event,
    delivery_id: r.deliveryId,
    webhook_id: r.webhookId,
    signature: r.signature.valid ? 'valid' : 'invalid',
    ...(r.signature.valid ? {} : { signature_error: r.signature.detail }),
    answered: r.answered,
    forward: r.forward
      ? { url: r.forward.url, status: r.forward.status, ms: r.forward.ms, error: r.forward.error }
      : null,
    payload,
  };
}

export class ListenOutput {
  private readonly writer: RowWriter<Row> | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly json: boolean;
  private early: Received[] | undefined = [];

  constructor(private readonly deps: Deps) {
    this.json = deps.format === 'json' || deps.format === 'ndjson';
    this.writer =
      deps.format === 'table'
        ? undefined
        : createRowWriter(deps.io, rowColumns, {
            format: deps.format,
            fields: deps.fields,
          });
  }

  private push(rows: Row[]): void {
    const w = this.writer;
    if (!w) return;
    this.queue = this.queue.then(() => w.write(rows));
  }

  ready(info: ReadyInfo): void {
    this.announce(info);
    const early = this.early ?? [];
    this.early = undefined;
    for (const r of early) this.received(r);
  }

  private announce(info: ReadyInfo): void {
    const { io } = this.deps;
    if (this.json) {
      this.push([
        {
          type: 'ready',
          url: info.url,
          webhook_id: info.webhook.id,
          webhook_name: info.webhook.name,
          webhook_url: info.webhook.url,
          forward_to: info.forwardTo ?? null,
          events: info.events.length > 0 ? info.events : null,
          ...(info.secret !== undefined ? { secret: info.secret } : {}),
        },
      ]);
      return;
    }
    if (info.secret !== undefined) io.println(info.secret);
    const e = io.err;
    const via = info.webhook.url === info.url ? '' : ` (the service sends to ${info.webhook.url})`;
    // Broken between words at the terminal's width (the terminal would break a word).
    io.info(
      wrapText(
        `${e.green('Ready:')} listening on ${info.url}${via} as webhook ${e.bold(info.webhook.name)} (${info.webhook.id})` +
          (info.forwardTo ? `, forwarding to ${info.forwardTo}` : '') +
          (info.events.length > 0 ? `, events ${info.events.join(', ')}` : '') +
          '. Press Ctrl-C to stop.',
        io.errColumns,
      ),
    );
  }

  received(r: Received): void {
    // What arrives while listen sets up (its own handshake) follows the ready line.
    if (this.early) {
      this.early.push(r);
      return;
    }
    // A delivery left out by --events is acknowledged and counted, not shown.
    if (r.kind === 'delivery' && r.skipped) return;
    if (this.writer) {
      if (this.json || r.kind === 'delivery') this.push([receivedRow(r)]);
      return;
    }
    const { io } = this.deps;
    const c = io.out;
    const time = io.isStdoutTTY ? r.at.toLocaleTimeString('en-GB') : r.at.toISOString();
    // A line fitted to the terminal: what people read first, the delivery's id last (left
    // out, never cut, where it does not fit).
    const cells: LineCell[] = [
      { text: time, width: displayWidth(time), style: c.dim },
      { text: r.kind === 'handshake' ? 'verification' : r.event, width: 16 },
    ];
    if (r.kind === 'handshake') {
      const ok = r.answered === 200;
      const tail = ok ? 'challenge echoed' : 'refused: the token is not this webhook’s';
      cells.push({ text: 'handshake', width: 9 });
      cells.push({ text: tail, width: displayWidth(tail), style: ok ? c.green : c.red });
    } else if (!r.signature.valid) {
      const tail = `✗ rejected (400): ${r.signature.detail}`;
      cells.push({ text: tail, width: displayWidth(tail), style: c.red });
    } else {
      cells.push({ text: '✓ signature ok', width: 14, style: c.green });
      if (r.forward) {
        const f = r.forward;
        const ok = f.status !== null && f.status >= 200 && f.status < 300;
        const outcome = `→ ${f.status === null ? `${f.error}` : `${f.status} in ${f.ms}ms`}`;
        cells.push({ text: outcome, width: displayWidth(outcome), style: ok ? c.green : c.red });
      }
    }
    if (r.kind === 'delivery') {
      const id = r.deliveryId || '(no delivery id)';
      cells.push({ text: id, width: displayWidth(id), whole: true, style: c.dim });
    }
    io.println(fitLine(cells, io.columns));
  }

  async stopped(s: Stopped, webhookName: string): Promise<void> {
    if (this.json) {
      this.push([
        {
          type: 'stopped',
          received: s.received,
          rejected: s.rejected,
          skipped: s.skipped,
          webhook_removed: s.webhookRemoved,
        },
      ]);
    }
    await this.queue;
    await this.writer?.end();
    const parts = [
      `${s.received} deliver${s.received === 1 ? 'y' : 'ies'} received`,
      ...(s.rejected > 0 ? [`${s.rejected} rejected`] : []),
      ...(s.skipped > 0 ? [`${s.skipped} left out by --events`] : []),
    ];
    this.deps.io.info(
      `Stopped: ${parts.join(', ')}${s.webhookRemoved ? `; removed webhook ${webhookName}` : ''}.`,
    );
  }

  /** Wait for what is being written. */
  flush(): Promise<void> {
    return this.queue;
  }
}
