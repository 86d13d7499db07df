// The one HTTP client: base URL, x-api-key, JSON, compression, timeouts, idempotency keys,
// retries with backoff, the rate limit, the proxy, debug traces with secrets redacted, and
// one ApiError for every non-2xx answer. How the bytes travel is a transport's business
// (transport.ts: node:http and node:https with keep-alive agents).
import { isAbortError, NetworkError, UsageError, WsError } from '../errors.ts';
import type { IOStreams } from '../io/streams.ts';
import { trimTrailingSlashes } from '../util/text.ts';
import { monotonicMs, sleep } from '../util/time.ts';
import { reason, toApiError } from './errors.ts';
import { type ProxyEnv, proxyFor, shownProxy } from './proxy.ts';
import type { RateLimiter } from './ratelimit.ts';

export { RateLimiter } from './ratelimit.ts';

import { redactBody, redactHeaders } from './redact.ts';
import type { Transport } from './transport.ts';

export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number)[];

export interface RequestInit {
  method: string;
  /**
   * Segments (each is percent-encoded, so a value with `/`, `..`, `?`, `#` or `%` stays one
   * segment), or a path string used as given (only `{teamId}` is filled in).
   */
  path: readonly string[] | string;
  query?: Record<string, QueryValue> | undefined;
  /** JSON body. */
  body?: unknown;
  /** A body sent as is (with `contentType`). */
  rawBody?: string | Buffer | undefined;
  contentType?: string | undefined;
  headers?: Record<string, string> | undefined;
  /** For POST, PUT and PATCH: the key of this logical operation (default: a new one). */
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Return non-2xx answers (after retries) instead of throwing; see `errorOf`. */
  acceptErrors?: boolean;
  /** Accept a 2xx body that is not JSON (`ws api` prints it as is); otherwise it is an error. */
  anyBody?: boolean;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined for an empty or non-JSON body. */
  body: T;
  text: string;
  requestId: string | undefined;
  attempts: number;
  url: string;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  teamId: string;
  io: IOStreams;
  limiter: RateLimiter;
  /** Read timeout in ms (headers and body), default 30 s. */
  timeoutMs?: number;
  /** Connect timeout in ms, default 10 s (never more than timeoutMs). */
  connectTimeoutMs?: number;
  /** Extra attempts after the first, default 3. */
  retries?: number;
  userAgent?: string;
  signal?: AbortSignal;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Backoff base and cap in ms (full jitter), default 250 and 8000. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (proxy.ts); default: no proxy. */
  env?: ProxyEnv;
  /** A transport of the caller's (tests); default node:http (node-http.ts). */
  transport?: Transport;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH']);
const SAFE_TO_RETRY = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** Longest Retry-After we wait for before giving up and reporting the 429. */
const MAX_RETRY_AFTER_MS = 120_000;

/** Percent-encode one path segment; a segment of dots is encoded too, so no one collapses it. */
export function encodeSegment(segment: string): string {
  if (segment === '') throw new UsageError('An empty value cannot be used in a request path.');
  if (/^\.+$/.test(segment)) return '%2E'.repeat(segment.length);
  return encodeURIComponent(segment).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Delay before retry number `attempt` (1-based): full jitter over an exponential cap. */
export function backoffDelay(
  attempt: number,
  base: number,
  cap: number,
  random: () => number,
): number {
  return Math.floor(random() * Math.min(cap, base * 2 ** (attempt - 1)));
}

/** Retry-After in ms (seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | undefined, nowMs = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** OpenSSL's and Node's codes for a server certificate that is not trusted. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Codes of a network error before any connection to the service was made. */
const NO_CONNECTION = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECT_TIMEOUT',
]);

/**
 * Whether a request's network error came before it could reach the service (refused, an
 * unknown host, an untrusted certificate): nothing it carried was taken.
 */
export function neverConnected(err: NetworkError): boolean {
  const e = err.cause as { code?: string; cause?: { code?: string } } | undefined;
  const code = e?.code ?? e?.cause?.code;
  return code !== undefined && (NO_CONNECTION.has(code) || CERTIFICATE_CODES.has(code));
}

function describeNetworkError(err: unknown): { text: string; retryable: boolean; hint?: string } {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (code !== undefined && CERTIFICATE_CODES.has(code))
    return {
      text: `its certificate is not trusted: ${e.message ?? code}`,
      retryable: false,
      hint: "Check the base URL. A service whose certificate comes from a private authority needs NODE_EXTRA_CA_CERTS set to that authority's certificate file.",
    };
  switch (code) {
    case 'ECONNREFUSED':
      return { text: 'connection refused', retryable: true };
    case 'ECONNRESET':
    case 'EPIPE':
      return { text: 'the connection was closed before an answer came', retryable: true };
    case 'CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return { text: 'timed out connecting', retryable: true };
    case 'ANSWER_TIMEOUT':
      return { text: 'timed out waiting for the answer', retryable: true };
    case 'ENOTFOUND':
      return { text: 'host not found', retryable: false };
    case 'BAD_ANSWER':
      return { text: e.message ?? 'an answer that is not HTTP', retryable: false };
    case 'PROXY_REFUSED':
      return {
        text: e.message ?? 'the proxy refused the tunnel',
        retryable: false,
        hint: 'Check HTTPS_PROXY or HTTP_PROXY (and the credentials in it), or list the host in NO_PROXY.',
      };
    case 'EAI_AGAIN':
      return { text: 'name lookup failed', retryable: true };
    default:
      return { text: e.message ?? String(err), retryable: true };
  }
}

