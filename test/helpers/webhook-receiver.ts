// Webhook receivers for tests: HTTP servers on 127.0.0.1 that record every request and
// answer as a test scripts them. The default answers the handshake and acknowledges
// deliveries; `checking` is a careful receiver that verifies signatures with an HMAC
// computed here, independently of ws's own signature module.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Answer {
  status: number;
  body?: string | Buffer;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface TestReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** The POST requests (deliveries) only. */
  posts(): ReceivedRequest[];
  answer: (req: ReceivedRequest) => Answer;
  close(): Promise<void>;
}

/** The hex HMAC-SHA256 of `<t>.<body>`, computed here and not by ws. */
export function hmac(secret: string, t: number | string, body: Buffer | string): string {
  return createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), Buffer.isBuffer(body) ? body : Buffer.from(body)]))
    .digest('hex');
}

/** Whether an X-Service-Signature is right for the body and secret, within `toleranceS`. */
export function signatureOk(
  header: string | undefined,
  body: Buffer,
  secret: string,
  toleranceS = 300,
  nowS = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const v1s = parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
  if (!t || !/^\d+$/.test(t) || Math.abs(nowS - Number(t)) > toleranceS) return false;
  const expected = Buffer.from(hmac(secret, t, body));
  return v1s.some((v) => v.length === expected.length && timingSafeEqual(Buffer.from(v), expected));
}

/** The handshake's answer: 200 with the challenge. */
export function echoChallenge(req: ReceivedRequest): Answer | undefined {
  const challenge = req.url.searchParams.get('service_hook_challenge');
  return req.method === 'GET' && challenge !== null ? { status: 200, body: challenge } : undefined;
}

export async function startReceiver(
  answer: (req: ReceivedRequest) => Answer = (req) =>
    echoChallenge(req) ?? { status: 200, body: 'ok' },
): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const receiver: TestReceiver = {
    url: '',
    requests,
    posts: () => requests.filter((r) => r.method === 'POST'),
    answer,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: ReceivedRequest = {
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://127.0.0.1'),
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(r);
      const a = receiver.answer(r);
      const send = () => {
        res.writeHead(a.status, { 'content-type': 'text/plain' });
        res.end(a.body ?? '');
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}

/**
 * A receiver that does everything right: the handshake, signatures checked over the raw
 * bytes within 300 s (401 otherwise), and a delivery id seen before acknowledged again.
 */
export function checking(secret: () => string): (req: ReceivedRequest) => Answer {
  return (req) => {
    const hs = echoChallenge(req);
    if (hs) return hs;
    const sig = req.headers['x-service-signature'];
    if (!signatureOk(Array.isArray(sig) ? sig[0] : sig, req.body, secret())) {
      return { status: 401, body: 'bad signature' };
    }
    return { status: 200, body: 'ok' };
  };
}

/** A port on 127.0.0.1 that was free a moment ago (for `--port`, a tunnel, a handler). */
export async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
