// Webhook routes, as the hosted service answers them today: the route is not registered at
// its gateway, so every request under /v2/webhooks/ gets the gateway's 403 in the older
// body form `{ "message": "Missing Authentication Token" }`, whatever the method and API
// key (api.md, "What the service does"; facts.md, "Error bodies").
//
// A later issue will emulate the webhook resource itself (endpoints, handshake, signed
// deliveries) behind a flag; this gateway answer stays the default.

import type { Resource } from '../../resource.ts';

export const webhooksResource: Resource = {
  name: 'webhooks',
  routes: [
    {
      kind: 'gateway',
      method: '*',
      path: '/v2/webhooks/{...rest}',
      handler: () => ({ status: 403, body: { message: 'Missing Authentication Token' } }),
    },
  ],
};
