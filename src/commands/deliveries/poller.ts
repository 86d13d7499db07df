// Which deliveries are new since the last look at the log. The first look takes the newest
// delivery as the starting point (what came before is not shown). Each later look asks for
// deliveries created after that point (the API's `after`), or after the oldest one still
// pending, so that a delivery is shown once, when its first attempt has ended (a filter
// on status shows it when it matches). Pages are followed while the log is busy.
import type { ApiClient } from '../../api/client.ts';
import {
  type Delivery,
  type DeliveryQuery,
  listDeliveries,
  MAX_DELIVERY_PAGE,
} from '../../api/webhooks.ts';

/** How long a delivery may stay pending before it is no longer waited for. */
const PENDING_LIMIT_MS = 10 * 60_000;

export class DeliveryPoller {
  /** The newest creation time seen (ms). */
  private mark: number | undefined;
  /** Deliveries shown, by id, with their creation time (ms), to show each once. */
  private readonly shown = new Map<string, number>();
  /** Deliveries seen pending, by id, with their creation time (ms). */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly client: ApiClient,
    private readonly query: DeliveryQuery,
    private readonly onRequest: () => void,
  ) {}

  private async list(extra: Partial<DeliveryQuery>) {
    this.onRequest();
    return listDeliveries(this.client, { ...this.query, ...extra });
  }

  /** The first look: where the new deliveries start. */
  async start(): Promise<void> {
    const page = await this.list({ limit: 1 });
    const newest = page.data[0];
    if (newest) {
      this.mark = Date.parse(newest.created_at);
      this.shown.set(newest.delivery_id, this.mark);
    }
  }

  /** The deliveries to show now, oldest first. */
  async poll(): Promise<Delivery[]> {
    const from = Math.min(this.mark ?? Number.POSITIVE_INFINITY, ...this.pending.values());
    const after = Number.isFinite(from) ? new Date(from - 1).toISOString() : undefined;
    const found: Delivery[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.list({ after, cursor, limit: MAX_DELIVERY_PAGE });
      found.push(...page.data);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);

    const fresh: Delivery[] = [];
    for (const d of found.reverse()) {
      const at = Date.parse(d.created_at);
      if (this.shown.has(d.delivery_id)) continue;
      if (d.status === 'pending' && this.query.status !== 'pending') {
        this.pending.set(d.delivery_id, at);
        continue;
      }
      this.pending.delete(d.delivery_id);
      this.shown.set(d.delivery_id, at);
      fresh.push(d);
      this.mark = Math.max(this.mark ?? at, at);
    }
    this.forget();
    return fresh;
  }

  /** Drop what can no longer come back: shown ones well before the mark, stale pending ones. */
  private forget(): void {
    const mark = this.mark ?? 0;
    for (const [id, at] of this.pending) if (at < mark - PENDING_LIMIT_MS) this.pending.delete(id);
    const floor = Math.min(mark, ...this.pending.values()) - 60_000;
    for (const [id, at] of this.shown) if (at < floor) this.shown.delete(id);
  }
}
