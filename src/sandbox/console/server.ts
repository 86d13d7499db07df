// The console: a web page served on the sandbox's own port under /console, that shows what
// the sandbox did (its activity log, records and their history, automation runs, the outbox,
// webhook deliveries, the request log) and holds its controls. The page's code is built into
// dist/console at build time (scripts/build-console.mjs) and read from there; nothing is
// fetched from elsewhere.
//
//   GET  /console/                 the page (or the sign-in form without a session)
//   POST /console/login            form field `code`: a one-time code from `ws sandbox open`
//   GET  /console/assets/<file>    the page's script and style sheet
//   GET  /console/api/...          JSON for the pages (api.ts); 401 without a session
//   POST /console/api/...          state changes: the session's CSRF token in X-CSRF-Token
//   GET  /console/api/stream       server-sent events: `change` when anything changed
//
// Every request's Host header is checked first (security.ts), no CORS header is ever sent,
// and every answer forbids framing, sniffing, referrers and caching of data.

import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBodyUpTo } from '../../util/body.ts';
import { errorBody, SandboxError } from '../errors.ts';
import { Router, splitPath } from '../router.ts';
import { newRequestId, type PathOwner } from '../server.ts';
import * as api from './api.ts';
import { ConsoleAuth, hostChecker } from './security.ts';

const PREFIX = '/console';
/** How often open event streams are told of changes (at most). */
const STREAM_TICK_MS = 500;
/** A comment on idle streams, so proxies and browsers keep them open. */
const HEARTBEAT_MS = 15_000;
/** Largest body a console request may carry. */
const MAX_BODY_BYTES = 64 * 1024;

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Where the built page lives: dist/console of the package, found from this module's file
 * (dist/chunks/… when built, src/sandbox/console/… in ws's own tests).
 */
function assetsDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    for (const candidate of [join(dir, 'console'), join(dir, 'dist', 'console')]) {
      try {
        readFileSync(join(candidate, 'app.js'), { flag: 'r' });
        return candidate;
      } catch {
        // not here
      }
    }
    dir = dirname(dir);
  }
  return undefined;
}

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${PREFIX}/assets/app.css">
${head}</head>
<body>
${body}
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function loginPage(problem?: string): string {
  const error =
    problem === undefined
      ? ''
      : `<p class="login-error" role="alert" id="login-error">${escapeHtml(problem)}</p>`;
  return page(
    'Sign in · ws sandbox console',
    `<main class="login">
<h1>ws sandbox console</h1>
<p>Run <code>ws sandbox open</code> to sign in: it opens this console signed in. Where it cannot open a browser (or with <code>--no-browser</code>), it prints a one-time code to enter here.</p>
${error}
<form method="post" action="${PREFIX}/login">
<label for="code">One-time code</label>
<input id="code" name="code" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" required${problem === undefined ? '' : ' aria-describedby="login-error"'}>
<button type="submit">Sign in</button>
</form>
</main>`,
  );
}

const APP_PAGE = page(
  'ws sandbox console',
  '<div id="app"><p class="loading">Loading the console…</p></div>',
  `<script type="module" src="${PREFIX}/assets/app.js"></script>\n`,
);

type Run = (
  c: api.ConsoleContext,
  params: Readonly<Record<string, string>>,
  q: api.Query,
  body: unknown,
) => unknown;

/** The console's data, below /__sandbox/console/api/ (templates as src/sandbox/router.ts reads them). */
const ROUTES: [method: 'GET' | 'POST', template: string, run: Run][] = [
  ['GET', '/activity', (c, _p, q) => api.activity(c, q)],
  ['GET', '/overview', (c) => api.overview(c)],
  ['GET', '/records', (c) => api.recordTypes(c)],
  ['GET', '/records/{type}/schema', (c, p) => api.schema(c, p['type']!)],
  ['GET', '/records/{type}', (c, p, q) => api.records(c, p['type']!, q)],
  ['GET', '/records/{type}/{id}', (c, p) => api.record(c, p['type']!, p['id']!)],
  ['GET', '/automations', (c) => api.automations(c)],
  ['GET', '/runs', (c, _p, q) => api.runs(c, q)],
  ['GET', '/runs/{id}', (c, p) => api.run(c, p['id']!)],
  ['GET', '/outbox', (c, _p, q) => api.outbox(c, q)],
  ['GET', '/webhooks', (c) => api.webhooks(c)],
  ['GET', '/deliveries', (c, _p, q) => api.deliveries(c, q)],
  ['GET', '/deliveries/{id}', (c, p) => api.delivery(c, p['id']!)],
  ['POST', '/deliveries/{id}/resend', (c, p) => api.resend(c, p['id']!)],
  ['GET', '/requests', (c, _p, q) => api.requests(c, q)],
  ['GET', '/requests/{id}', (c, p) => api.request(c, p['id']!)],
  ['GET', '/controls', (c) => api.controls(c)],
  ['POST', '/faults', (c, _p, _q, b) => api.setFaults(c, b)],
  ['POST', '/clock/advance', (c, _p, _q, b) => api.advance(c, b)],
  ['POST', '/reset', (c, _p, _q, b) => api.reset(c, b)],
];

