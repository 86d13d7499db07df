// Delivery listings (per webhook and team-wide): newest first, filtered by status, type
// (`delivery` by default, as the official client reads it) and creation time, in pages of 1
// to 100 (default 50). A delivery whose first attempt has not ended is not listed: a
// listing's `status` is `success` or `failed` only (the detail still shows it `pending`). The cursor is opaque: base64url of
// { v: 1, s, q } where s is the creation sequence of the page's last delivery (the next page
// starts below it, so deliveries made meanwhile neither repeat nor shift a page) and q a
// fingerprint of the listing's scope and filters (a cursor given to another listing is 400).

import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../util/canonical-json.ts';
import { isPlainObject } from '../../../util/guards.ts';
import { invalidRequest } from '../../errors.ts';
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
  const fingerprint = fingerprintOf(filter);
  const below = cursor === undefined ? Number.POSITIVE_INFINITY : decode(cursor, fingerprint);
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
    next_cursor:
      more && last !== undefined
        ? Buffer.from(JSON.stringify({ v: 1, s: last.seq, q: fingerprint })).toString('base64url')
        : null,
  };
}

function fingerprintOf(filter: DeliveryFilter): string {
  const { teamId, ...rest } = filter;
  rest.type ??= 'delivery';
  return createHash('sha256').update(canonicalJson(rest)).digest('base64url').slice(0, 16);
}

/** The sequence a cursor continues below; 400 on `query.cursor` when it is not this listing's. */
function decode(cursor: string, fingerprint: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!isPlainObject(parsed) || parsed['v'] !== 1 || !Number.isInteger(parsed['s'])) {
    const message = 'not a cursor the API issued';
    throw invalidRequest(
      `query.cursor: this is not a cursor the API issued. Pass next_cursor back exactly as received, or leave the cursor out to start from the newest delivery.`,
      [{ field: 'query.cursor', code: 'invalid_cursor', message }],
    );
  }
  if (parsed['q'] !== fingerprint) {
    const message = 'the cursor belongs to another listing';
    throw invalidRequest(
      `query.cursor: the cursor belongs to another listing (a different webhook, status, type, before or after). Send the same filters with its next_cursor, or leave the cursor out.`,
      [{ field: 'query.cursor', code: 'cursor_mismatch', message }],
    );
  }
  return parsed['s'] as number;
}
