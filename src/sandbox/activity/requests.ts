// The request log: the latest API and control exchanges of the sandbox, with their bodies,
// as the server observed them (server.ts `observe`). Bounded twice: MAX_REQUESTS exchanges,
// the oldest dropped first, and each body cut at MAX_BODY_BYTES (marked, with its size).
// The API key is never kept: only its last 4 characters, and only the headers in
// KEPT_HEADERS (none of them carries a secret).

import { presentedKey } from '../auth.ts';
import type { ObservedExchange } from '../server.ts';

export const MAX_REQUESTS = 1_000;
export const MAX_BODY_BYTES = 16 * 1024;

/** Request headers kept with an exchange. */
const KEPT_HEADERS = [
  'content-type',
  'content-length',
  'idempotency-key',
  'if-match',
  'user-agent',
  'accept',
  'accept-encoding',
];

export interface LoggedBody {
  readonly text: string;
  /** The body's whole size, in bytes. */
  readonly bytes: number;
  readonly truncated: boolean;
}

export interface LoggedRequest {
  readonly seq: number;
  readonly request_id: string;
  /** Sandbox time when the answer left (ISO-8601). */
  readonly at: string;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly kind: 'api' | 'control';
  /** null when the connection was dropped (a fault), with the reason in `note`. */
  readonly status: number | null;
  readonly note: string | null;
  readonly duration_ms: number;
  /** True when the answer was an idempotent replay. */
  readonly replay: boolean;
  /** The last 4 characters of the API key the request carried; null when it had none. */
  readonly key_last4: string | null;
  readonly request_headers: Readonly<Record<string, string>>;
  readonly response_headers: Readonly<Record<string, string>>;
  readonly request_body: LoggedBody | null;
  readonly response_body: LoggedBody | null;
}

export class RequestLog {
  private readonly kept: LoggedRequest[] = [];
  private seq = 0;
  private readonly now: () => string;

  constructor(now: () => string) {
    this.now = now;
  }

  /** The server's observer: keep one exchange. */
  readonly observe = (ex: ObservedExchange): void => {
    const key = presentedKey(ex.requestHeaders);
    const requestHeaders: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = ex.requestHeaders[name];
      if (value !== undefined)
        requestHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(ex.responseHeaders)) {
      responseHeaders[name] = String(value);
    }
    this.kept.push({
      seq: ++this.seq,
      request_id: ex.requestId,
      at: this.now(),
      method: ex.method,
      path: ex.path,
      query: ex.query,
      kind: ex.api ? 'api' : 'control',
      status: ex.status ?? null,
      note: ex.note ?? null,
      duration_ms: Math.round(ex.durationMs * 10) / 10,
      replay: responseHeaders['idempotent-replay'] === 'true',
      key_last4: key === undefined ? null : key.slice(-4),
      request_headers: requestHeaders,
      response_headers: responseHeaders,
      request_body:
        ex.requestBody === undefined || ex.requestBody.length === 0 ? null : cut(ex.requestBody),
      response_body: ex.responseBody === undefined ? null : cut(Buffer.from(ex.responseBody)),
    });
    if (this.kept.length > MAX_REQUESTS) this.kept.splice(0, this.kept.length - MAX_REQUESTS);
  };

  get latest(): number {
    return this.seq;
  }

  /** Exchanges newest first, before sequence `before`, that `keep` accepts; at most `limit`. */
  newestFirst(
    options: { before?: number; limit: number },
    keep: (r: LoggedRequest) => boolean = () => true,
  ): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let i = this.kept.length - 1; i >= 0 && out.length < options.limit; i--) {
      const r = this.kept[i]!;
      if (options.before !== undefined && r.seq >= options.before) continue;
      if (keep(r)) out.push(r);
    }
    return out;
  }

  get(requestId: string): LoggedRequest | undefined {
    for (let i = this.kept.length - 1; i >= 0; i--) {
      if (this.kept[i]!.request_id === requestId) return this.kept[i];
    }
    return undefined;
  }
}

/** A body as text, cut at MAX_BODY_BYTES (on a character boundary). */
function cut(bytes: Buffer): LoggedBody {
  if (bytes.length <= MAX_BODY_BYTES) {
    return { text: bytes.toString('utf8'), bytes: bytes.length, truncated: false };
  }
  // Drop a character cut in two at the end (continuation bytes are 10xxxxxx).
  let end = MAX_BODY_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), bytes: bytes.length, truncated: true };
}
