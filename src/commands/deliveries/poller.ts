// Which deliveries are new since the last look at the log. The log lists a delivery only
// once its first attempt has ended, and lists by creation time, so a delivery created before
// the newest one seen may still appear later (its first attempt took longer). Each look
// therefore asks for the deliveries created after the newest seen less SETTLE_WINDOW_MS
// (the API's `after`), and shows those not shown yet: each delivery once, when its first
// attempt has ended. The first look marks what the window already holds as seen (what came
// before is not shown). Pages are followed while the log is busy.
import type { ApiClient } from '../../api/client.ts';
import {
  type Delivery,
  type DeliveryQuery,
  listDeliveries,
  MAX_DELIVERY_PAGE,
} from '../../api/webhooks.ts';

/**
 * How long after its creation a delivery's first attempt may end and still be shown: the
 * sandbox's attempt timeout is 10 s by default; a queue of deliveries to one slow receiver
 * takes longer. A delivery listed later than this is not shown.
 */
export const SETTLE_WINDOW_MS = 10 * 60_000;

export class DeliveryPoller {
  /** The newest creation time seen (ms). */
  private mark: number | undefined;
  /** Deliveries shown (or there at the start), by id, with their creation time (ms). */
  private readonly shown = new Map<string, number>();

  constructor(
    private readonly client: ApiClient,
    private readonly query: DeliveryQuery,
    private readonly onRequest: () => void,
  ) {}

  private async list(extra: Partial<DeliveryQuery>) {
    this.onRequest();
    return listDeliveries(this.client, { ...this.query, ...extra });
  }

  /** Every delivery created after `after` (all of them without), newest first. */
  private async listAll(after: string | undefined): Promise<Delivery[]> {
    const found: Delivery[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.list({ after, cursor, limit: MAX_DELIVERY_PAGE });
      found.push(...page.data);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return found;
  }

  private since(): string | undefined {
    return this.mark === undefined
      ? undefined
      : new Date(this.mark - SETTLE_WINDOW_MS - 1).toISOString();
  }

  /** The first look: where the new deliveries start. */
  async start(): Promise<void> {
    const page = await this.list({ limit: 1 });
    const newest = page.data[0];
    if (newest === undefined) return;
    this.mark = Date.parse(newest.created_at);
    for (const d of await this.listAll(this.since())) {
      this.shown.set(d.delivery_id, Date.parse(d.created_at));
    }
  }

  /** The deliveries to show now, oldest first. */
  async poll(): Promise<Delivery[]> {
    const found = await this.listAll(this.since());
    const fresh: Delivery[] = [];
    for (const d of found.reverse()) {
      if (this.shown.has(d.delivery_id)) continue;
      const at = Date.parse(d.created_at);
      this.shown.set(d.delivery_id, at);
      fresh.push(d);
      this.mark = Math.max(this.mark ?? at, at);
    }
    this.forget();
    return fresh;
  }

  /** Drop what the next looks can no longer list. */
  private forget(): void {
    const floor = (this.mark ?? 0) - SETTLE_WINDOW_MS - 60_000;
    for (const [id, at] of this.shown) if (at < floor) this.shown.delete(id);
  }
}
