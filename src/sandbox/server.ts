// The HTTP server of the sandbox and the life of one request:
//
//  API requests (/v2/...):
//    fail_rate fault → rate limit → read body (413) → route (404/405) → gateway routes answer
//    here → API key and team (401/403) → path checks (404) → parse JSON (400) →
//    Idempotency-Key length (400) → contract validation of the request (400) →
//    idempotency cache → handler → fail_after_commit fault → latency → answer →
//    contract validation of the answer (validateResponses)
//  Control requests (/__sandbox/...): no faults, no rate limit, no latency.
//  WebSocket upgrades (GET with Upgrade: websocket) go to the upgrade route of their exact
//  path (the realtime stream), which authenticates them itself; no faults or rate limit.
//
// Every answer is JSON with an x-request-id header; errors use the API's error body. A JSON
// body of 1 KiB or more is compressed (br or gzip) when the request's Accept-Encoding asks.
//
// The server guards itself against clients that hold connections: headers must arrive
// within HEADERS_TIMEOUT_MS and a whole request within REQUEST_TIMEOUT_MS (a body sent at
// one byte a second is cut off), an idle keep-alive connection is closed after
// KEEP_ALIVE_TIMEOUT_MS, and at most MAX_CONNECTIONS are open at once (more are closed as
// they arrive). A request body is nested at most MAX_JSON_DEPTH levels deep, checked before
// anything walks it.

import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import { Auth, presentedKey } from './auth.ts';
import { withCause } from './cause.ts';
import { encodeBody } from './compression.ts';
import { checkRouteAgainstContract, validateRequest, validateResponse } from './contract.ts';
import { errorBody, invalidRequest, notFound, SandboxError } from './errors.ts';
import { DEFAULT_MAX_BODY_BYTES, type Faults } from './faults.ts';
import { checkIdempotencyKey, IDEMPOTENT_METHODS, Idempotency } from './idempotency.ts';
import type {
  ApiRoute,
  PathContext,
  Reply,
  RequestContext,
  RouteDef,
  SandboxRuntime,
  UpgradeRoute,
} from './resource.ts';
import { parseTarget, type RequestTarget, Router } from './router.ts';
import type { Store } from './store.ts';

/** Deepest nesting of arrays and objects accepted in a request body. */
export const MAX_JSON_DEPTH = 100;

/** How long a client may hold a connection, and how many it may hold. */
export interface ServerLimits {
  /** The request's headers must arrive within this (ms). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (ms). */
  requestTimeoutMs: number;
  /** A kept-alive connection with no request is closed after this (ms). */
  keepAliveTimeoutMs: number;
  /** Connections open at once; more are closed as they arrive. */
  maxConnections: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
};
const MUTATING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CONTROL_PREFIX = '__sandbox';

/** A team the server serves: its id and key, and the store of its data. */
export interface ServedTeam {
  id: string;
  key: string;
  store: Store;
}

export interface ServerConfig {
  host: string;
  port: number;
  /** The sandbox's teams; the first answers requests that carry no key (health). */
  teams: readonly ServedTeam[];
  faults: Faults;
  routes: readonly RouteDef[];
  /** WebSocket endpoints, by exact path. */
  upgrades?: readonly UpgradeRoute[] | undefined;
  runtime: SandboxRuntime;
  validateResponses: boolean;
  /** Problems found by response validation are pushed here. */
  contractViolations: string[];
  log?: ((line: string) => void) | undefined;
  /** Called before every answer leaves (the data files append the changes of the request). */
  beforeAnswer?: (() => void) | undefined;
  /** Timeouts and the connection cap; DEFAULT_LIMITS where not given. */
  limits?: Partial<ServerLimits> | undefined;
  /** Told of every API and control exchange once answered (the console's request log). */
  observe?: ((exchange: ObservedExchange) => void) | undefined;
  /** Serves the paths it claims (the console, under /console) instead of the pipeline below. */
  console?: PathOwner | undefined;
}

