// Helpers of the webhook tests: a real receiver (an HTTP server on 127.0.0.1 that records
// what it is sent and answers as the test says), the webhook routes of a sandbox, and a
// poll that waits for the sandbox's background work to show.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { RunningSandbox } from '../../src/sandbox/sandbox.ts';
import { type Answer, type CallOptions, call } from './helpers.ts';

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * What the receiver answers: a status with a body, no answer at all (`hang`), or the
 * connection closed without an answer (`reset`).
 */
export type Reaction =
  | { status: number; body?: string; headers?: Record<string, string> }
  | 'hang'
  | 'reset';

export type Responder = (req: Received, index: number) => Reaction;

export interface Receiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  received: Received[];
  /** The deliveries (POSTs) received. */
  posts(): Received[];
  /** The handshakes (GETs) received. */
  handshakes(): Received[];
  /** Change how it answers from now on. */
  respond: Responder;
}

/** The handshake answered with its challenge, any delivery with 200. */
export const acceptAll: Responder = (req) =>
  req.method === 'GET'
    ? { status: 200, body: req.query.get('service_hook_challenge') ?? '' }
    : { status: 200, body: 'ok' };

/** Handshakes answered with the challenge; deliveries as `delivery` says. */
export function handshakeThen(delivery: Responder): Responder {
  let n = 0;
  return (req, index) => (req.method === 'GET' ? acceptAll(req, index) : delivery(req, n++));
}

/** A receiver on 127.0.0.1 (closed after the test), answering with `respond`. */
export async function startReceiver(
  t: TestContext,
  respond: Responder = acceptAll,
  host = '127.0.0.1',
): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    origin: '',
    port: 0,
    received: [],
    posts: () => receiver.received.filter((r) => r.method === 'POST'),
    handshakes: () => receiver.received.filter((r) => r.method === 'GET'),
    respond,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const got: Received = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const index = receiver.received.push(got) - 1;
      const reaction = receiver.respond(got, index);
      if (reaction === 'hang') {
        hanging.add(res);
        return;
      }
      if (reaction === 'reset') {
        res.socket?.destroy();
        return;
      }
      res.writeHead(reaction.status, reaction.headers);
      res.end(reaction.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.origin = `http://${host}:${receiver.port}`;
  t.after(
    () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return receiver;
}

/**
 * A resolver that knows no name (as the sandbox's machine, which has no network): tests that
 * use names give it to the sandbox, so no test ever asks a real DNS server.
 */
export async function noNames(host: string): Promise<string[]> {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
}

/** A resolver that answers from `names` (and knows no other name). */
export function resolverOf(names: Record<string, readonly string[]>, calls: string[] = []) {
  return async (host: string): Promise<readonly string[]> => {
    calls.push(host);
    const found = names[host];
    return found ?? noNames(host);
  };
}

/** Poll `probe` until it returns something other than undefined (10 s at most). */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) assert.fail(`gave up waiting for ${what}`);
    await delay(10);
  }
}

/** A call to the webhook routes of the sandbox's team: `hooks(sandbox, 'GET', '/{id}')`. */
export function hooks(
  sandbox: RunningSandbox,
  method: string,
  rest = '',
  options: CallOptions = {},
): Promise<Answer> {
  return call(sandbox, method, `/v2/webhooks/${sandbox.teamId}${rest}`, options);
}

// biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
export type Json = any;

/** Create a webhook (201 expected). */
export async function createHook(
  sandbox: RunningSandbox,
  url: string,
  fields: Record<string, unknown> = {},
): Promise<Json> {
  const answer = await hooks(sandbox, 'POST', '', { body: { name: 'Receiver', url, ...fields } });
  assert.equal(answer.status, 201, answer.text);
  return answer.body;
}

/** The delivery's detail, once `ready` holds for it. */
export function deliveryWhen(
  sandbox: RunningSandbox,
  webhookId: string,
  deliveryId: string,
  ready: (delivery: Json) => boolean,
  timeoutMs?: number,
): Promise<Json> {
  return until(
    `delivery ${deliveryId} to be ready`,
    async () => {
      const answer = await hooks(sandbox, 'GET', `/${webhookId}/deliveries/${deliveryId}`);
      assert.equal(answer.status, 200, answer.text);
      return ready(answer.body) ? answer.body : undefined;
    },
    timeoutMs,
  );
}

/**
 * The handshake that a create, update or verify answer (`{ id, verification }`) started,
 * once `ready` holds for it (by default: once it ended).
 */
export function handshakeOf(
  sandbox: RunningSandbox,
  started: Json,
  ready: (delivery: Json) => boolean = (d) => d.status !== 'pending',
): Promise<Json> {
  return deliveryWhen(sandbox, started.id, started.verification.delivery_id, ready);
}

/** Ping a webhook (dispatched); its delivery once `ready` holds (by default: once it ended). */
export async function pinged(
  sandbox: RunningSandbox,
  webhookId: string,
  ready: (delivery: Json) => boolean = (d) => d.status !== 'pending',
): Promise<Json> {
  const ping = await hooks(sandbox, 'POST', `/${webhookId}/ping`);
  assert.equal(ping.body.dispatched, true, ping.text);
  return deliveryWhen(sandbox, webhookId, ping.body.delivery_id, ready);
}

/** Create a webhook to `url` and wait until its handshake passed; returns it with its secret. */
export async function verifiedHook(
  sandbox: RunningSandbox,
  url: string,
  fields: Record<string, unknown> = {},
): Promise<Json> {
  const created = await createHook(sandbox, url, fields);
  await handshakeOf(sandbox, created);
  const read = await hooks(sandbox, 'GET', `/${created.id}`);
  assert.equal(read.body.verified, true, 'the handshake passed');
  return { ...read.body, secret: created.secret };
}

/** The v1 signature of `body` at `t`, computed here, apart from the sandbox's code. */
export function expectedSignature(secret: string, t: string, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
}
