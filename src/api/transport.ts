// How the HTTP client sends one request and reads its whole answer (node-http.ts:
// node:http and node:https with keep-alive agents). The client (client.ts) owns everything
// else: retries, the rate limit, idempotency keys, the proxy, traces and errors. A transport
// rejects with an error whose `code` names what failed (ECONNREFUSED, ECONNRESET,
// ENOTFOUND, CONNECT_TIMEOUT, ANSWER_TIMEOUT, BAD_ANSWER, PROXY_REFUSED, a BAD_HEADER that
// could not be sent, ...), or with the signal's reason when the request was cancelled.
//
// An answer is read whole into memory, so its size is capped: past MAX_ANSWER_BYTES (declared
// by Content-Length, or counted as it arrives and as it is decoded) the transport stops
// reading, drops the connection and rejects with code ANSWER_TOO_LARGE. A misbehaving server
// streaming gigabytes (or a small gzip bomb) costs ws at most that much memory.

export interface Exchange {
  /** `http://host:port`. */
  origin: string;
  /** The path and query, as sent. */
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  signal?: AbortSignal | undefined;
  /** The proxy to go through (proxy.ts), or none. */
  proxy?: URL | undefined;
}

export interface Answer {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

export interface Transport {
  send(exchange: Exchange): Promise<Answer>;
  /** Close idle connections; the transport may not be used after. */
  close(): Promise<void>;
}

/** The largest answer read: 64 MiB (an API page is a few MB at most). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface TransportOptions {
  /** Longest wait for a connection. */
  connectTimeoutMs: number;
  /** Longest wait for the answer to start, and between two parts of it. */
  answerTimeoutMs: number;
  /** The largest answer read (default MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number | undefined;
}

/** The rejection of an answer over the cap; carries the answer's request id when it had one. */
export function answerTooLarge(
  max: number,
  headers: Record<string, string | string[] | undefined>,
): Error {
  const id = headers['x-request-id'];
  return Object.assign(transportError('ANSWER_TOO_LARGE', `The answer is over ${max} bytes.`), {
    maxBytes: max,
    requestId: Array.isArray(id) ? id[0] : id,
  });
}

/** True when a Content-Length header says the answer is over `max` bytes. */
export function declaredOver(
  headers: Record<string, string | string[] | undefined>,
  max: number,
): boolean {
  const declared = Number(headers['content-length']);
  return Number.isFinite(declared) && declared > max;
}

/** An error of a transport that names what failed (see describeNetworkError in client.ts). */
export function transportError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export function flattenHeaders(
  h: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
