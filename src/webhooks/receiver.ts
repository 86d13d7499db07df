// The local receiver of `ws webhooks listen`: an HTTP server on 127.0.0.1 that answers the
// handshake (200 with the challenge), checks every delivery's signature against the
// webhook's secret (±300 s, any v1, constant-time), and forwards a delivery's raw bytes and
// headers to the developer's handler, answering the sender with that handler's status and
// body, so retries and the delivery log reflect what the handler did.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBodyUpTo } from '../util/body.ts';
import { type ExchangeResult, exchange } from './exchange.ts';
import {
  DELIVERY_ID_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  type SignatureVerdict,
  verifySignature,
  WEBHOOK_ID_HEADER,
} from './signature.ts';

/** The largest delivery body accepted (the API's request limit). */
const MAX_BODY = 10 * 1024 * 1024;

/** Headers that describe one connection, not the delivery: not forwarded. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'expect',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

export interface ReceivedHandshake {
  kind: 'handshake';
  at: Date;
  /** Whether the token matched the webhook's (undefined while it is not known). */
  tokenMatched: boolean | undefined;
  answered: number;
}

export interface ReceivedDelivery {
  kind: 'delivery';
  at: Date;
  event: string;
  deliveryId: string;
  webhookId: string;
  signature: SignatureVerdict;
  body: Buffer;
  /** Left out by --events: acknowledged, not forwarded. */
  skipped: boolean;
  forward: (ExchangeResult & { url: string }) | undefined;
  /** The status the sender was answered with. */
  answered: number;
}

export type Received = ReceivedHandshake | ReceivedDelivery;

export interface ReceiverOptions {
  port: number;
  /** The webhook's secret; undefined until it is known (deliveries wait: 503). */
  secret: () => string | undefined;
  /** The webhook's verification token, when known. */
  token: () => string | undefined;
  /** Event names to keep (a trailing * matches a prefix); none: every event. */
  events: readonly string[];
  forwardTo: URL | undefined;
  forwardTimeoutMs: number;
  /** Now, in ms since the epoch (when a request arrived). */
  now: () => number;
  /**
   * Now as the sender's clock has it, when it differs from this machine's (a sandbox whose
   * clock was moved forward): the signature's tolerance is counted from it. Default: now.
   */
  senderNow?: () => number;
  /**
   * Called when a delivery's timestamp is outside the tolerance, before it is refused: the
   * sender's clock is read again (it may have moved since), and the timestamp checked once
   * more against it.
   */
  resync?: () => Promise<void>;
  onReceived: (r: Received) => void;
}

export interface Receiver {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Whether `event` is one --events asks for. */
export function eventWanted(event: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((p) => (p.endsWith('*') ? event.startsWith(p.slice(0, -1)) : p === event));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

function answer(res: ServerResponse, status: number, body: string | Buffer, type = 'text/plain') {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const challenge = url.searchParams.get('service_hook_challenge');
    if (req.method === 'GET' && challenge !== null) {
      const token = opts.token();
      const given = url.searchParams.get('service_hook_token');
      const tokenMatched = token === undefined ? undefined : given === token;
      const status = tokenMatched === false ? 403 : 200;
      if (status === 200) answer(res, 200, challenge);
      else answer(res, 403, 'service_hook_token is not the one of this webhook');
      opts.onReceived({
        kind: 'handshake',
        at: new Date(opts.now()),
        tokenMatched,
        answered: status,
      });
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'GET, POST');
      answer(res, 405, 'ws webhooks listen takes POST deliveries and the GET handshake');
      return;
    }
    const body = await readBodyUpTo(req, MAX_BODY);
    if (body === undefined) {
      answer(res, 413, `the body is larger than ${MAX_BODY} bytes`);
      return;
    }
    const secret = opts.secret();
    if (secret === undefined) {
      res.setHeader('retry-after', '1');
      answer(res, 503, 'not ready yet');
      return;
    }
    let event = header(req, EVENT_HEADER) ?? '';
    let deliveryId = header(req, DELIVERY_ID_HEADER) ?? '';
    let webhookId = header(req, WEBHOOK_ID_HEADER) ?? '';
    try {
      const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      event ||= typeof parsed.event === 'string' ? parsed.event : '';
      deliveryId ||= typeof parsed.id === 'string' ? parsed.id : '';
      webhookId ||= typeof parsed.webhook_id === 'string' ? parsed.webhook_id : '';
    } catch {
      // not JSON: the headers say what it is
    }
    // Node joins repeated headers into one value: the verdict would depend on their order.
    const signatures = req.headersDistinct[SIGNATURE_HEADER] ?? [];
    const verify = (): SignatureVerdict =>
      signatures.length > 1
        ? {
            valid: false,
            reason: 'malformed_header',
            detail: `the request has ${signatures.length} X-Service-Signature headers; a delivery carries one (a header may list several v1 values)`,
          }
        : verifySignature({
            secret,
            body,
            header: signatures[0],
            nowS: Math.floor((opts.senderNow ?? opts.now)() / 1000),
          });
    let signature = verify();
    if (
      !signature.valid &&
      opts.resync !== undefined &&
      (signature.reason === 'timestamp_in_future' || signature.reason === 'timestamp_too_old')
    ) {
      await opts.resync();
      signature = verify();
    }
    const base = {
      kind: 'delivery' as const,
      at: new Date(opts.now()),
      event,
      deliveryId,
      webhookId,
      signature,
      body,
    };
    if (!signature.valid) {
      answer(res, 400, `invalid signature: ${signature.detail}`);
      opts.onReceived({ ...base, skipped: false, forward: undefined, answered: 400 });
      return;
    }
    if (!eventWanted(event, opts.events)) {
      answer(res, 200, 'ignored: not one of --events');
      opts.onReceived({ ...base, skipped: true, forward: undefined, answered: 200 });
      return;
    }
    if (opts.forwardTo === undefined) {
      answer(res, 200, 'ok');
      opts.onReceived({ ...base, skipped: false, forward: undefined, answered: 200 });
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    const forwarded = await exchange({
      method: 'POST',
      url: opts.forwardTo,
      headers,
      body,
      timeoutMs: opts.forwardTimeoutMs,
    });
    const forward = { ...forwarded, url: opts.forwardTo.href };
    let status: number;
    if (forwarded.status === null) {
      status = 502;
      answer(res, 502, `forwarding to ${opts.forwardTo.href} failed: ${forwarded.error}`);
    } else {
      status = forwarded.status;
      const type = forwarded.headers['content-type'];
      answer(res, status, forwarded.body, typeof type === 'string' ? type : 'text/plain');
    }
    opts.onReceived({ ...base, skipped: false, forward, answered: status });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        answer(res, 500, `ws webhooks listen failed: ${(err as Error).message}`);
      else res.destroy();
    });
  });
  // Connections kept alive by the sender must not hold the process open after close().
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
