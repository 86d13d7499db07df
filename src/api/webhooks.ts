// Typed calls for the webhook endpoints and their delivery logs (`/v2/webhooks/{teamId}/…`).
// While the hosted gateway keeps these routes a preview it answers 403 "Missing
// Authentication Token"; the client turns that into `webhooks_unavailable` (api/errors.ts)
// for every call here.
import type { ApiClient } from './client.ts';
import { type CallOptions, resource } from './resource.ts';
import type { AnswerOf, QueryOf, Schemas } from './types.ts';

export type Webhook = Schemas['Webhook'];
export type WebhookCreated = Schemas['WebhookCreated'];
export type WebhookWithVerification = Schemas['WebhookWithVerification'];
export type WebhookCreate = Schemas['WebhookCreate'];
export type WebhookPatch = Schemas['WebhookPatch'];
export type PingResult = Schemas['PingResult'];
export type Delivery = Schemas['Delivery'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type DeliveryDetail = Schemas['DeliveryDetail'];
export type DeliveryList = Schemas['DeliveryList'];
export type DeliveryStatus = Schemas['DeliveryStatus'];

/** The largest page of the delivery listings. */
export const MAX_DELIVERY_PAGE = 100;

function base(client: ApiClient): string[] {
  return ['v2', 'webhooks', client.teamId];
}

/** GET /v2/webhooks/{teamId} → every webhook of the team (the listing has no pages). */
export async function listWebhooks(client: ApiClient, opts: CallOptions = {}): Promise<Webhook[]> {
  const res = await client.request<AnswerOf<'listWebhooks', 200>>({
    method: 'GET',
    path: base(client),
    signal: opts.signal,
  });
  return res.body?.data ?? [];
}

const webhooks = resource(base);

/** One webhook's delivery log: …/{webhookId}/deliveries. */
function deliveriesPath(client: ApiClient, webhookId: string): string[] {
  return [...base(client), webhookId, 'deliveries'];
}

/** GET …/{webhookId} → the webhook. */
export const getWebhook = webhooks.get<Webhook>;

/** POST /v2/webhooks/{teamId} → the webhook with its secret (answered this once) and verification. */
export const createWebhook = webhooks.create<WebhookCreate, WebhookCreated>;

/** PATCH …/{webhookId}: a url change also answers `verification` (the handshake runs again). */
export const updateWebhook = webhooks.update<WebhookPatch, WebhookWithVerification>;

/** DELETE …/{webhookId}: the webhook and its delivery log. */
export const deleteWebhook = webhooks.remove;

/** POST …/{webhookId}/verify: the handshake runs again. */
export const verifyWebhook = webhooks.action<AnswerOf<'verifyWebhook', 200>>('verify');

/** POST …/{webhookId}/ping: a `webhook.test` event, sent only to an enabled, verified webhook. */
export const pingWebhook = webhooks.action<PingResult>('ping');

export interface DeliveryQuery extends CallOptions {
  /** One webhook's log; the team's without. */
  webhookId?: string | undefined;
  status?: DeliveryStatus | undefined;
  type?: 'delivery' | 'verification' | 'all' | undefined;
  /** Created strictly before / after (ISO-8601). */
  before?: string | undefined;
  after?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

/** One page of deliveries, newest first: a webhook's (GET …/{webhookId}/deliveries) or the team's. */
export async function listDeliveries(client: ApiClient, q: DeliveryQuery): Promise<DeliveryList> {
  const res = await client.request<DeliveryList>({
    method: 'GET',
    path: q.webhookId ? deliveriesPath(client, q.webhookId) : [...base(client), 'deliveries'],
    query: {
      status: q.status,
      type: q.type,
      before: q.before,
      after: q.after,
      cursor: q.cursor,
      limit: q.limit,
    } satisfies QueryOf<'listDeliveries'>,
    signal: q.signal,
  });
  return { data: res.body?.data ?? [], next_cursor: res.body?.next_cursor ?? null };
}

/** GET …/{webhookId}/deliveries/{deliveryId} → the delivery with its attempt history. */
export const getDelivery = resource(deliveriesPath).get<DeliveryDetail>;
