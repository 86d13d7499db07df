// One HTTP exchange with a webhook's receiver: a delivery's signed POST or a handshake's GET.
// Before connecting, the url's host is resolved and every address checked (addresses.ts);
// the connection then goes to the checked address itself (a `lookup` that answers it), so
// no second DNS look-up can send it elsewhere. Redirects are not followed (node:http never
// does): a 3xx is an answer like any other, and a failure for the engine. The exchange,
// from connecting to the last byte of the answer, is cut at the timeout.
//
// Connections are kept alive per receiver (origin and checked address), so a burst of
// deliveries to one receiver reuses a few sockets instead of opening one per event.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import { bareHost, checkHost } from './addresses.ts';
import { cutUtf8, RESPONSE_BODY_LIMIT } from './bodies.ts';
import type { WebhookSettings } from './settings.ts';

export interface Outgoing {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** What came back: an answer (statusCode and body), or why none did (error). */
export interface Answer {
  statusCode: number | null;
  /** Why no answer came (refused address, transport error, timeout); null when one did. */
  error: string | null;
  body: string | null;
  bodyTruncated: boolean;
  durationMs: number;
  /** The answer's Retry-After header, as sent; null when it had none. */
  retryAfter: string | null;
}

class TimedOut extends Error {}

export class Sender {
  private readonly settings: WebhookSettings;
  private readonly agents = new Map<string, HttpAgent>();

  constructor(settings: WebhookSettings) {
    this.settings = settings;
  }

  /** Send `out` to its receiver; never throws (every failure is an Answer with an error). */
  async send(out: Outgoing, signal: AbortSignal): Promise<Answer> {
    const started = performance.now();
    const host = bareHost(out.url);
    const check = await checkHost(host, this.settings.strictAddresses, this.settings.resolve);
    if (check.kind !== 'allowed') {
      return failure(check.kind === 'refused' ? `refused: ${check.reason}` : check.reason, started);
    }
    const address = check.addresses[0]!;
    try {
      return await this.exchange(out, host, address, signal, started);
    } catch (err) {
      return failure(reasonOf(err, this.settings.timeoutMs, address, out.url), started);
    }
  }

  /** Close every kept-alive connection. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private exchange(
    out: Outgoing,
    host: string,
    address: string,
    signal: AbortSignal,
    started: number,
  ): Promise<Answer> {
    const https = out.url.protocol === 'https:';
    const family = isIPv6(address) ? 6 : 4;
    // The checked address, whatever name the connection asks for.
    const lookup: LookupFunction = (_name, options, callback) => {
      if (options.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    };
    const headers = { ...out.headers };
    if (out.body !== undefined) headers['content-length'] = String(Buffer.byteLength(out.body));
    const options = {
      method: out.method,
      hostname: host,
      port: out.url.port === '' ? (https ? 443 : 80) : Number(out.url.port),
      path: `${out.url.pathname}${out.url.search}`,
      headers,
      agent: this.agentFor(out.url, address),
      lookup,
      signal,
      ...(out.url.username === ''
        ? {}
        : {
            auth: `${decodeURIComponent(out.url.username)}:${decodeURIComponent(out.url.password)}`,
          }),
    };
    return new Promise<Answer>((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(options, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          // Keep one byte past the limit, to know the body was cut.
          if (kept > RESPONSE_BODY_LIMIT) return;
          chunks.push(chunk);
          kept += chunk.length;
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
        res.on('end', () => {
          clearTimeout(timer);
          const body = cutUtf8(Buffer.concat(chunks), RESPONSE_BODY_LIMIT);
          resolve({
            statusCode: res.statusCode ?? null,
            error: null,
            body: body.text,
            bodyTruncated: body.truncated,
            durationMs: Math.round(performance.now() - started),
            retryAfter: res.headers['retry-after'] ?? null,
          });
        });
      });
      const timer = setTimeout(() => req.destroy(new TimedOut()), this.settings.timeoutMs);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(out.body);
    });
  }

  private agentFor(url: URL, address: string): HttpAgent {
    const key = `${url.protocol}//${url.host} ${address}`;
    let agent = this.agents.get(key);
    if (agent === undefined) {
      agent =
        url.protocol === 'https:'
          ? new HttpsAgent({ keepAlive: true })
          : new HttpAgent({ keepAlive: true });
      this.agents.set(key, agent);
    }
    return agent;
  }
}

function failure(error: string, started: number): Answer {
  return {
    statusCode: null,
    error,
    body: null,
    bodyTruncated: false,
    durationMs: Math.round(performance.now() - started),
    retryAfter: null,
  };
}

/** Why an exchange failed, in words a developer wiring up a receiver can act on. */
function reasonOf(err: unknown, timeoutMs: number, address: string, url: URL): string {
  if (err instanceof TimedOut) return `timed out after ${timeoutMs} ms without a whole answer`;
  const e = err as NodeJS.ErrnoException;
  const where = `${isIPv6(address) ? `[${address}]` : address}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  switch (e.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where}`;
    case 'ECONNRESET':
      return `the connection to ${where} was closed before a whole answer (ECONNRESET)`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} cannot be reached (${e.code})`;
    case 'ABORT_ERR':
      return 'the sandbox stopped before an answer came';
    default:
      return e.code === undefined ? e.message : `${e.message} (${e.code})`;
  }
}
