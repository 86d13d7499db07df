// Following the realtime stream for as long as the command runs: a ticket, a connection,
// and when the connection ends (the service restarted, the network dropped, the reader fell
// behind) a new ticket and a new connection after a back-off, resuming after the last
// position read, so that no change is missed or shown twice. What is said to the user, and
// when to give up, is decided here; what a change looks like is the caller's (onChange).
import type { ApiClient } from '../api/client.ts';
import {
  type ChangeMessage,
  CLOSE_BEHIND,
  openStream,
  requestTicket,
  type StreamEnd,
  type StreamMessage,
} from '../api/realtime.ts';
import { ApiError, ExitCode, UsageError, WsError } from '../errors.ts';
import { sleep } from '../util/time.ts';

export interface FollowOptions {
  client: ApiClient;
  /** Record types to receive (every type when undefined). */
  types?: readonly string[] | undefined;
  /** Start after this position (else: from now). */
  from?: string | undefined;
  signal: AbortSignal;
  connectTimeoutMs: number;
  /** Each change, in order. */
  onChange(message: ChangeMessage): void | Promise<void>;
  /** What happens to the connection, for people (stderr). */
  notice(kind: 'info' | 'warn', text: string): void;
  /** For --debug traces (the ticket redacted). */
  debug(text: string): void;
  /** The back-off between reconnections (ms); tests shorten it. */
  backoffMs?: (attempt: number) => number;
}

/** The stream sends a heartbeat every 15 s; three missed ones: the connection is dead. */
const IDLE_MS = 45_000;

/** 0.5 s, 1 s, 2 s, … up to 10 s, each ±20%. */
export function defaultBackoff(attempt: number): number {
  const base = Math.min(10_000, 500 * 2 ** Math.min(attempt, 5));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** The service has no realtime route: `--poll` is the way. */
export function noRealtime(err: ApiError): ApiError {
  return new ApiError({
    status: err.status,
    code: 'operation_unavailable',
    message: `This service has no realtime stream (it answered POST /v2/realtime/ticket with ${err.status}).`,
    hint: 'Watch by polling instead: add --poll (the list endpoint, read again every --interval seconds within the rate limit).',
    requestId: err.requestId,
    method: err.method,
    url: err.url,
    exitCode: ExitCode.error,
  });
}

/** Read the stream until the signal ends it; throws what cannot be recovered from. */
export async function follow(opts: FollowOptions): Promise<never> {
  const backoff = opts.backoffMs ?? defaultBackoff;
  let position = opts.from;
  /** Connections that failed since the last one that was ready. */
  let failures = 0;
  let everReady = false;
  let lastProblem = '';
  for (;;) {
    if (failures > 0) {
      const wait = backoff(failures - 1);
      opts.notice('warn', `${lastProblem}; reconnecting in ${(wait / 1000).toFixed(1)} s…`);
      await sleep(wait, opts.signal);
    }
    let ticket: Awaited<ReturnType<typeof requestTicket>>;
    try {
      ticket = await requestTicket(opts.client, { signal: opts.signal });
    } catch (err) {
      if (opts.signal.aborted) throw err;
      if (err instanceof ApiError && (err.status === 404 || err.status === 405)) {
        // No realtime route: say so (unless it went away after working: then keep trying).
        if (!everReady) throw noRealtime(err);
      } else if (err instanceof ApiError && [400, 401, 403].includes(err.status)) {
        throw err;
      } else if (!(err instanceof WsError) || err instanceof UsageError) {
        // A bug, or a problem of the command itself: retrying would not help.
        throw err;
      }
      // Otherwise the service is unreachable or failing (network, 5xx, 429 after the
      // client's own retries): try again, as a restarted sandbox comes back.
      lastProblem = `Could not get a ticket for the stream (${(err as Error).message})`;
      failures++;
      continue;
    }
    opts.debug(`realtime: connecting to ${ticket.ws_url}${position ? ` after ${position}` : ''}`);
    let queue: Promise<void> = Promise.resolve();
    let behind = false;
    const end: StreamEnd = await openStream({
      ticket,
      after: position,
      types: opts.types,
      signal: opts.signal,
      connectTimeoutMs: opts.connectTimeoutMs,
      idleMs: IDLE_MS,
      onMessage: (message: StreamMessage) => {
        // Messages are handled one after the other, in order, even when showing one waits.
        queue = queue.then(async () => {
          switch (message.kind) {
            case 'ready':
              if (!everReady) {
                opts.notice('info', 'Watching for changes… Press Ctrl-C to stop.');
              } else {
                opts.notice('info', `Reconnected; reading on after ${message.position}.`);
              }
              everReady = true;
              failures = 0;
              position = message.position;
              break;
            case 'change':
              await opts.onChange(message);
              position = message.position;
              break;
            case 'heartbeat':
              position = message.position;
              break;
            case 'gap':
              opts.notice('warn', `some changes may be missing: ${message.message}`);
              position = message.to;
              break;
            case 'reset':
              opts.notice(
                'warn',
                'the workspace was reset (a sandbox reset): its records are gone; showing changes from now on.',
              );
              position = message.position;
              break;
            case 'behind':
              behind = true;
              position = message.position;
              break;
          }
        });
      },
    });
    await queue;
    if (end.kind === 'aborted') throw opts.signal.reason;
    if (end.kind === 'refused') {
      const detail = errorMessage(end.body);
      if (end.status === 400) {
        throw new UsageError(
          `The stream refused the request: ${detail}`,
          opts.from !== undefined
            ? '--from takes a position from an earlier watch (the "position" of its NDJSON lines).'
            : undefined,
        );
      }
      if (end.status === 404 && !everReady) {
        throw new UsageError(`The stream's URL answered 404: ${detail}`);
      }
      lastProblem = `The stream refused the connection (${end.status}: ${detail})`;
      failures++;
      continue;
    }
    if (end.kind === 'closed' && (behind || end.code === CLOSE_BEHIND)) {
      // It read slower than changes came: read on from where it is, at once.
      opts.notice('info', `Fell behind the stream; reading on from ${position}.`);
      continue;
    }
    lastProblem =
      end.kind === 'failed'
        ? `The connection to the stream failed (${end.error.message})`
        : `The stream closed (${end.code}${end.reason ? `: ${end.reason}` : ''})`;
    failures++;
  }
}

/** The message of an API error body, or the body as it is. */
function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string }; message?: string };
    return parsed.error?.message ?? parsed.message ?? body;
  } catch {
    return body.trim() || '(no body)';
  }
}
