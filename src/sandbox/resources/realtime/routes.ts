// The realtime resource: the ticket route, the WebSocket stream fed by the change feed, and
// a control endpoint that shows each reader (for tests of a slow reader's bounds).

import { changesSlice, subscribeChanges } from '../../changes.ts';
import type { Resource } from '../../resource.ts';
import { createRealtimeTicket, STREAM_PATH } from './handlers.ts';
import { type RealtimeOptions, realtimeSettings } from './settings.ts';
import { setUpStream, streamOf } from './stream.ts';
import { ticketsOf } from './tickets.ts';

export const REALTIME = 'realtime';

export function realtimeResource(options: RealtimeOptions = {}): Resource {
  const settings = realtimeSettings(options);
  return {
    name: REALTIME,
    slices: [changesSlice],
    subscribe: (store) => {
      subscribeChanges(store);
      setUpStream(store, settings);
      // A reset voids the tickets too.
      store.onChange((change) => {
        if (change.kind === 'replaced') ticketsOf(store).clear();
      });
    },
    start: (store) => {
      const stream = streamOf(store);
      stream.start();
      return () => stream.stop();
    },
    routes: [
      {
        kind: 'api',
        method: 'POST',
        path: '/v2/realtime/ticket',
        operationId: 'createRealtimeTicket',
        handler: createRealtimeTicket,
      },
      {
        kind: 'control',
        method: 'GET',
        path: '/__sandbox/realtime',
        handler: (ctx) => ({ status: 200, body: streamOf(ctx.store).status() }),
      },
    ],
    upgrades: [
      {
        path: STREAM_PATH,
        // A ticket was given out by one team's sandbox: the stream is that team's.
        storeOf: (query, stores) => {
          const token = query['token'];
          return typeof token === 'string'
            ? stores.find((store) => ticketsOf(store).has(token))
            : undefined;
        },
        handle: (req, socket, head, ctx) => streamOf(ctx.store).upgrade(req, socket, head, ctx),
      },
    ],
  };
}
