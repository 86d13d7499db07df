// The transport of the work that keeps several requests in flight for long (imports, batch
// updates and deletes): undici's connection pool. Loaded only by the commands that ask for
// it (see transport.ts).
import type { Dispatcher } from 'undici';
import * as transport from './transport.ts';
import { Agent, request } from './undici.ts';

/** undici's codes for what failed, in the names the client reads. */
const CODES: Record<string, string> = {
  UND_ERR_SOCKET: 'ECONNRESET',
  UND_ERR_CLOSED: 'ECONNRESET',
  UND_ERR_CONNECT_TIMEOUT: 'CONNECT_TIMEOUT',
  UND_ERR_HEADERS_TIMEOUT: 'ANSWER_TIMEOUT',
  UND_ERR_BODY_TIMEOUT: 'ANSWER_TIMEOUT',
};

export class UndiciTransport implements transport.Transport {
  private readonly agent: Dispatcher;
  private readonly max: number;

  constructor(opts: transport.TransportOptions) {
    this.max = opts.maxAnswerBytes ?? transport.MAX_ANSWER_BYTES;
    this.agent = new Agent({
      connect: { timeout: opts.connectTimeoutMs },
      headersTimeout: opts.answerTimeoutMs,
      bodyTimeout: opts.answerTimeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  async send(x: transport.Exchange): Promise<transport.Answer> {
    try {
      const res = await request.call(this.agent, {
        origin: x.origin,
        path: x.path,
        method: x.method as Dispatcher.HttpMethod,
        headers: x.headers,
        body: x.body ?? null,
        ...(x.signal ? { signal: x.signal } : {}),
      });
      if (transport.declaredOver(res.headers, this.max)) {
        res.body.destroy();
        throw transport.answerTooLarge(this.max, res.headers);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > this.max) {
          res.body.destroy();
          throw transport.answerTooLarge(this.max, res.headers);
        }
        chunks.push(chunk);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      return { status: res.statusCode, headers: transport.flattenHeaders(res.headers), text };
    } catch (err) {
      const e = err as { code?: string; message?: string };
      const code = e.code !== undefined ? CODES[e.code] : undefined;
      if (code === undefined) throw err;
      throw Object.assign(transport.transportError(code, e.message ?? code), { cause: err });
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
