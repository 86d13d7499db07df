// One HTTP exchange with a receiver the user runs (not the API): what `ws webhooks doctor`
// sends as a good sender would, what `ws deliveries replay` re-sends, and what `ws
// webhooks listen` forwards. Like the service's sender: one attempt, no redirect followed,
// one time limit from connecting to the last byte of the answer, the answer's body kept up
// to 64 KiB. A failure to connect or to answer in time is a result, not an exception.
import type { IncomingHttpHeaders } from 'node:http';
import { builtin } from '../util/builtin.ts';
import { monotonicMs } from '../util/time.ts';

export interface Exchange {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: Buffer | string | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface ExchangeResult {
  /** The answer's status; null when none came. */
  status: number | null;
  headers: IncomingHttpHeaders;
  /** The answer's body, cut at 64 KiB. */
  body: Buffer;
  ms: number;
  /** Why no answer came (connection refused, timed out, …); null when one did. */
  error: string | null;
}

const KEEP_BYTES = 65_536;

function describe(err: NodeJS.ErrnoException, timeoutMs: number): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'the connection was closed before an answer came';
    case 'ENOTFOUND':
      return 'host not found';
    case 'TIMEOUT':
      return `no answer within ${timeoutMs / 1000} s`;
    default:
      return err.message;
  }
}

/** Send one request and wait for its answer (or the time limit). */
export async function exchange(req: Exchange): Promise<ExchangeResult> {
  const { request } = builtin<typeof import('node:http')>(
    req.url.protocol === 'https:' ? 'node:https' : 'node:http',
  );
  const started = monotonicMs();
  return new Promise<ExchangeResult>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const done = (r: Omit<ExchangeResult, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      resolve({ ...r, ms: Math.round(monotonicMs() - started) });
    };
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const r = request(req.url, { method: req.method, headers, agent: false }, (res) => {
      res.on('data', (c: Buffer) => {
        if (kept < KEEP_BYTES) {
          chunks.push(c.subarray(0, KEEP_BYTES - kept));
          kept += Math.min(c.length, KEEP_BYTES - kept);
        }
      });
      res.on('end', () =>
        done({
          status: res.statusCode ?? null,
          headers: res.headers,
          body: Buffer.concat(chunks),
          error: null,
        }),
      );
      res.on('error', (err: NodeJS.ErrnoException) =>
        done({
          status: null,
          headers: {},
          body: Buffer.alloc(0),
          error: describe(err, req.timeoutMs),
        }),
      );
    });
    const timer = setTimeout(() => {
      const err = Object.assign(new Error('timeout'), { code: 'TIMEOUT' });
      r.destroy(err);
      done({
        status: null,
        headers: {},
        body: Buffer.alloc(0),
        error: describe(err, req.timeoutMs),
      });
    }, req.timeoutMs);
    const onAbort = () => {
      r.destroy();
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(req.signal?.reason);
      }
    };
    if (req.signal?.aborted) {
      onAbort();
      return;
    }
    req.signal?.addEventListener('abort', onAbort, { once: true });
    r.on('error', (err: NodeJS.ErrnoException) =>
      done({
        status: null,
        headers: {},
        body: Buffer.alloc(0),
        error: describe(err, req.timeoutMs),
      }),
    );
    r.end(req.body);
  });
}

/** An answer's outcome in a few words: "200 in 12ms", "connection refused". */
export function outcomeText(r: ExchangeResult): string {
  return r.status === null ? (r.error ?? 'no answer') : `${r.status} in ${r.ms}ms`;
}

/** Whether the answer acknowledges a delivery (any 2xx, as the service counts it). */
export function acknowledged(r: ExchangeResult): boolean {
  return r.status !== null && r.status >= 200 && r.status < 300;
}
