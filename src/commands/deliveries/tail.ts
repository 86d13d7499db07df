// `ws deliveries tail`: new deliveries as they happen, until Ctrl-C (exit 130, as `tail -f`
// ends). The log is polled (poller.ts): every --interval seconds while deliveries arrive,
// backing off to 30 s while none do, each request through the client's rate limiter. On a
// terminal a status line on stderr shows the pace and the requests spent, which count
// against a hosted key's monthly allowance.
import type { Delivery } from '../../api/webhooks.ts';
import type { Deps } from '../../factory.ts';
import { createRowWriter } from '../../output/render.ts';
import { displayWidth, fitLine, type LineCell } from '../../output/width.ts';
import { sleep } from '../../util/time.ts';
import { isStop, stopped } from '../common/stop.ts';
import { DeliveryPoller } from './poller.ts';
import { type DeliveryFilters, deliveryColumns, deliveryQuery, webhookNames } from './shared.ts';

export interface TailOptions extends Omit<DeliveryFilters, 'since' | 'before' | 'after'> {
  /** The shortest pause between polls, in seconds (default 2). */
  interval?: number | undefined;
}

/** The longest pause between polls while nothing arrives, in seconds. */
export const MAX_INTERVAL_S = 30;

export async function run(opts: TailOptions, deps: Deps): Promise<void> {
  const { io } = deps;
  const client = await deps.client();
  let requests = 0;
  const counted = <T>(p: Promise<T>) => {
    requests++;
    return p;
  };
  const { query, webhook } = await deliveryQuery(deps, client, opts);
  if (opts.webhook !== undefined && webhook !== undefined) requests++;
  const table = deps.format === 'table';
  const names = table
    ? webhook
      ? new Map([[webhook.id, webhook.name]])
      : await counted(webhookNames(deps, client))
    : undefined;
  const writer = createRowWriter(io, deliveryColumns(names), {
    format: deps.format === 'table' ? 'tsv' : deps.format,
    fields: deps.fields,
  });
  const status = statusLine(deps);
  const minS = opts.interval ?? 2;
  let intervalS = minS;
  let shown = 0;
  const poller = new DeliveryPoller(client, query, () => requests++);
  const show = async (rows: Delivery[]) => {
    status.clear();
    if (table) {
      for (const d of rows) io.println(tailLine(deps, d, names!));
    } else {
      await writer.write(rows);
    }
    shown += rows.length;
  };
  try {
    await poller.start();
    io.info(
      `Waiting for new deliveries${opts.webhook ? ` of webhook ${webhook?.name ?? opts.webhook}` : ''}… Press Ctrl-C to stop.`,
    );
    for (;;) {
      const fresh = await poller.poll();
      if (fresh.length > 0) {
        if (names && fresh.some((d) => !names.has(d.webhook_id))) {
          for (const [k, v] of await counted(webhookNames(deps, client))) names.set(k, v);
        }
        await show(fresh);
        intervalS = minS;
      } else {
        intervalS = Math.min(MAX_INTERVAL_S, intervalS * 2);
      }
      status.show(
        `${shown} shown · next check in ${intervalS}s · ${requests} request${requests === 1 ? '' : 's'} spent`,
      );
      await sleep(intervalS * 1000, deps.signal);
    }
  } catch (err) {
    throw isStop(deps, err) ? stopped() : err;
  } finally {
    status.clear();
    await writer.end();
    io.info(
      `Stopped: ${shown} deliver${shown === 1 ? 'y' : 'ies'} shown, ${requests} request${requests === 1 ? '' : 's'} spent.`,
    );
  }
}

/**
 * One delivery as a line for people, fitted to the terminal: the delivery's id last (left
 * out, never cut, where it does not fit).
 */
function tailLine(deps: Deps, d: Delivery, names: Map<string, string>): string {
  const c = deps.io.out;
  const time = deps.io.isStdoutTTY
    ? new Date(d.created_at).toLocaleTimeString('en-GB')
    : d.created_at;
  const name = names.get(d.webhook_id) ?? d.webhook_id;
  const cells: LineCell[] = [
    { text: time, width: displayWidth(time), style: c.dim },
    { text: d.event, width: 16 },
    { text: d.status, width: 7, style: d.status === 'success' ? c.green : c.red },
    { text: String(d.status_code ?? '-'), width: 3, align: 'right' },
    { text: name, width: Math.max(16, displayWidth(name)) },
    { text: d.delivery_id, width: displayWidth(d.delivery_id), whole: true, style: c.dim },
  ];
  return fitLine(cells, deps.io.columns);
}

/** A line on stderr that is rewritten in place, on a terminal only (and not with --quiet). */
function statusLine(deps: Deps): { show(text: string): void; clear(): void } {
  const { io } = deps;
  const on = io.isStderrTTY && !io.quiet;
  let visible = false;
  return {
    show(text) {
      if (!on) return;
      io.stderr.write(`\r\x1b[2K${io.err.dim(text)}`);
      visible = true;
    },
    clear() {
      if (!on || !visible) return;
      io.stderr.write('\r\x1b[2K');
      visible = false;
    },
  };
}