/** Something served beside the API on the same port (the console). */
export interface PathOwner {
  owns(path: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** An API or control exchange as it happened, for whoever observes the server. */
export interface ObservedExchange {
  readonly requestId: string;
  readonly method: string;
  /** The path as sent, without the query string. */
  readonly path: string;
  readonly query: string;
  /** API (under /v2) or control (under /__sandbox). */
  readonly api: boolean;
  /** The status sent; undefined when the connection was dropped (the reason in `note`). */
  readonly status: number | undefined;
  readonly note: string | undefined;
  readonly durationMs: number;
  readonly requestHeaders: IncomingHttpHeaders;
  readonly responseHeaders: Readonly<Record<string, string | number>>;
  /** The request body as read (undefined when it was not read: refused before). */
  readonly requestBody: Buffer | undefined;
  /** The answer's body as sent. */
  readonly responseBody: string | undefined;
}

type Outcome = { kind: 'reply'; reply: Reply } | { kind: 'destroy'; reason: string };

/** What the pipeline learns about a request on its way, for the answer and the log. */
interface Exchange {
  requestId: string;
  method: string;
  path: string;
  /** True for API requests: latency applies. */
  api: boolean;
  /** Set once an API route matched: its answers are validated against this operation. */
  operationId: string | undefined;
  /** Headers every answer to this request carries (rate limit). */
  headers: Record<string, string>;
  /** The query string as sent (with its '?'), for observers. */
  query: string;
  /** The body as read, and the answer's as sent, for observers. */
  body?: Buffer;
  payload?: string | undefined;
}

/** The client went away before the request was read. */
class ClientGone extends Error {}

export class SandboxServer {
  private readonly config: ServerConfig;
  private readonly http: Server;
  private readonly router = new Router<RouteDef>();
  private readonly auth: Auth<ServedTeam>;
  /** The idempotency cache of each team (in its store), by store. */
  private readonly idempotency = new Map<Store, Idempotency>();
  private readonly limits: ServerLimits;
  private readonly closing = new AbortController();
  private closed: Promise<void> | undefined;

  constructor(config: ServerConfig) {
    this.config = config;
    this.auth = new Auth(config.teams.map((team) => ({ id: team.id, key: team.key, value: team })));
    for (const team of config.teams) this.idempotency.set(team.store, new Idempotency(team.store));
    for (const route of config.routes) this.register(route);
    this.limits = { ...DEFAULT_LIMITS, ...config.limits };
    const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = this.limits;
    const options = {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // How often the two timeouts above are checked: Node's 30 s default would let a
      // 10 s headers timeout run to 40 s.
      connectionsCheckingInterval: Math.max(50, Math.min(headersTimeoutMs, 1_000)),
    };
    this.http = createServer(options, (req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        // Last resort: handle() answers every error itself, so this is a bug of the sandbox.
        this.config.log?.(
          `sandbox: request failed: ${err instanceof Error ? err.stack : String(err)}`,
        );
        res.destroy();
      });
    });
    this.http.maxConnections = this.limits.maxConnections;
    this.http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(req, socket, head),
    );
  }

  listen(): Promise<AddressInfo> {
    const { host, port } = this.config;
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => {
        reject(
          new Error(`The sandbox could not listen on ${host}:${port}: ${err.message}`, {
            cause: err,
          }),
        );
      };
      this.http.once('error', onError);
      this.http.listen(port, host, () => {
        this.http.off('error', onError);
        resolve(this.http.address() as AddressInfo);
      });
    });
  }

  /** Stop accepting, drop open connections, and end pending latency waits. */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      this.closing.abort();
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
    return this.closed;
  }

  private register(route: RouteDef): void {
    const control = route.path.startsWith(`/${CONTROL_PREFIX}/`);
    if (route.kind === 'control' && !control) {
      throw new Error(`Control route ${route.path} must be under /${CONTROL_PREFIX}/`);
    }
    if (route.kind !== 'control' && control) {
      throw new Error(`Route ${route.path} under /${CONTROL_PREFIX}/ must be a control route`);
    }
    if (route.kind === 'api') checkRouteAgainstContract(route);
    this.router.add(route.method, route.path, route);
  }

  /**
   * A request to switch protocols: handed to the upgrade route of its path, which answers
   * it (101) or refuses it with the API's error body. Logged without its query (a
   * WebSocket's ticket travels there).
   */
  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const started = performance.now();
    const ex: Exchange = {
      requestId: newRequestId(),
      method: (req.method ?? 'GET').toUpperCase(),
      path: (req.url ?? '/').split('?')[0]!,
      query: '',
      api: false,
      operationId: undefined,
      headers: {},
    };
    socket.on('error', () => socket.destroy());
    const refuse = (err: SandboxError) => {
      const body = JSON.stringify(errorBody(ex.requestId, err.code, err.message, err.errors));
      const head = [
        `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? ''}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `x-request-id: ${ex.requestId}`,
        'Connection: close',
      ];
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
      this.logLine(ex, String(err.status), started, 'upgrade refused');
    };
    let target: RequestTarget;
    try {
      target = parseTarget(req.url ?? '/');
    } catch (err) {
      refuse(err instanceof SandboxError ? err : invalidRequest('The request path is not valid.'));
      return;
    }
    const route = this.config.upgrades?.find((u) => u.path === target.rawPath);
    if (route === undefined) {
      refuse(notFound(`No WebSocket endpoint at ${target.rawPath}.`));
      return;
    }
    if (ex.method !== 'GET') {
      refuse(new SandboxError(405, 'method_not_allowed', 'A WebSocket is opened with GET.'));
      return;
    }
    try {
      const stores = this.config.teams.map((team) => team.store);
      route.handle(req, socket, head, {
        store: route.storeOf?.(target.query, stores) ?? stores[0]!,
        requestId: ex.requestId,
        query: target.query,
        refuse,
        upgraded: () => this.logLine(ex, '101', started),
      });
    } catch (err) {
      this.config.log?.(
        `sandbox: upgrade failed: ${err instanceof Error ? err.stack : String(err)}`,
      );
      socket.destroy();
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    if (this.config.console?.owns(url)) return this.config.console.handle(req, res);
    const started = performance.now();
    const queryAt = url.indexOf('?');
    const ex: Exchange = {
      requestId: newRequestId(),
      method: (req.method ?? 'GET').toUpperCase(),
      path: url,
      api: false,
      operationId: undefined,
      headers: {},
      query: queryAt === -1 ? '' : url.slice(queryAt),
    };
    const cause = {
      kind: 'request',
      requestId: ex.requestId,
      method: ex.method,
      path: url,
    } as const;
    let outcome: Outcome;
    try {
      outcome = await withCause(cause, () => this.process(req, ex));
    } catch (err) {
      if (err instanceof ClientGone) {
        this.logLine(ex, '-', started, 'client closed the connection');
        return;
      }
      outcome = { kind: 'reply', reply: this.errorReply(err, ex) };
    }
    if (ex.api) await this.config.faults.delay(this.closing.signal);
    try {
      // The data file has every change before the answer (or the dropped connection) leaves.
      this.config.beforeAnswer?.();
    } catch (err) {
      outcome = { kind: 'reply', reply: this.errorReply(err, ex) };
    }
    if (outcome.kind === 'destroy') {
      req.socket.destroy();
      this.logLine(ex, '-', started, `connection dropped: ${outcome.reason}`);
      this.tell(req, ex, started, undefined, {}, `connection dropped: ${outcome.reason}`);
      return;
    }
    let reply = outcome.reply;
    let sent: Record<string, string | number>;
    try {
      sent = this.send(res, reply, ex, req.headers['accept-encoding']);
    } catch (err) {
      // A reply that cannot be sent (a body JSON cannot hold, a bad header value).
      reply = this.errorReply(err, ex);
      sent = this.send(res, reply, ex, req.headers['accept-encoding']);
    }
    if (ex.operationId !== undefined && this.config.validateResponses) {
      this.checkAnswer(ex, reply, sent);
    }
    this.logLine(ex, String(reply.status), started);
    this.tell(req, ex, started, reply.status, sent, undefined);
  }

  /** Tell the observer (if any) of an exchange that ended. */
  private tell(
    req: IncomingMessage,
    ex: Exchange,
    started: number,
    status: number | undefined,
    responseHeaders: Record<string, string | number>,
    note: string | undefined,
  ): void {
    this.config.observe?.({
      requestId: ex.requestId,
      method: ex.method,
      path: ex.path,
      query: ex.query,
      api: ex.api,
      status,
      note,
      durationMs: performance.now() - started,
      requestHeaders: req.headers,
      responseHeaders,
      requestBody: ex.body,
      responseBody: ex.payload,
    });
  }

  private async process(req: IncomingMessage, ex: Exchange): Promise<Outcome> {
    const { faults } = this.config;
    let target: RequestTarget | undefined;
    let targetError: unknown;
    try {
      target = parseTarget(ex.path);
      ex.path = target.rawPath;
    } catch (err) {
      targetError = err;
    }

    if (target?.segments[0] !== CONTROL_PREFIX) {
      ex.api = true;
      const failure = faults.pickFailure();
      if (failure?.kind === 'destroy') return failure;
      if (failure?.kind === 'error') throw failure.error;
      const decision = faults.takeRateLimit(
        presentedKey(req.headers) ?? `address:${req.socket.remoteAddress ?? ''}`,
      );
      Object.assign(ex.headers, decision.headers);
      if (!decision.allowed) throw rateLimited(faults.settings.rateLimit, decision.headers);
    }
    if (target === undefined) throw targetError;

    // Control routes are never subject to faults, the body limit set with them included.
    const raw = await readBody(req, ex.api ? faults.settings.maxBodyBytes : DEFAULT_MAX_BODY_BYTES);
    ex.body = raw;
    const match = this.router.match(ex.method, target.segments);
    if (match.kind === 'not_found') {
      throw notFound(`No such endpoint: ${ex.method} ${target.rawPath} does not exist.`);
    }
    if (match.kind === 'method_not_allowed') {
      const allow = match.allow.join(', ');
      throw new SandboxError(
        405,
        'method_not_allowed',
        `Method ${ex.method} is not allowed on ${target.rawPath}; allowed: ${allow}.`,
        undefined,
        { headers: { allow } },
      );
    }
    const route = match.route;
    // The store of the team the key names (the first team's until a key is checked).
    let team = this.config.teams[0]!;
    const pathContext = (): PathContext => ({
      params: match.params,
      rest: match.rest,
      store: team.store,
    });
    const context = (body: unknown, authenticated = false): RequestContext => ({
      ...pathContext(),
      authenticated,
      teamId: team.id,
      requestId: ex.requestId,
      method: ex.method,
      path: target.rawPath,
      query: target.query,
      headers: req.headers,
      body,
      sandbox: this.config.runtime,
    });

    if (route.kind === 'gateway') {
      return { kind: 'reply', reply: await route.handler(context(undefined)) };
    }
    if (route.kind === 'api') ex.operationId = route.operationId;

    let apiKey = '';
    let authenticated = false;
    if (route.kind === 'api' || route.auth !== 'none') {
      const checked = this.auth.checkKey(req.headers);
      apiKey = checked.key;
      team = checked.team;
      authenticated = true;
      const teamId = match.params['teamId'];
      if (teamId !== undefined) this.auth.checkTeam(checked.id, teamId);
    } else {
      const keyTeam = this.auth.teamOf(req.headers);
      authenticated = keyTeam !== undefined;
      if (keyTeam !== undefined) team = keyTeam;
    }
    if (route.kind === 'api') route.resolve?.(pathContext());
    const ctx = context(parseJsonBody(raw), authenticated);

    if (route.kind === 'control') {
      return { kind: 'reply', reply: await this.runHandler(route, ctx, ex) };
    }
    return this.processApi(route, ctx, ex, req.headers, target, apiKey);
  }

  private async processApi(
    route: ApiRoute,
    ctx: RequestContext,
    ex: Exchange,
    headers: IncomingHttpHeaders,
    target: RequestTarget,
    apiKey: string,
  ): Promise<Outcome> {
    const key = singleHeader(headers['idempotency-key']);
    const idempotent = IDEMPOTENT_METHODS.has(ex.method) && key !== undefined;
    if (idempotent) checkIdempotencyKey(key);

    const problems = validateRequest(route.operationId, {
      params: { ...ctx.params },
      query: { ...ctx.query },
      headers,
      body: ctx.body,
    });
    if (problems.length > 0) {
      const listed = problems
        .slice(0, 3)
        .map((p) => `${p.field}: ${p.message}`)
        .join('; ');
      const more = problems.length > 3 ? `; and ${problems.length - 3} more (see errors)` : '';
      throw invalidRequest(`The request is not valid: ${listed}${more}.`, problems);
    }

    const execute = () => this.runHandler(route, ctx, ex);
    const reply = idempotent
      ? (
          await this.idempotency.get(ctx.store)!.run(
            {
              apiKey,
              method: ex.method,
              path: target.rawPath,
              key,
              body: ctx.body,
              requestId: ex.requestId,
            },
            execute,
          )
        ).reply
      : await execute();

    if (MUTATING_METHODS.has(ex.method) && this.config.faults.shouldFailAfterCommit()) {
      return { kind: 'destroy', reason: 'fail_after_commit' };
    }
    return { kind: 'reply', reply };
  }

  /** The handler's reply; a SandboxError it throws becomes its error reply. */
  private async runHandler(route: RouteDef, ctx: RequestContext, ex: Exchange): Promise<Reply> {
    try {
      // Answered once the automation steps its writes started have run (work.ts); other
      // requests are answered meanwhile.
      return await ctx.store.work.within(() => route.handler(ctx));
    } catch (err) {
      if (err instanceof SandboxError) return this.errorReply(err, ex);
      throw err;
    }
  }

  private errorReply(err: unknown, ex: Exchange): Reply {
    if (err instanceof SandboxError) {
      return {
        status: err.status,
        body: errorBody(ex.requestId, err.code, err.message, err.errors, err.details),
        headers: err.headers,
      };
    }
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    this.config.log?.(
      `sandbox: unhandled error in ${ex.method} ${ex.path} (${ex.requestId}): ${detail}`,
    );
    return {
      status: 500,
      body: errorBody(
        ex.requestId,
        'internal_error',
        'The sandbox failed unexpectedly while handling this request; its log has the details under this request id.',
      ),
    };
  }

  /** Write the answer (compressed when large and asked for: compression.ts); returns the headers sent. */
  private send(
    res: ServerResponse,
    reply: Reply,
    ex: Exchange,
    acceptEncoding: string | undefined,
  ): Record<string, string | number> {
    const headers: Record<string, string | number> = { 'x-request-id': ex.requestId };
    for (const [name, value] of Object.entries(ex.headers)) headers[name.toLowerCase()] = value;
    for (const [name, value] of Object.entries(reply.headers ?? {})) {
      headers[name.toLowerCase()] = value;
    }
    let payload: string | Buffer | undefined;
    if (reply.body !== undefined && reply.status !== 204 && reply.status !== 304) {
      const text = JSON.stringify(reply.body);
      // The request log keeps the answer as JSON, whatever went over the wire.
      ex.payload = text;
      const encoded = encodeBody(text, acceptEncoding);
      payload = encoded.body;
      headers['content-type'] = 'application/json; charset=utf-8';
      headers.vary = 'accept-encoding';
      if (encoded.encoding) headers['content-encoding'] = encoded.encoding;
      headers['content-length'] = Buffer.byteLength(payload);
    } else if (reply.status !== 204 && reply.status !== 304) {
      headers['content-length'] = 0;
    }
    if (!res.destroyed && !res.headersSent) {
      res.writeHead(reply.status, headers);
      res.end(payload);
    }
    return headers;
  }

  private checkAnswer(ex: Exchange, reply: Reply, headers: Record<string, string | number>): void {
    const operationId = ex.operationId!;
    let problems: string[];
    try {
      problems = validateResponse(
        operationId,
        { status: reply.status, headers, body: reply.body },
        { headers: true },
      );
    } catch (err) {
      problems = [`response validation failed: ${(err as Error).message}`];
    }
    for (const problem of problems) {
      this.config.contractViolations.push(
        `${ex.method} ${ex.path} → ${reply.status} (${operationId}, ${ex.requestId}): ${problem}`,
      );
    }
  }

  private logLine(ex: Exchange, status: string, started: number, note?: string): void {
    const log = this.config.log;
    if (log === undefined) return;
    const ms = Math.round(performance.now() - started);
    log(
      `${ex.method} ${ex.path} ${status} ${ms}ms ${ex.requestId}${note === undefined ? '' : ` (${note})`}`,
    );
  }
}

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

function rateLimited(limit: number, headers: Record<string, string>): SandboxError {
  const retryAfter = Number(headers['retry-after'] ?? 1);
  return new SandboxError(
    429,
    'rate_limited',
    `Too many requests: this API key may make ${limit} request${limit === 1 ? '' : 's'} per second; retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
    undefined,
    { details: { limit, retry_after: retryAfter } },
  );
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The request body; a 413 SandboxError when it is over `limit` bytes (read to its end). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > limit;
    let ended = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => {
      ended = true;
      if (!tooLarge) {
        resolve(Buffer.concat(chunks));
        return;
      }
      reject(
        new SandboxError(
          413,
          'payload_too_large',
          `The request body is larger than ${limit} bytes${limit === DEFAULT_MAX_BODY_BYTES ? ' (10 MiB)' : ''}, the most the API accepts.`,
          undefined,
          { details: { max_body_bytes: limit } },
        ),
      );
    });
    req.on('error', () => reject(new ClientGone()));
    req.on('close', () => {
      if (!ended) reject(new ClientGone());
    });
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The parsed JSON body; undefined for an empty one; 400 invalid_request when not JSON. */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw invalidRequest('The request body is not valid JSON: it is not UTF-8 text.');
  }
  if (text.trim() === '') return undefined;
  const depth = jsonDepth(text, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) {
    throw invalidRequest(
      `The request body is nested more than ${MAX_JSON_DEPTH} levels deep, the most the sandbox accepts.`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw invalidRequest(`The request body is not valid JSON: ${(err as Error).message}.`);
  }
}

/**
 * How deeply arrays and objects nest in JSON `text` (strings skipped), counted without
 * recursion; stops counting past `max`.
 */
export function jsonDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
