// The realtime stream of record changes: a ticket over the one HTTP client (POST
// /v2/realtime/ticket), then a WebSocket to the ticket's `ws_url` with the `ws` package (no
// protocol written here). One connection at a time: `openStream` resolves when it closes,
// saying how; src/watch/follow.ts reconnects and resumes. Loaded only by `ws records watch`.
import { WebSocket } from 'ws';
import type { ApiClient } from './client.ts';
import type { AnswerOf, Schemas } from './types.ts';

export type Ticket = AnswerOf<'createRealtimeTicket', 201>;
export type StreamMessage = Schemas['RealtimeMessage'];
export type ChangeMessage = Schemas['RealtimeChange'];

/** The close code the stream uses for a reader that fell behind. */
export const CLOSE_BEHIND = 4001;

/** POST /v2/realtime/ticket → a single-use ticket and the stream's URL. */
export async function requestTicket(
  client: ApiClient,
  opts: { signal?: AbortSignal | undefined } = {},
): Promise<Ticket> {
  const res = await client.request<Ticket>({
    method: 'POST',
    path: ['v2', 'realtime', 'ticket'],
    signal: opts.signal,
  });
  return res.body;
}

/** How a connection ended. */
export type StreamEnd =
  /** The stream closed (or the connection dropped: 1006). */
  | { kind: 'closed'; code: number; reason: string; opened: boolean }
  /** The upgrade was answered with an HTTP status instead (the body as sent). */
  | { kind: 'refused'; status: number; body: string }
  /** The connection could not be made, or failed (no answer, a TLS error, …). */
  | { kind: 'failed'; error: Error; opened: boolean }
  /** The command's signal ended it. */
  | { kind: 'aborted' };

export interface StreamOptions {
  ticket: Ticket;
  /** Read on after this position. */
  after?: string | undefined;
  /** Record types to receive (every type when undefined). */
  types?: readonly string[] | undefined;
  signal: AbortSignal;
  /** Connect within this (ms). */
  connectTimeoutMs: number;
  /** No message for this long (the stream sends a heartbeat every 15 s): the connection is dead. */
  idleMs: number;
  /** Each message, in order, as it arrives (parsed). */
  onMessage(message: StreamMessage): void;
  onOpen?(): void;
}

/** The stream's URL for a ticket: its `ws_url` with token, after and types. */
export function streamUrl(opts: Pick<StreamOptions, 'ticket' | 'after' | 'types'>): URL {
  const url = new URL(opts.ticket.ws_url);
  url.searchParams.set('token', opts.ticket.ticket);
  if (opts.after !== undefined) url.searchParams.set('after', opts.after);
  if (opts.types !== undefined && opts.types.length > 0) {
    url.searchParams.set('types', opts.types.join(','));
  }
  return url;
}

/** Open the stream and read it until it ends; resolves with how it ended (never rejects). */
export function openStream(opts: StreamOptions): Promise<StreamEnd> {
  return new Promise((resolve) => {
    let ended = false;
    let opened = false;
    let idle: NodeJS.Timeout | undefined;
    const ws = new WebSocket(streamUrl(opts), {
      handshakeTimeout: opts.connectTimeoutMs,
      perMessageDeflate: false,
    });
    const end = (how: StreamEnd) => {
      if (ended) return;
      ended = true;
      clearTimeout(idle);
      opts.signal.removeEventListener('abort', abort);
      resolve(how);
    };
    const abort = () => {
      ws.terminate();
      end({ kind: 'aborted' });
    };
    const watchdog = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        ws.terminate();
        end({
          kind: 'failed',
          error: new Error(`no message for ${Math.round(opts.idleMs / 1000)} s`),
          opened,
        });
      }, opts.idleMs);
    };
    if (opts.signal.aborted) {
      abort();
      return;
    }
    opts.signal.addEventListener('abort', abort, { once: true });
    ws.on('open', () => {
      opened = true;
      watchdog();
      opts.onOpen?.();
    });
    ws.on('message', (data) => {
      watchdog();
      let message: StreamMessage;
      try {
        message = JSON.parse(data.toString()) as StreamMessage;
      } catch {
        return; // not a message of this stream: nothing to do with it
      }
      opts.onMessage(message);
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (body.length < 64 * 1024) body += chunk;
      });
      res.on('end', () => end({ kind: 'refused', status: res.statusCode ?? 0, body }));
      res.on('error', () => end({ kind: 'refused', status: res.statusCode ?? 0, body }));
    });
    ws.on('error', (error) => end({ kind: 'failed', error, opened }));
    ws.on('close', (code, reason) =>
      end({ kind: 'closed', code, reason: reason.toString(), opened }),
    );
  });
}
