// The realtime ticket: `POST /v2/realtime/ticket` (the API key checked at the door) answers a
// single-use ticket, how long it waits to be used, and the stream's URL, built from the
// request's Host header (the address the client reached the sandbox at).

import { invalidRequest } from '../../errors.ts';
import type { Reply, RequestContext } from '../../resource.ts';
import { streamOf } from './stream.ts';
import { ticketsOf } from './tickets.ts';

export const STREAM_PATH = '/v2/realtime/stream';

/** POST /v2/realtime/ticket → 201 { ticket, expires_in, ws_url } */
export function createRealtimeTicket(ctx: RequestContext): Reply {
  const host = ctx.headers.host;
  if (
    host === undefined ||
    !/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
  ) {
    const message = 'The request has no usable Host header: the stream URL is made from it.';
    throw invalidRequest(message, [{ field: 'header.host', code: 'format', message }]);
  }
  const ttl = streamOf(ctx.store).settings.ticketTtlSeconds;
  return {
    status: 201,
    body: {
      ticket: ticketsOf(ctx.store).issue(ttl),
      expires_in: ttl,
      ws_url: `ws://${host}${STREAM_PATH}`,
    },
  };
}
