// The webhook routes. By default the sandbox serves the ten operations of the contract for
// real (handlers.ts), with a delivery engine that signs and sends events (engine.ts). With
// the `preview` option it answers as the hosted service does today instead: the route is
// not registered at its gateway, so every request under /v2/webhooks/ gets the gateway's 403
// in the older body form `{ "message": "Missing Authentication Token" }`, whatever the
// method and API key (api.md, "What the service does"; facts.md, "Error bodies"). `ws`
// explains that answer (src/api/errors.ts), and its tests run such a sandbox.

import type { ApiRoute, Handler, HttpMethod, Resource } from '../../resource.ts';
import { automationEvents } from '../automations/events.ts';
import { deliverOn } from './dispatches.ts';
import { deliveriesOf, setUpDeliveries } from './engine.ts';
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  getWebhook,
  listDeliveries,
  listTeamDeliveries,
  listWebhooks,
  pingWebhook,
  updateWebhook,
  verifyWebhook,
} from './handlers.ts';
import { webhooksSlice } from './model.ts';
import { type WebhookOptions, webhookSettings } from './settings.ts';

export const WEBHOOKS = 'webhooks';
const TEAM = '/v2/webhooks/{teamId}';
const ONE = `${TEAM}/{webhookId}`;

/** The webhooks resource as `options` configure it (defaults: the real routes). */
export function webhooksResource(options: WebhookOptions = {}): Resource {
  const settings = webhookSettings(options);
  if (settings.preview) {
    return {
      name: WEBHOOKS,
      // The state is kept (a data file's webhooks survive a run in preview mode).
      slices: [webhooksSlice],
      routes: [
        {
          kind: 'gateway',
          method: '*',
          path: '/v2/webhooks/{...rest}',
          handler: () => ({ status: 403, body: { message: 'Missing Authentication Token' } }),
        },
      ],
    };
  }
  return {
    name: WEBHOOKS,
    slices: [webhooksSlice],
    subscribe: (store) => {
      setUpDeliveries(store, settings);
      // The webhook steps of automation runs: their events go to the webhook they name.
      deliverOn(store, automationEvents, (e) => {
        const data = () => ({ ...e.data() });
        return e.webhookIds.map((webhookId) => ({
          teamId: e.teamId,
          webhookId,
          event: e.event,
          data,
          occurredAt: e.occurredAt,
        }));
      });
    },
    // Deliveries restored from a data file are sent at start; the engine stops at close.
    start: (store) => {
      const engine = deliveriesOf(store);
      engine.start();
      return () => engine.stop();
    },
    routes: [
      route('POST', TEAM, 'createWebhook', createWebhook),
      route('GET', TEAM, 'listWebhooks', listWebhooks),
      route('GET', `${TEAM}/deliveries`, 'listTeamDeliveries', listTeamDeliveries),
      route('GET', ONE, 'getWebhook', getWebhook),
      route('PATCH', ONE, 'updateWebhook', updateWebhook),
      route('DELETE', ONE, 'deleteWebhook', deleteWebhook),
      route('POST', `${ONE}/verify`, 'verifyWebhook', verifyWebhook),
      route('POST', `${ONE}/ping`, 'pingWebhook', pingWebhook),
      route('GET', `${ONE}/deliveries`, 'listDeliveries', listDeliveries),
      route('GET', `${ONE}/deliveries/{deliveryId}`, 'getDelivery', getDelivery),
    ],
  };
}

function route(method: HttpMethod, path: string, operationId: string, handler: Handler): ApiRoute {
  return { kind: 'api', method, path, operationId, handler };
}
