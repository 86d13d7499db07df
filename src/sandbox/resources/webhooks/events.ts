// What the webhooks resource announces on the event spine (src/sandbox/events.ts): a
// delivery made (an event for a webhook, or a handshake), and each attempt at it once it
// ended, with the request as it was sent (method, url, headers: the signature included,
// never the secret). Emitted only when someone listens (the activity log of the console).

import { defineEvent } from '../../events.ts';
import type { StoredAttempt, StoredDelivery } from './types.ts';

/** An attempt's request as it left: what a receiver saw. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type DeliveryEvent =
  | {
      readonly type: 'delivery.created';
      /** The delivery itself (live: later attempts change it). */
      readonly delivery: Readonly<StoredDelivery>;
    }
  | {
      readonly type: 'delivery.attempted';
      readonly delivery: Readonly<StoredDelivery>;
      readonly attempt: Readonly<StoredAttempt>;
      readonly request: SentRequest;
    };

export const deliveryEvents = defineEvent<DeliveryEvent>('delivery');
