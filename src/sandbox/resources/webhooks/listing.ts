// Delivery listings (per webhook and team-wide): newest first, filtered by status, type
// (`delivery` by default, as the official client reads it) and creation time, in pages of 1
// to 100 (default 50). A delivery whose first attempt has not ended is not listed: a
// listing's `status` is `success` or `failed` only (the detail still shows it `pending`). The
// cursor (src/sandbox/cursor.ts) holds `s`, the creation sequence of the page's last delivery
// (the next page starts below it, so deliveries made meanwhile neither repeat nor shift a
// page), and a fingerprint of the listing's filters (a cursor given to another listing is 400).

import { fingerprintOf, readCursor, writeCursor } from '../../cursor.ts';
import type { StoredDelivery } from './types.ts';

export const DEFAULT_PAGE_SIZE = 50;

export interface DeliveryFilter {
  /** A webhook id, or null for the whole team. */
  webhookId: string | null;
  teamId: string;
  status: string | undefined;
  /** `delivery` (default), `verification` or `all`. */
  type: string | undefined;
  before: string | undefined;
  after: string | undefined;
}

export interface DeliveryPage {
  data: StoredDelivery[];
  next_cursor: string | null;
}

/** One page of `deliveries` (newest first) that pass `filter`, after `cursor`. */
export function pageOf(
  deliveries: Iterable<StoredDelivery>,
  filter: DeliveryFilter,
  cursor: string | undefined,
  limit: number,
): DeliveryPage {
  const fingerprint = fingerprintOfFilter(filter);
  const below =
    cursor === undefined
      ? Number.POSITIVE_INFINITY
      : readCursor(cursor, fingerprint, {
          field: 'query.cursor',
          position: { s: { min: 0 } },
          listing: 'listing',
          differs: 'a different webhook, status, type, before or after',
          start: 'the newest delivery',
        }).s;
  const before = filter.before === undefined ? undefined : Date.parse(filter.before);
  const after = filter.after === undefined ? undefined : Date.parse(filter.after);
  const type = filter.type === 'all' ? undefined : (filter.type ?? 'delivery');
  const data: StoredDelivery[] = [];
  let more = false;
  for (const delivery of deliveries) {
    if (delivery.seq >= below || delivery.team_id !== filter.teamId) continue;
    if (delivery.status === 'pending') continue;
    if (filter.webhookId !== null && delivery.webhook_id !== filter.webhookId) continue;
    if (filter.status !== undefined && delivery.status !== filter.status) continue;
    if (type !== undefined && delivery.type !== type) continue;
    const created = Date.parse(delivery.created_at);
    if ((before !== undefined && created >= before) || (after !== undefined && created <= after)) {
      continue;
    }
    if (data.length === limit) {
      more = true;
      break;
    }
    data.push(delivery);
  }
  const last = data.at(-1);
  return {
    data,
    next_cursor: more && last !== undefined ? writeCursor({ s: last.seq }, fingerprint) : null,
  };
}

function fingerprintOfFilter(filter: DeliveryFilter): string {
  const { teamId, ...rest } = filter;
  rest.type ??= 'delivery';
  return fingerprintOf(rest);
}