const router = new Router<Run>();
for (const [method, template, run] of ROUTES) router.add(method, template, run);

export class ConsoleServer implements PathOwner {
  readonly auth: ConsoleAuth;
  private readonly ctx: api.ConsoleContext;
  private readonly assets: string | undefined;
  private hostOk: (host: string | undefined) => boolean = () => false;
  private readonly streams = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | undefined;
  /** What the streams were last told (see tick). */
  private sentVersion = '';
  private lastBeat = 0;

  constructor(ctx: api.ConsoleContext) {
    this.ctx = ctx;
    this.auth = new ConsoleAuth();
    this.assets = assetsDir();
  }

  /** The sandbox listens: requests must name `host`:`port` (the address asked for). */
  listening(host: string, port: number): void {
    this.hostOk = hostChecker(host, port);
    this.auth.bindPort(port);
  }

  owns(path: string): boolean {
    return path === PREFIX || path.startsWith(`${PREFIX}/`) || path.startsWith(`${PREFIX}?`);
  }

  /** Stop the streams (the sandbox is closing). */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const res of this.streams) res.end();
    this.streams.clear();
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (err) {
      const e =
        err instanceof SandboxError
          ? err
          : new SandboxError(500, 'internal_error', 'The console failed unexpectedly.');
      if (!(err instanceof SandboxError)) {
        process.emitWarning(
          `The sandbox console failed: ${err instanceof Error ? err.stack : String(err)}`,
        );
      }
      this.json(res, e.status, errorBody(newRequestId(), e.code, e.message, e.errors, e.details));
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    const path = url.pathname;
    if (!this.hostOk(req.headers.host)) {
      // A page of another site reached through DNS rebinding names its own host.
      this.text(
        res,
        421,
        `The console answers requests for the address the sandbox listens on, not for "${req.headers.host ?? ''}".`,
      );
      req.resume();
      return;
    }
    if (path.startsWith(`${PREFIX}/assets/`) && (method === 'GET' || method === 'HEAD')) {
      this.asset(res, path.slice(`${PREFIX}/assets/`.length));
      return;
    }
    if (path === `${PREFIX}/login`) {
      if (method === 'POST') return this.login(req, res);
      this.html(res, 200, loginPage());
      return;
    }
    const session = this.auth.sessionOf(req.headers.cookie);
    if (path === PREFIX || path === `${PREFIX}/`) {
      if (method !== 'GET' && method !== 'HEAD') return this.notAllowed(res, 'GET');
      if (this.assets === undefined) {
        this.text(
          res,
          503,
          "The console's files are missing from this installation of ws (dist/console): build it with `npm run build`.",
        );
        return;
      }
      this.html(res, 200, session === undefined ? loginPage() : APP_PAGE);
      return;
    }
    if (!path.startsWith(`${PREFIX}/api/`)) {
      throw new SandboxError(404, 'not_found', `No console page at ${path}.`);
    }
    if (session === undefined) {
      throw new SandboxError(
        401,
        'unauthorized',
        'Sign in to the console first: run `ws sandbox open`.',
      );
    }
    const name = path.slice(`${PREFIX}/api/`.length);
    if (method === 'POST') {
      // Only the console's own pages can read the CSRF token (no CORS): a form or script of
      // another site cannot send it.
      const token = req.headers['x-csrf-token'];
      if (!this.auth.csrfHolds(session, Array.isArray(token) ? token[0] : token)) {
        req.resume();
        throw new SandboxError(
          403,
          'forbidden',
          'This change needs the console session CSRF token (X-CSRF-Token): reload the console.',
        );
      }
    }
    if (name === 'session' && method === 'GET') {
      this.json(res, 200, api.sessionBody(this.ctx, session.csrf));
      return;
    }
    if (name === 'stream' && method === 'GET') return this.stream(req, res);
    if (name === 'logout' && method === 'POST') {
      this.auth.signOut(session);
      req.resume();
      this.json(res, 200, { signed_out: true }, { 'set-cookie': this.auth.expiredCookie() });
      return;
    }
    if (name === 'export' && method === 'GET') {
      const day = this.ctx.store.clock.iso().slice(0, 10);
      this.json(res, 200, api.exportState(this.ctx), {
        'content-disposition': `attachment; filename="ws-sandbox-${day}.json"`,
      });
      return;
    }
    const q: Record<string, string> = Object.fromEntries(url.searchParams);
    const found = router.match(method, splitPath(`/${name}`));
    if (found.kind === 'found') {
      const body = method === 'POST' ? await readJson(req) : undefined;
      this.json(res, 200, found.route(this.ctx, found.params, q, body));
      return;
    }
    req.resume();
    throw new SandboxError(404, 'not_found', `No console data at ${method} ${path}.`);
  }

  private async login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = req.headers.origin;
    const raw = (await readBody(req)).toString('utf8');
    // Same origin (the form above), or "null" (the sign-in file `ws sandbox open` opens).
    if (origin !== undefined && origin !== 'null' && !this.hostOk(hostOf(origin))) {
      this.html(res, 403, loginPage('Sign-in refused: the form was sent from another site.'));
      return;
    }
    const code = new URLSearchParams(raw).get('code') ?? '';
    const session = this.auth.signIn(code);
    if (session === undefined) {
      this.html(
        res,
        401,
        loginPage(
          'That code is not valid: it may have expired (codes last 2 minutes) or been used. Run `ws sandbox open` for a new one.',
        ),
      );
      return;
    }
    // A page that moves on to the console (a navigation of this origin, so the new
    // SameSite=Strict cookie goes with it even when the form came from a file).
    this.html(
      res,
      200,
      page(
        'Signed in · ws sandbox console',
        `<main class="login"><h1>Signed in</h1><p><a href="${PREFIX}/">Open the console</a></p></main>`,
        `<meta http-equiv="refresh" content="0;url=${PREFIX}/">\n`,
      ),
      { 'set-cookie': this.auth.cookie(session) },
    );
  }

  private stream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`retry: 2000\nevent: change\ndata: ${JSON.stringify(api.overview(this.ctx))}\n\n`);
    this.streams.add(res);
    req.on('close', () => {
      this.streams.delete(res);
      if (this.streams.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    });
    if (this.timer === undefined) {
      this.lastBeat = Date.now();
      this.timer = setInterval(() => this.tick(), STREAM_TICK_MS);
      this.timer.unref();
    }
  }

  /**
   * Tell the open streams that something changed since the last tick (or that all is quiet).
   * What changes shows in the activity log (writes, runs, deliveries, the clock, resets), in
   * the request log (every API and control request), or in the work under way (email steps
   * rendering, deliveries in flight, import jobs): counters read here, so the sandbox's
   * writes pay nothing for the streams.
   */
  private tick(): void {
    const { activity, requests, store } = this.ctx;
    const version = `${activity.latest}/${requests.latest}/${store.clock.offsetMs}/${store.work.busy}`;
    if (version !== this.sentVersion) {
      this.sentVersion = version;
      this.lastBeat = Date.now();
      const data = `event: change\ndata: ${JSON.stringify(api.overview(this.ctx))}\n\n`;
      for (const res of this.streams) res.write(data);
    } else if (Date.now() - this.lastBeat >= HEARTBEAT_MS) {
      this.lastBeat = Date.now();
      for (const res of this.streams) res.write(': still here\n\n');
    }
  }

  private asset(res: ServerResponse, name: string): void {
    const ext = name.slice(name.lastIndexOf('.'));
    if (this.assets === undefined || !/^[\w.-]+$/.test(name) || ASSET_TYPES[ext] === undefined) {
      this.text(res, 404, 'No such file.');
      return;
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(this.assets, name));
    } catch {
      this.text(res, 404, 'No such file.');
      return;
    }
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': ASSET_TYPES[ext]!,
      'content-length': bytes.length,
      'cache-control': 'no-cache',
    });
    res.end(bytes);
  }

  private notAllowed(res: ServerResponse, allow: string): void {
    res.writeHead(405, { ...SECURITY_HEADERS, allow, 'content-type': 'text/plain; charset=utf-8' });
    res.end('Method not allowed.\n');
  }

  private html(
    res: ServerResponse,
    status: number,
    text: string,
    extra: Record<string, string> = {},
  ): void {
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      ...extra,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  private text(res: ServerResponse, status: number, text: string): void {
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
    });
    res.end(`${text}\n`);
  }

  private json(
    res: ServerResponse,
    status: number,
    body: unknown,
    extra: Record<string, string> = {},
  ): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      ...extra,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  }
}

/** The host[:port] of an Origin header. */
function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const body = await readBodyUpTo(req, MAX_BODY_BYTES);
  if (body === undefined) {
    throw new SandboxError(413, 'payload_too_large', 'The request body is too large.');
  }
  return body;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new SandboxError(400, 'invalid_request', 'The request body is not valid JSON.');
  }
}
