// How the client's requests travel: node:http or node:https, with keep-alive agents (idle
// connections are kept for the process's next request and do not keep it alive), through
// a proxy when the client names one (proxy.ts). A plain-http request goes to the proxy in
// absolute form; an https one through a CONNECT tunnel (hpagent's agent). An answer is
// decoded as its Content-Encoding says (gzip or br, which the client asks for).
import type * as Http from 'node:http';
import type { Readable } from 'node:stream';
import type * as Zlib from 'node:zlib';
import { builtin } from '../util/builtin.ts';
import { shownProxy } from './proxy.ts';
import {
  type Answer,
  answerTooLarge,
  declaredOver,
  type Exchange,
  flattenHeaders,
  MAX_ANSWER_BYTES,
  type Transport,
  type TransportOptions,
  transportError,
} from './transport.ts';

type HttpModule = typeof Http;

/** Methods the server may see twice without harm (RFC 9110 §9.2.2), as may any request with an Idempotency-Key. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export class HttpTransport implements Transport {
  private readonly opts: TransportOptions;
  /** Keep-alive agents, by the scheme they speak (and the proxy they tunnel through). */
  private readonly agents = new Map<string, Http.Agent>();

  constructor(opts: TransportOptions) {
    this.opts = opts;
  }

  async send(x: Exchange): Promise<Answer> {
    const http = builtin<HttpModule>('node:http');
    checkHeaders(http, x.headers);
    const replayable = IDEMPOTENT.has(x.method) || x.headers['idempotency-key'] !== undefined;
    try {
      return await this.once(x);
    } catch (err) {
      // A kept connection the server closed as it sat idle fails before any byte of an
      // answer: the request is sent again, once, on a new connection when that is safe
      // (Node's advice for req.reusedSocket).
      if (!(replayable && (err as { stale?: boolean }).stale)) throw err;
      return await this.once(x);
    }
  }

  private async once(x: Exchange): Promise<Answer> {
    const target = new URL(`${x.origin}${x.path}`);
    const secure = target.protocol === 'https:';
    const proxy = x.proxy;
    let options: Http.RequestOptions;
    let speaksTo: string;
    if (proxy !== undefined && !secure) {
      // Absolute form (RFC 9112 §3.2.2): the proxy forwards the request.
      speaksTo = proxy.protocol;
      options = {
        host: bare(proxy.hostname),
        port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
        path: target.href,
        headers: { ...x.headers, host: target.host, ...proxyAuthorization(proxy) },
      };
    } else {
      speaksTo = target.protocol;
      options = {
        host: bare(target.hostname),
        port: target.port || (secure ? 443 : 80),
        path: x.path,
        headers: x.headers,
        // SNI names a host, never an address (RFC 6066 §3); Node leaves it out for one.
        ...(secure ? { ALPNProtocols: ['http/1.1'] } : {}),
      };
    }
    const module = builtin<HttpModule>(speaksTo === 'https:' ? 'node:https' : 'node:http');
    options.method = x.method;
    options.agent = await this.agentFor(speaksTo, secure ? proxy : undefined);
    if (x.signal) options.signal = x.signal;
    const max = this.opts.maxAnswerBytes ?? MAX_ANSWER_BYTES;

    return new Promise<Answer>((resolve, reject) => {
      let answered = false;
      const fail = (err: unknown) => {
        clearTimeout(connectTimer);
        reject(x.signal?.aborted ? x.signal.reason : named(err, proxy));
      };
      let req: Http.ClientRequest;
      try {
        req = module.request(options, onAnswer);
      } catch (err) {
        // Refused before anything is sent: a path with a space, a method that is no token.
        reject(unsendable(err, x.method));
        return;
      }
      function onAnswer(res: Http.IncomingMessage) {
        answered = true;
        clearTimeout(connectTimer);
        if (declaredOver(res.headers, max)) {
          res.destroy();
          fail(answerTooLarge(max, res.headers));
          return;
        }
        let body: Readable;
        try {
          body = decoded(res, x.method);
        } catch (err) {
          res.destroy();
          fail(err);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        body.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > max) {
            res.destroy();
            body.destroy();
            fail(answerTooLarge(max, res.headers));
            return;
          }
          chunks.push(chunk);
        });
        body.on('end', () => {
          if (!res.complete) {
            fail(transportError('ECONNRESET', 'The connection was closed mid-answer.'));
            return;
          }
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), text });
        });
        res.on('error', fail);
        if (body !== res)
          body.on('error', (err: Error) =>
            fail(
              Object.assign(
                transportError(
                  'BAD_ANSWER',
                  `The answer's ${res.headers['content-encoding']} body does not decode: ${err.message}`,
                ),
                { cause: err },
              ),
            ),
          );
      }
      req.on('error', (err: Error & { code?: string }) => {
        if (!answered && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE'))
          Object.assign(err, { stale: true });
        fail(err);
      });
      // The longest wait for the answer to start, and between two parts of it.
      req.setTimeout(this.opts.answerTimeoutMs, () =>
        req.destroy(transportError('ANSWER_TIMEOUT', 'Timed out waiting for the answer.')),
      );
      // The longest wait for a connection (through a proxy: the tunnel too).
      const connectTimer = setTimeout(
        () => req.destroy(transportError('CONNECT_TIMEOUT', 'Timed out connecting.')),
        this.opts.connectTimeoutMs,
      );
      req.on('socket', (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer);
        else socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.end(x.body);
    });
  }

  /**
   * One agent per scheme spoken, and one per proxy that https requests tunnel through
   * (hpagent is loaded only then).
   */
  private async agentFor(protocol: string, tunnel: URL | undefined): Promise<Http.Agent> {
    const key = tunnel === undefined ? protocol : `tunnel ${tunnel.href}`;
    let agent = this.agents.get(key);
    if (agent === undefined) {
      const keepAlive = { keepAlive: true };
      if (tunnel !== undefined) {
        const { HttpsProxyAgent } = await import('hpagent');
        agent = new HttpsProxyAgent({ ...keepAlive, proxy: tunnel });
      } else {
        const module = builtin<HttpModule>(protocol === 'https:' ? 'node:https' : 'node:http');
        agent = new module.Agent(keepAlive);
      }
      this.agents.set(key, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/** A host as URL.hostname gives it, without an IPv6 address's brackets. */
function bare(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

function proxyAuthorization(proxy: URL): Record<string, string> {
  if (proxy.username === '' && proxy.password === '') return {};
  const pair = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(pair).toString('base64')}` };
}

/**
 * Refuses a header that cannot be sent (code BAD_HEADER), naming it but never showing its
 * value (it may be a key): a line break or a control character in a value, a name that is
 * not a token.
 */
function checkHeaders(http: HttpModule, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      http.validateHeaderName(name);
    } catch {
      throw transportError('BAD_HEADER', `"${name}" is not a valid header name.`);
    }
    try {
      http.validateHeaderValue(name, value);
    } catch {
      throw Object.assign(
        transportError(
          'BAD_HEADER',
          `The ${name} header has a line break or a control character, which a request cannot carry.`,
        ),
        { header: name },
      );
    }
  }
}

/** The body of `res` decoded as its Content-Encoding says; an encoding not asked for is refused. */
function decoded(res: Http.IncomingMessage, method: string): Readable {
  const encoding = (res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return res;
  // No body to decode.
  if (method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304) return res;
  const zlib = builtin<typeof Zlib>('node:zlib');
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(zlib.createGunzip());
  if (encoding === 'br') return res.pipe(zlib.createBrotliDecompress());
  throw transportError(
    'BAD_ANSWER',
    `The answer is encoded as "${encoding}", which ws did not ask for (it reads gzip and br).`,
  );
}

/** A request Node refuses to send, as BAD_HEADER (the client makes it a usage error). */
function unsendable(err: unknown, method: string): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'ERR_UNESCAPED_CHARACTERS')
    return transportError('BAD_HEADER', 'The request path has a space or a control character.');
  if (code === 'ERR_INVALID_HTTP_TOKEN')
    return transportError('BAD_HEADER', `"${method}" is not an HTTP method.`);
  return err;
}

/**
 * What failed, in the names the client reads (see describeNetworkError in client.ts): Node's
 * parser refusing an answer is BAD_ANSWER; a proxy refusing the tunnel, PROXY_REFUSED.
 */
function named(err: unknown, proxy: URL | undefined): unknown {
  const e = err as Error & { code?: string };
  if (typeof e.code === 'string' && e.code.startsWith('HPE_'))
    return Object.assign(
      transportError('BAD_ANSWER', `The answer is not HTTP the client can read (${e.message}).`),
      { cause: err },
    );
  // hpagent's error for a CONNECT answered with another status than 200.
  const refused = proxy && e.code === undefined && /^Bad response: (\d{3})$/.exec(e.message);
  if (refused)
    return Object.assign(
      transportError(
        'PROXY_REFUSED',
        `The proxy ${shownProxy(proxy)} answered ${refused[1]} to the tunnel it was asked for.`,
      ),
      { cause: err, status: Number(refused[1]) },
    );
  return err;
}
