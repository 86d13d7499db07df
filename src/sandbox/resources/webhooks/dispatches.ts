// Where another resource's events become webhook deliveries. A resource that sends events
// to webhooks (the automations' webhook actions) emits a topic it defines in its own
// events.ts; it cannot import this resource (webhooks sit in a higher layer), so the
// webhooks resource subscribes to that topic here, in its routes.ts `subscribe`:
//
//   deliverOn(store, someTopic, (event) => ({ teamId, webhookId, event: name, data }))
//
// and every event the function turns into a DispatchRequest is delivered by the engine:
// only to an enabled, verified webhook of that team, signed, retried, listed. The listener
// runs synchronously in the emitting write and only queues the request: the deliveries are
// made a few milliseconds at a time before the write answers, and sent after it.

import type { EventTopic } from '../../events.ts';
import type { Store } from '../../store.ts';
import { type DispatchRequest, deliveriesOf } from './engine.ts';

/**
 * Deliver the events of `topic` that `toDispatch` turns into dispatch requests (one, or
 * several: an event for several webhooks; undefined: not one for a webhook). Returns the
 * unsubscribe.
 */
export function deliverOn<T>(
  store: Store,
  topic: EventTopic<T>,
  toDispatch: (event: T) => DispatchRequest | readonly DispatchRequest[] | undefined,
): () => void {
  return store.events.on(topic, (event) => {
    const requests = toDispatch(event);
    if (requests === undefined) return;
    deliveriesOf(store).enqueue(Array.isArray(requests) ? requests : [requests as DispatchRequest]);
  });
}
