// What the deliveries verbs share: the filters of the delivery log as the API takes them,
// reading it page after page (100 a request), finding one delivery by id when its webhook
// is not named, and the columns deliveries are shown with.
import type { ApiClient } from '../../api/client.ts';
import { paginate } from '../../api/paginate.ts';
import {
  type Delivery,
  type DeliveryDetail,
  type DeliveryQuery,
  type DeliveryStatus,
  getDelivery,
  listDeliveries,
  listWebhooks,
  MAX_DELIVERY_PAGE,
  type Webhook,
} from '../../api/webhooks.ts';
import { ApiError, NotFoundError, UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { isUuid } from '../../util/guards.ts';
import { resolveWebhook } from '../common/find-webhook.ts';
import { type Since, sinceTime } from '../common/list-flags.ts';

export const DELIVERY_STATUSES = ['success', 'failed'] as const;
export const DELIVERY_TYPES = ['delivery', 'verification', 'all'] as const;

/** The filters of the delivery log, as the flags give them. */
export interface DeliveryFilters {
  /** A webhook id or name; the team's log without. */
  webhook?: string | undefined;
  status?: DeliveryStatus | undefined;
  type?: (typeof DELIVERY_TYPES)[number] | undefined;
  /** --since (a duration or a time): the API's `after`. */
  since?: Since | undefined;
  before?: Since | undefined;
  after?: Since | undefined;
}

/** The query for the filters; a webhook given by name is looked up (one request). */
export async function deliveryQuery(
  deps: Deps,
  client: ApiClient,
  f: DeliveryFilters,
): Promise<{ query: DeliveryQuery; webhook: Webhook | undefined }> {
  const now = deps.clock.now();
  const found = f.webhook !== undefined ? await resolveWebhook(deps, client, f.webhook) : undefined;
  const after = f.since ?? f.after;
  return {
    webhook: found?.webhook,
    query: {
      webhookId: found?.id,
      status: f.status,
      type: f.type,
      after: after ? sinceTime(after, now) : undefined,
      before: f.before ? sinceTime(f.before, now) : undefined,
      signal: deps.signal,
    },
  };
}

/** The log's pages, newest first: `limit` deliveries, or all of them. */
export function deliveryPages(
  client: ApiClient,
  query: DeliveryQuery,
  page: { limit?: number | undefined; all?: boolean | undefined },
) {
  return paginate<Delivery>(
    async (cursor, limit) => {
      const res = await listDeliveries(client, { ...query, cursor, limit });
      return { data: res.data, has_more: res.next_cursor !== null, next_cursor: res.next_cursor };
    },
    { limit: page.limit, all: page.all, maxPageSize: MAX_DELIVERY_PAGE },
  );
}

/**
 * One delivery with its history. The API reads a delivery under its webhook: with
 * `webhook` that is one request; without, the team's webhooks are tried in turn.
 */
export async function findDelivery(
  deps: Deps,
  client: ApiClient,
  deliveryId: string,
  webhook: string | undefined,
  /** The team's webhook ids, kept between calls (one listing for many deliveries). */
  cache: { webhookIds?: string[] } = {},
): Promise<DeliveryDetail> {
  if (!isUuid(deliveryId)) {
    throw new UsageError(
      `"${deliveryId}" is not a delivery id (a UUID).`,
      'Delivery ids are in the first column of `ws deliveries list`.',
    );
  }
  if (webhook === undefined && cache.webhookIds === undefined) {
    cache.webhookIds = (await listWebhooks(client, { signal: deps.signal })).map((w) => w.id);
  }
  const ids =
    webhook !== undefined ? [(await resolveWebhook(deps, client, webhook)).id] : cache.webhookIds!;
  for (const id of ids) {
    try {
      return await getDelivery(client, id, deliveryId, { signal: deps.signal });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  throw new NotFoundError(
    webhook !== undefined
      ? `Webhook ${webhook} has no delivery with the id ${deliveryId}.`
      : `No webhook of the team has a delivery with the id ${deliveryId}.`,
    'List the deliveries with `ws deliveries list`; a deleted webhook takes its deliveries with it.',
  );
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/**
 * Every field of a delivery (as listed, or read by id: then it may still be `pending`);
 * `names` turns webhook ids into names for people.
 */
export function deliveryColumns(names?: Map<string, string>): Column<Delivery | DeliveryDetail>[] {
  return [
    { key: 'delivery_id', header: 'ID', id: true },
    { key: 'event', header: 'EVENT' },
    { key: 'type', header: 'TYPE', default: false },
    { key: 'status', header: 'STATUS' },
    { key: 'status_code', header: 'CODE', text, align: 'right' },
    { key: 'attempts', header: 'ATTEMPTS', align: 'right' },
    {
      key: 'webhook_name',
      header: 'WEBHOOK',
      get: (d) => names?.get(d.webhook_id) ?? d.webhook_id,
      default: names !== undefined,
    },
    { key: 'webhook_id', header: 'WEBHOOK ID', default: names === undefined, id: true },
    { key: 'created_at', header: 'CREATED' },
    { key: 'next_attempt_at', header: 'NEXT ATTEMPT', text, default: false },
    { key: 'dead_lettered', header: 'DEAD-LETTERED', text, default: false },
    { key: 'url', header: 'URL', default: false },
    { key: 'team_id', header: 'TEAM ID', default: false },
    { key: 'updated_at', header: 'UPDATED', text, default: false },
  ];
}

/** Webhook names by id, for a table (one request). */
export async function webhookNames(deps: Deps, client: ApiClient): Promise<Map<string, string>> {
  const all = await listWebhooks(client, { signal: deps.signal });
  return new Map(all.map((w) => [w.id, w.name]));
}