/** An answer over the transport's cap (transport.ts MAX_ANSWER_BYTES). */
function answerTooLargeError(
  err: Error & { maxBytes: number; requestId?: string },
  req: { method: string; apiPath: string },
): WsError {
  const mib = Math.round(err.maxBytes / (1024 * 1024));
  const id = err.requestId ? ` (request id ${err.requestId})` : '';
  return new WsError(
    `The answer to ${req.method} ${req.apiPath} is larger than ${mib} MiB, the most ws reads${id}; it was not read.`,
    {
      code: 'answer_too_large',
      cause: err,
      hint: 'Ask for less at once (a smaller --limit, fewer properties with --select); if the service should not send this much, quote the request id.',
    },
  );
}

/** A 2xx answer whose body is not JSON: name it with the request id and its first bytes. */
function notJsonError(ans: {
  status: number;
  method: string;
  apiPath: string;
  requestId: string | undefined;
  text: string;
}): WsError {
  const head = ans.text.slice(0, 80);
  const shown = JSON.stringify(head) + (ans.text.length > head.length ? '…' : '');
  return new WsError(
    `The service answered ${ans.status} to ${ans.method} ${ans.apiPath} with a body that is not JSON (request id ${ans.requestId ?? 'none'}); it begins ${shown}.`,
    {
      code: 'bad_answer',
      hint: 'Check that the base URL points at the API (not a web page or a proxy). If it does, quote the request id.',
    },
  );
}

export class ApiClient {
  readonly baseUrl: string;
  readonly teamId: string;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly opts: ClientOptions;
  private readonly proxy: URL | undefined;
  private transport: Promise<Transport> | undefined;
  private sent = 0;

