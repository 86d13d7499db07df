// The body of a delivery as the service sends it: `{ id, webhook_id, event, occurred_at,
// data }`, compact JSON. `ws webhooks sign` and `ws webhooks doctor` make test deliveries
// with it.
import { randomUUID } from 'node:crypto';

export interface DeliveryBody {
  id: string;
  webhook_id: string;
  event: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

export function testDelivery(fields: Partial<DeliveryBody> & { now: Date }): {
  body: DeliveryBody;
  text: string;
} {
  const body: DeliveryBody = {
    id: fields.id ?? randomUUID(),
    webhook_id: fields.webhook_id ?? randomUUID(),
    event: fields.event ?? 'webhook.test',
    occurred_at: fields.occurred_at ?? fields.now.toISOString(),
    data: fields.data ?? {},
  };
  return { body, text: JSON.stringify(body) };
}

/** The delivery headers (other than the signature) for a body, from its fields. */
export function deliveryHeaders(
  body: Pick<DeliveryBody, 'id' | 'webhook_id' | 'event'>,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-service-webhook-id': body.webhook_id,
    'x-service-delivery-id': body.id,
    'x-service-event': body.event,
  };
}
