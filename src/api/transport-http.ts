// The transport of one-shot commands: node:http (or node:https), with one keep-alive
// connection pool for the process. Node ships it compiled into its own start-up snapshot,
// so a command that sends a request or two loads nothing of undici (its 150 KB of
// JavaScript and its WebAssembly parser): see bench/startup.mjs. Idle connections do not
// keep the process alive.
import type * as Http from 'node:http';
import { builtin } from '../util/builtin.ts';
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

export class NodeHttpTransport implements Transport {
  private readonly http: HttpModule;
  private readonly agent: Http.Agent;
  private readonly opts: TransportOptions;

  constructor(origin: string, opts: TransportOptions) {
    this.http = builtin<HttpModule>(origin.startsWith('https:') ? 'node:https' : 'node:http');
    this.agent = new this.http.Agent({ keepAlive: true });
    this.opts = opts;
  }

  send(x: Exchange): Promise<Answer> {
    const url = new URL(x.origin);
    const max = this.opts.maxAnswerBytes ?? MAX_ANSWER_BYTES;
    return new Promise<Answer>((resolve, reject) => {
      const req = this.http.request(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port,
          path: x.path,
          method: x.method,
          headers: x.headers,
          agent: this.agent,
          ...(x.signal ? { signal: x.signal } : {}),
        },
        (res) => {
          const tooLarge = () => {
            reject(answerTooLarge(max, res.headers));
            req.destroy();
          };
          if (declaredOver(res.headers, max)) {
            tooLarge();
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > max) tooLarge();
            else chunks.push(chunk);
          });
          res.on('end', () => {
            if (!res.complete) {
              reject(transportError('ECONNRESET', 'The connection was closed mid-answer.'));
              return;
            }
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), text });
          });
          res.on('error', reject);
        },
      );
      req.on('error', (err) => reject(x.signal?.aborted ? x.signal.reason : err));
      req.setTimeout(this.opts.answerTimeoutMs, () =>
        req.destroy(transportError('ANSWER_TIMEOUT', 'Timed out waiting for the answer.')),
      );
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => req.destroy(transportError('CONNECT_TIMEOUT', 'Timed out connecting.')),
          this.opts.connectTimeoutMs,
        );
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
      req.end(x.body);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}