  constructor(opts: ClientOptions) {
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new UsageError(
        `The base URL "${opts.baseUrl}" is not a valid URL.`,
        'Use a URL like https://api.example.com.',
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`The base URL "${opts.baseUrl}" must start with http:// or https://.`);
    }
    this.opts = opts;
    this.baseUrl = trimTrailingSlashes(opts.baseUrl);
    this.origin = url.origin;
    this.basePath = trimTrailingSlashes(url.pathname);
    this.teamId = opts.teamId;
    this.proxy = proxyFor(url, opts.env ?? {});
  }

  /** The transport, made on first use. */
  private connection(): Promise<Transport> {
    if (this.opts.transport !== undefined) return Promise.resolve(this.opts.transport);
    this.transport ??= import('./node-http.ts').then((m) => {
      const answerTimeoutMs = this.opts.timeoutMs ?? 30_000;
      return new m.HttpTransport({
        answerTimeoutMs,
        connectTimeoutMs: Math.min(this.opts.connectTimeoutMs ?? 10_000, answerTimeoutMs),
      });
    });
    return this.transport;
  }

  /** Requests sent so far, each attempt counted (retries are requests the service counts too). */
  get requestsSent(): number {
    return this.sent;
  }

  /** The request path (below the base URL) for segments or a path string. */
  pathFor(path: readonly string[] | string): string {
    if (typeof path === 'string') {
      const p = path.replaceAll('{teamId}', encodeSegment(this.teamId));
      return p.startsWith('/') ? p : `/${p}`;
    }
    return `/${path.map(encodeSegment).join('/')}`;
  }

  async request<T = unknown>(init: RequestInit): Promise<ApiResponse<T>> {
    const method = init.method.toUpperCase();
    const apiPath = this.pathFor(init.path);
    const path = `${this.basePath}${apiPath}${buildQuery(init.query)}`;
    const url = `${this.origin}${path}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': 'gzip, br',
      'user-agent': this.opts.userAgent ?? 'ws',
      'x-api-key': this.opts.apiKey,
    };
    let body: string | Buffer | undefined;
    if (init.rawBody !== undefined) {
      body = init.rawBody;
      headers['content-type'] = init.contentType ?? 'application/json';
    } else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
    if (MUTATING.has(method) && headers['idempotency-key'] === undefined) {
      headers['idempotency-key'] = init.idempotencyKey ?? globalThis.crypto.randomUUID();
    }
    const retryable = SAFE_TO_RETRY.has(method) || headers['idempotency-key'] !== undefined;
    const maxAttempts = 1 + (retryable ? Math.max(0, this.opts.retries ?? 3) : 0);
    const signal = init.signal ?? this.opts.signal;
    const wait = this.opts.sleep ?? sleep;
    const random = this.opts.random ?? Math.random;
    const base = this.opts.backoffBaseMs ?? 250;
    const cap = this.opts.backoffCapMs ?? 8_000;
    const io = this.opts.io;
    const secrets = [this.opts.apiKey];
    const transport = await this.connection();

    for (let attempt = 1; ; attempt++) {
      const release = await this.opts.limiter.take(signal);
      if (io.debugEnabled) {
        const via = this.proxy ? ` via proxy ${shownProxy(this.proxy)}` : '';
        io.debug(`→ ${method} ${url} (attempt ${attempt}/${maxAttempts})${via}`);
        for (const [k, v] of Object.entries(redactHeaders(headers))) io.debug(`  ${k}: ${v}`);
        if (body !== undefined) io.debug(`  body: ${redactBody(body.toString(), secrets)}`);
      }
      const started = monotonicMs();
      this.sent++;
      let status: number;
      let resHeaders: Record<string, string>;
      let text: string;
      try {
        ({
          status,
          headers: resHeaders,
          text,
        } = await transport.send({
          origin: this.origin,
          path,
          method,
          headers,
          body,
          signal,
          proxy: this.proxy,
        }));
      } catch (err) {
        release();
        if (isAbortError(err) || signal?.aborted) throw signal?.reason ?? err;
        if ((err as { code?: string }).code === 'BAD_HEADER') {
          throw new UsageError(
            `${(err as Error).message} Nothing was sent (${method} ${apiPath}).`,
            'Remove it from the value: a key copied with its line break, or a -H value of `ws api`.',
          );
        }
        if ((err as { code?: string }).code === 'ANSWER_TOO_LARGE') {
          throw answerTooLargeError(err as Error & { maxBytes: number; requestId?: string }, {
            method,
            apiPath,
          });
        }
        const why = describeNetworkError(err);
        io.debug(`← network error after ${Math.round(monotonicMs() - started)}ms: ${why.text}`);
        if (why.retryable && attempt < maxAttempts) {
          const delay = backoffDelay(attempt, base, cap, random);
          io.debug(`  retrying in ${delay}ms`);
          await wait(delay, signal);
          continue;
        }
        const tries = attempt > 1 ? ` after ${attempt} attempts` : '';
        const via = this.proxy ? ` through the proxy ${shownProxy(this.proxy)}` : '';
        throw new NetworkError(
          `Could not reach ${this.origin}${via} (${why.text})${tries}: ${method} ${apiPath}.`,
          {
            hint:
              why.hint ??
              (this.proxy
                ? 'Check that the proxy is running and reaches the service, or list the host in NO_PROXY.'
                : /refused/.test(why.text)
                  ? 'Is the service running at that address? For a local sandbox: `ws sandbox status`.'
                  : 'Check the network and the base URL, or raise --timeout.'),
            cause: err,
          },
        );
      }
      release();
      const ms = Math.round(monotonicMs() - started);
      const requestId = resHeaders['x-request-id'];
      if (io.debugEnabled) {
        const rl = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']
          .filter((h) => resHeaders[h] !== undefined)
          .map((h) => `${h.slice('x-ratelimit-'.length)}=${resHeaders[h]}`);
        io.debug(
          `← ${status} ${reason(status)} in ${ms}ms` +
            (requestId ? ` request-id=${requestId}` : '') +
            (rl.length ? ` rate-limit ${rl.join(' ')}` : '') +
            (resHeaders['idempotent-replay'] === 'true' ? ' (idempotent replay)' : ''),
        );
        if (text) io.debug(`  body: ${redactBody(text, secrets)}`);
      }
      if (RETRY_STATUSES.has(status) && attempt < maxAttempts) {
        const after = parseRetryAfter(resHeaders['retry-after']);
        if (after === undefined || after <= MAX_RETRY_AFTER_MS) {
          const delay = after ?? backoffDelay(attempt, base, cap, random);
          io.debug(`  retrying in ${delay}ms${after !== undefined ? ' (Retry-After)' : ''}`);
          await wait(delay, signal);
          continue;
        }
      }
      if ((status < 200 || status >= 300) && !init.acceptErrors) {
        throw toApiError({
          status,
          headers: resHeaders,
          text,
          method,
          url,
          path: apiPath,
          teamId: this.teamId,
        });
      }
      let parsed: unknown;
      if (text !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
      }
      if (parsed === undefined && text.trim() !== '' && !init.anyBody && status < 300) {
        throw notJsonError({ status, method, apiPath, requestId, text });
      }
      return {
        status,
        headers: resHeaders,
        body: parsed as T,
        text,
        requestId,
        attempts: attempt,
        url,
      };
    }
  }

  /** The ApiError for a non-2xx answer returned under `acceptErrors`. */
  errorOf(res: ApiResponse, method: string, path: readonly string[] | string) {
    return toApiError({
      status: res.status,
      headers: res.headers,
      text: res.text,
      method,
      url: res.url,
      path: this.pathFor(path),
      teamId: this.teamId,
    });
  }

  /** Close the connections; the client may not be used after. */
  async close(): Promise<void> {
    const made = this.transport ?? this.opts.transport;
    this.transport = undefined;
    await (await made)?.close();
  }
}
