// The ten webhook routes: request in, reply out. The contract has checked the bodies and
// query parameters at the door (name 1 to 255 characters, url a URI, description at most
// 1000, enabled a boolean, closed bodies; status, type, before, after, limit); these
// handlers add the rules it cannot say (a blank name, an http(s) url whose host may receive
// deliveries), keep the state through the model, and hand the sending to the engine.

import { type FieldError, invalidRequest, notFound } from '../../errors.ts';
import { queryValue, teamOf } from '../../request.ts';
import type { Reply, RequestContext } from '../../resource.ts';
import { bareHost, checkHost, parseReceiverUrl } from './addresses.ts';
import { cutText, REQUEST_BODY_LIMIT } from './bodies.ts';
import { deliveriesOf } from './engine.ts';
import { DEFAULT_PAGE_SIZE, pageOf } from './listing.ts';
import { type WebhookInput, webhooksOf, webhookView } from './model.ts';
import type {
  DeliveryDetailView,
  DeliveryView,
  StoredDelivery,
  StoredWebhook,
  WebhookView,
} from './types.ts';

export async function createWebhook(ctx: RequestContext): Promise<Reply> {
  const input = ctx.body as WebhookInput;
  await checkInput(ctx, input);
  const webhook = webhooksOf(ctx.store).create(teamOf(ctx), input);
  const handshake = deliveriesOf(ctx.store).handshake(webhook);
  return {
    status: 201,
    body: {
      ...webhookView(webhook),
      secret: webhook.secret,
      verification: verification(handshake),
    },
  };
}

export function listWebhooks(ctx: RequestContext): Reply {
  return { status: 200, body: { data: webhooksOf(ctx.store).list(teamOf(ctx)).map(webhookView) } };
}

export function getWebhook(ctx: RequestContext): Reply {
  return { status: 200, body: webhookView(requireWebhook(ctx)) };
}

export async function updateWebhook(ctx: RequestContext): Promise<Reply> {
  const webhook = requireWebhook(ctx);
  const patch = ctx.body as Partial<WebhookInput>;
  await checkInput(ctx, patch, webhook);
  const { urlChanged } = webhooksOf(ctx.store).update(webhook, patch);
  const view: WebhookView & { verification?: unknown } = webhookView(webhook);
  if (urlChanged) view.verification = verification(deliveriesOf(ctx.store).handshake(webhook));
  return { status: 200, body: view };
}

export function deleteWebhook(ctx: RequestContext): Reply {
  const webhook = requireWebhook(ctx);
  deliveriesOf(ctx.store).forget(webhooksOf(ctx.store).delete(webhook));
  return { status: 204 };
}

export function verifyWebhook(ctx: RequestContext): Reply {
  const webhook = requireWebhook(ctx);
  const handshake = deliveriesOf(ctx.store).handshake(webhook);
  return { status: 200, body: { ...webhookView(webhook), verification: verification(handshake) } };
}

export function pingWebhook(ctx: RequestContext): Reply {
  const webhook = requireWebhook(ctx);
  const event = 'webhook.test';
  const result = deliveriesOf(ctx.store).dispatch({
    teamId: webhook.team_id,
    webhookId: webhook.id,
    event,
    data: {},
  });
  return {
    status: 200,
    body: {
      dispatched: result.dispatched,
      event,
      webhook_id: webhook.id,
      delivery_id: result.dispatched ? result.deliveryId : null,
    },
  };
}

export function listTeamDeliveries(ctx: RequestContext): Reply {
  return listing(ctx, null);
}

export function listDeliveries(ctx: RequestContext): Reply {
  return listing(ctx, requireWebhook(ctx).id);
}

export function getDelivery(ctx: RequestContext): Reply {
  const webhook = requireWebhook(ctx);
  const id = ctx.params['deliveryId']!;
  const delivery = webhooksOf(ctx.store).delivery(id);
  if (delivery === undefined || delivery.webhook_id !== webhook.id) {
    throw notFound(`Webhook ${webhook.id} has no delivery with the id ${id}.`);
  }
  return { status: 200, body: deliveryDetail(delivery) };
}

// --------------------------------------------------------------------- reading

function requireWebhook(ctx: RequestContext): StoredWebhook {
  const id = ctx.params['webhookId']!;
  const webhook = webhooksOf(ctx.store).get(teamOf(ctx), id);
  if (webhook === undefined) throw notFound(`No webhook has the id ${id}.`);
  return webhook;
}

/**
 * The rules the contract cannot say, for a create (every field) or a patch (the fields
 * given): a name that is not blank, and an http(s) url whose host may receive deliveries.
 * A host that does not resolve is accepted (its handshake fails and says why).
 */
async function checkInput(
  ctx: RequestContext,
  input: Partial<WebhookInput>,
  current?: StoredWebhook,
): Promise<void> {
  const errors: FieldError[] = [];
  if (input.name !== undefined && input.name.trim() === '') {
    errors.push({ field: 'body.name', code: 'blank', message: 'name must not be blank.' });
  }
  if (input.url !== undefined && input.url !== current?.url) {
    const url = parseReceiverUrl(input.url);
    if (url instanceof URL) {
      const { strictAddresses, resolve } = deliveriesOf(ctx.store).settings;
      const check = await checkHost(bareHost(url), strictAddresses, resolve);
      if (check.kind === 'refused') {
        errors.push({
          field: 'body.url',
          code: 'forbidden_address',
          message: `url is refused: ${check.reason}. Webhooks deliver only to public addresses.`,
        });
      }
    } else {
      errors.push({ field: 'body.url', ...url });
    }
  }
  if (errors.length > 0) throw invalidRequest(errors.map((e) => e.message).join(' '), errors);
}

function listing(ctx: RequestContext, webhookId: string | null): Reply {
  const limit = queryValue(ctx, 'limit');
  const page = pageOf(
    webhooksOf(ctx.store).newestFirst(),
    {
      webhookId,
      teamId: teamOf(ctx),
      status: queryValue(ctx, 'status'),
      type: queryValue(ctx, 'type'),
      before: queryValue(ctx, 'before'),
      after: queryValue(ctx, 'after'),
    },
    queryValue(ctx, 'cursor'),
    limit === undefined ? DEFAULT_PAGE_SIZE : Number(limit),
  );
  return {
    status: 200,
    body: { data: page.data.map(deliveryView), next_cursor: page.next_cursor },
  };
}

// ---------------------------------------------------------------------- views

function verification(handshake: StoredDelivery): { status: 'pending'; delivery_id: string } {
  return { status: 'pending', delivery_id: handshake.delivery_id };
}

function deliveryView(delivery: StoredDelivery): DeliveryView {
  return {
    delivery_id: delivery.delivery_id,
    webhook_id: delivery.webhook_id,
    team_id: delivery.team_id,
    type: delivery.type,
    status: delivery.status,
    status_code: delivery.status_code,
    attempts: delivery.attempts,
    event: delivery.event,
    url: delivery.url,
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
    next_attempt_at: delivery.next_attempt_at,
    dead_lettered: delivery.dead_lettered,
    ...(delivery.not_sent === undefined ? {} : { not_sent: delivery.not_sent }),
  };
}

function deliveryDetail(delivery: StoredDelivery): DeliveryDetailView {
  const request =
    delivery.body === null
      ? { text: null, truncated: false }
      : cutText(delivery.body, REQUEST_BODY_LIMIT);
  return {
    ...deliveryView(delivery),
    attempt_history: delivery.history.map((attempt) => ({
      ...attempt,
      request_body: request.text,
      request_body_truncated: delivery.body_truncated || request.truncated,
    })),
  };
}
