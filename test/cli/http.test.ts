import assert from 'node:assert/strict';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { ApiClient, type ClientOptions } from '../../src/api/client.ts';
import { HttpTransport } from '../../src/api/node-http.ts';
import { RateLimiter } from '../../src/api/ratelimit.ts';
import { testIO } from '../helpers/io.ts';
import { runWs } from '../helpers/run.ts';
import {
  setFaults,
  startTestSandbox,
  type TestSandbox,
  writeProfiles,
} from '../helpers/sandbox.ts';
import { startStub } from '../helpers/stub-server.ts';

let t: TestSandbox;
let env: Record<string, string>;
const COUNT = '/v2/prism/{teamId}/contact/count';

before(async () => {
  t = await startTestSandbox();
  env = t.env as Record<string, string>;
});
after(() => t.stop());

function client(extra: Partial<ClientOptions> = {}) {
  return new ApiClient({
    baseUrl: t.sandbox.url,
    apiKey: t.sandbox.apiKey,
    teamId: t.sandbox.teamId,
    io: testIO().io,
    limiter: new RateLimiter(0),
    backoffBaseMs: 1,
    backoffCapMs: 5,
    ...extra,
  });
}

describe('path segments reach the server as one segment each', () => {
  it('keeps /, .., ?, #, % and non-ASCII letters inside their segment', async () => {
    const hostile = [
      'a/b',
      '..',
      '.',
      'what?x=1',
      'frag#ment',
      '100%',
      '%2F',
      'Zoë/Ünïcode',
      'emoji 🚀',
      "it's (x)*",
    ];
    const c = client();
    try {
      const res = await c.request<{ segments: string[] }>({
        method: 'GET',
        path: ['__sandbox', 'echo', ...hostile],
      });
      assert.deepEqual(res.body.segments, hostile);
    } finally {
      await c.close();
    }
  });
});

describe('retries', () => {
  it('under --fail-rate, reads succeed by retrying (500s too), and say so in --debug', async () => {
    await setFaults(t.sandbox, { fail_rate: 0.5 });
    try {
      // Each request needs a retry and then succeeds about three times in ten: go on until
      // one has (60 requests leave a chance below one in a billion of seeing none).
      let retried = 0;
      for (let i = 0; i < 60 && retried === 0; i++) {
        const r = await runWs(['api', 'GET', COUNT, '--debug', '--retries', '8'], {
          env,
          fastRetries: true,
        });
        if (r.code === 0) {
          if (/attempt [2-9]\/9/.test(r.stderr)) retried++;
        } else {
          // A failure is reported only once every attempt failed (once in 500 runs).
          assert.equal(r.code, 1);
          assert.match(r.stderr, /attempt 9\/9/);
        }
      }
      assert.ok(retried > 0, 'some requests needed a retry');
    } finally {
      await setFaults(t.sandbox, { fail_rate: 0 });
    }
  });

  it('never makes more than --retries extra attempts', async () => {
    let n = 0;
    const stub = await startStub(() => {
      n++;
      return { status: 503, body: { error: { code: 'service_unavailable', message: 'busy' } } };
    });
    try {
      writeProfiles(
        t.configDir,
        {
          s: {
            base_url: stub.url,
            team_id: t.sandbox.teamId,
            api_key: 'wsk_k_000000000000',
            rate_limit: 0,
          },
        },
        's',
      );
      const r = await runWs(['api', 'GET', '/v2/x', '--retries', '2'], { env, fastRetries: true });
      assert.equal(r.code, 1);
      assert.equal(n, 3);
      n = 0;
      const none = await runWs(['api', 'GET', '/v2/x', '--retries', '0'], {
        env,
        fastRetries: true,
      });
      assert.equal(none.code, 1);
      assert.equal(n, 1);
    } finally {
      await stub.close();
      writeProfiles(
        t.configDir,
        {
          sandbox: {
            base_url: t.sandbox.url,
            team_id: t.sandbox.teamId,
            api_key: t.sandbox.apiKey,
            rate_limit: 0,
          },
        },
        'sandbox',
      );
    }
  });

  it('reuses the Idempotency-Key of a POST on its retries, after a dropped connection and a 502', async () => {
    const stub = await startStub((_r, i) =>
      i === 0
        ? { status: 0, drop: true }
        : i === 1
          ? { status: 502, body: 'Bad gateway' }
          : { status: 201, body: { id: 'r1' } },
    );
    const c = new ApiClient({
      baseUrl: stub.url,
      apiKey: 'wsk_k_000000000000',
      teamId: t.sandbox.teamId,
      io: testIO().io,
      limiter: new RateLimiter(0),
      backoffBaseMs: 1,
      backoffCapMs: 5,
    });
    try {
      const res = await c.request({
        method: 'POST',
        path: ['v2', 'prism', t.sandbox.teamId, 'contact'],
        body: { default: { name: 'A' } },
      });
      assert.equal(res.status, 201);
      assert.equal(res.attempts, 3);
      const keys = stub.requests.map((r) => r.headers['idempotency-key']);
      assert.equal(keys.length, 3);
      assert.equal(new Set(keys).size, 1, 'one key for the logical operation');
      const second = await c.request({ method: 'POST', path: '/v2/y', body: {} });
      assert.equal(second.status, 201);
      assert.notEqual(
        stub.requests[3]!.headers['idempotency-key'],
        keys[0],
        'a new operation gets a new key',
      );
    } finally {
      await c.close();
      await stub.close();
    }
  });

  it("honours Retry-After under the sandbox's --rate-limit, and every request gets through", async () => {
    await setFaults(t.sandbox, { rate_limit: 2 });
    const delays: number[] = [];
    try {
      const c = client({
        sleep: (ms) => {
          delays.push(ms);
          return new Promise((r) => setTimeout(r, ms));
        },
        retries: 5,
      });
      try {
        const answers = await Promise.all(
          Array.from({ length: 5 }, () =>
            c.request<{ total: number }>({ method: 'GET', path: COUNT }),
          ),
        );
        assert.equal(answers.length, 5);
        for (const a of answers) assert.equal(a.status, 200);
        assert.ok(
          answers.some((a) => a.attempts > 1),
          'some were answered 429 first',
        );
        assert.ok(
          delays.length > 0 && delays.every((d) => d >= 1000),
          `waited Retry-After (>= 1 s): ${delays}`,
        );
      } finally {
        await c.close();
      }
    } finally {
      await setFaults(t.sandbox, { rate_limit: 0 });
    }
  });

  it('after the retries run out, a 429 exits 1 and says what to do', async () => {
    const stub = await startStub(() => ({
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: { code: 'rate_limited', message: 'Slow down' } },
    }));
    try {
      writeProfiles(
        t.configDir,
        {
          s: {
            base_url: stub.url,
            team_id: t.sandbox.teamId,
            api_key: 'wsk_k_000000000000',
            rate_limit: 0,
          },
        },
        's',
      );
      const r = await runWs(['api', 'GET', '/v2/x', '--retries', '1'], { env });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /Slow down/);
      assert.match(r.stderr, /rate_limit/);
      assert.equal(stub.requests.length, 2);
    } finally {
      await stub.close();
      writeProfiles(
        t.configDir,
        {
          sandbox: {
            base_url: t.sandbox.url,
            team_id: t.sandbox.teamId,
            api_key: t.sandbox.apiKey,
            rate_limit: 0,
          },
        },
        'sandbox',
      );
    }
  });
});

describe('timeouts and interruption', () => {
  it('--timeout gives up on a slow answer with exit 1', async () => {
    await setFaults(t.sandbox, { latency_ms: 1500 });
    try {
      const r = await runWs(['api', 'GET', COUNT, '--timeout', '0.2', '--retries', '0'], { env });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /timed out waiting for the answer/);
    } finally {
      await setFaults(t.sandbox, { latency_ms: 0 });
    }
  });

  it('Ctrl-C during a request exits 130', async () => {
    await setFaults(t.sandbox, { latency_ms: 2000 });
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 150);
      const r = await runWs(['api', 'GET', COUNT], { env, signal: controller.signal });
      assert.equal(r.code, 130);
      assert.match(r.stderr, /Interrupted/);
    } finally {
      await setFaults(t.sandbox, { latency_ms: 0 });
    }
  });
});

describe('--debug traces', () => {
  it('show method, URL, attempt, status, time, request id and rate-limit headers, never the key', async () => {
    await setFaults(t.sandbox, { rate_limit: 100 });
    try {
      const r = await runWs(['api', 'GET', COUNT, '--debug'], { env });
      assert.equal(r.code, 0);
      assert.match(
        r.stderr,
        new RegExp(
          `→ GET ${t.sandbox.url}/v2/prism/${t.sandbox.teamId}/contact/count \\(attempt 1/4\\)`,
        ),
      );
      assert.match(r.stderr, /x-api-key: …\w{4}\n/);
      assert.match(
        r.stderr,
        /← 200 OK in \d+ms request-id=req_[0-9a-f]{24} rate-limit limit=100 remaining=\d+ reset=\d+/,
      );
      assert.ok(!r.stderr.includes(t.sandbox.apiKey));
      assert.ok(!r.stdout.includes(t.sandbox.apiKey));
      const viaEnv = await runWs(['api', 'GET', COUNT], { env: { ...env, WS_DEBUG: '1' } });
      assert.match(viaEnv.stderr, /→ GET /);
    } finally {
      await setFaults(t.sandbox, { rate_limit: 0 });
    }
  });

  it('redact secrets inside bodies too, and a stack trace appears only with --debug', async () => {
    const stub = await startStub(() => ({
      status: 500,
      body: {
        error: { code: 'internal_error', message: 'failed for key wsk_stub_key_0123456789' },
        secret: 'whsec_abcdefghijklmnop',
      },
    }));
    try {
      writeProfiles(
        t.configDir,
        {
          s: {
            base_url: stub.url,
            team_id: t.sandbox.teamId,
            api_key: 'wsk_stub_key_0123456789',
            rate_limit: 0,
          },
        },
        's',
      );
      const r = await runWs(
        ['api', 'POST', '/v2/x', '-F', 'secret=whsec_zyxwvutsrqponmlk', '--debug'],
        { env },
      );
      assert.equal(r.code, 1);
      for (const secret of [
        'wsk_stub_key_0123456789',
        'whsec_abcdefghijklmnop',
        'whsec_zyxwvutsrqponmlk',
      ]) {
        assert.ok(!r.stderr.includes(secret), `${secret} leaked`);
      }
      assert.match(r.stderr, /\n\s+at /, 'stack with --debug');
      const plain = await runWs(['api', 'POST', '/v2/x'], { env });
      assert.ok(!/\n\s+at /.test(plain.stderr), 'no stack without --debug');
      assert.ok(
        !plain.stderr.includes('wsk_stub_key_0123456789'),
        'the key is redacted from the server message',
      );
    } finally {
      await stub.close();
      writeProfiles(
        t.configDir,
        {
          sandbox: {
            base_url: t.sandbox.url,
            team_id: t.sandbox.teamId,
            api_key: t.sandbox.apiKey,
            rate_limit: 0,
          },
        },
        'sandbox',
      );
    }
  });
});

/** A raw TCP server that does `onSocket` with each connection. */
async function rawServer(onSocket: (socket: Socket) => void) {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('the transport (node:http with keep-alive agents)', () => {
  const make = (baseUrl: string, extra: Partial<ClientOptions> = {}) =>
    client({ baseUrl, apiKey: 'wsk_k_000000000000', ...extra });

  it('an answer, its headers and its JSON body', async () => {
    const c = make(t.sandbox.url, { apiKey: t.sandbox.apiKey });
    try {
      const res = await c.request({ method: 'GET', path: COUNT });
      assert.equal(res.status, 200);
      assert.equal(typeof (res.body as { total: unknown }).total, 'number');
      assert.match(res.headers['x-request-id'] ?? '', /^req_/);
      const created = await c.request({
        method: 'POST',
        path: '/v2/prism/{teamId}/contact',
        body: { default: { name: 'Ünïcode ✓' } },
      });
      assert.equal(created.status, 201);
      assert.equal((created.body as { default: { name: string } }).default.name, 'Ünïcode ✓');
    } finally {
      await c.close();
    }
  });

  it('a silent server times out, a refused or torn connection is named', async () => {
    const silent = await rawServer(() => {});
    const torn = await rawServer((socket) => {
      socket.once('data', () =>
        socket.end(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a"',
        ),
      );
    });
    const refused = await rawServer(() => {});
    const refusedUrl = refused.url;
    await refused.close();
    try {
      const slow = make(silent.url, { timeoutMs: 200, retries: 0 });
      await assert.rejects(slow.request({ method: 'GET', path: '/v2/x' }), (err: Error) => {
        assert.match(err.message, /timed out waiting for the answer/);
        return true;
      });
      await slow.close();
      const cut = make(torn.url, { retries: 1 });
      await assert.rejects(cut.request({ method: 'GET', path: '/v2/x' }), (err: Error) => {
        assert.match(
          err.message,
          /the connection was closed before an answer came\) after 2 attempts/,
        );
        return true;
      });
      await cut.close();
      const none = make(refusedUrl, { retries: 0 });
      await assert.rejects(none.request({ method: 'GET', path: '/v2/x' }), /connection refused/);
      await none.close();
    } finally {
      await silent.close();
      await torn.close();
    }
  });

  it("a cancelled request rejects with the signal's reason at once", async () => {
    const silent = await rawServer(() => {});
    const c = make(silent.url);
    try {
      const controller = new AbortController();
      const pending = c.request({ method: 'GET', path: '/v2/x', signal: controller.signal });
      setTimeout(() => controller.abort(new Error('stopped by the user')), 50);
      await assert.rejects(pending, /stopped by the user/);
    } finally {
      await c.close();
      await silent.close();
    }
  });
});

describe('the transport on a kept connection, and answers it cannot read', () => {
  /**
   * A raw HTTP/1.1 server: `answer(request, connection)` gives each request's answer (the
   * bytes sent), or null to close the connection without one. Requests carry no body but
   * their Content-Length's worth, read whole.
   */
  async function httpServer(answer: (req: string, conn: number) => string | null) {
    let conns = 0;
    const seen: string[] = [];
    const server = await rawServer((socket) => {
      const conn = ++conns;
      let buf = '';
      socket.on('data', (d: Buffer) => {
        buf += d.toString('latin1');
        for (;;) {
          const end = buf.indexOf('\r\n\r\n');
          if (end === -1) return;
          const length = Number(/content-length: (\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
          if (buf.length < end + 4 + length) return;
          const req = buf.slice(0, end + 4 + length);
          buf = buf.slice(req.length);
          seen.push(req);
          const out = answer(req, conn);
          if (out === null) socket.destroy();
          else socket.write(out);
        }
      });
    });
    return { ...server, seen, conns: () => conns };
  }
  const json = (body: string, extra = '') =>
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const make = (baseUrl: string, extra: Partial<ClientOptions> = {}) =>
    client({ baseUrl, apiKey: 'wsk_k_000000000000', ...extra });

  it('sends requests in turn on one kept connection', async () => {
    let n = 0;
    const server = await httpServer(() => json(`{"n":${++n}}`));
    const c = make(server.url);
    try {
      for (const want of [1, 2, 3]) {
        const res = await c.request({ method: 'GET', path: '/v2/x' });
        assert.deepEqual(res.body, { n: want });
      }
      assert.equal(server.conns(), 1);
      assert.match(server.seen[0]!, /^GET \/v2\/x HTTP\/1\.1\r\n/);
      assert.match(server.seen[0]!, /\r\nhost: 127\.0\.0\.1:\d+\r\n/i);
      assert.match(server.seen[0]!, /\r\nx-api-key: wsk_k_000000000000\r\n/);
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('sends a request again, once, on a new connection when the server had closed the kept one', async () => {
    // The second request on the first connection meets a connection the server drops.
    const server = await httpServer((_req, conn) =>
      conn === 1 && server.seen.length === 2 ? null : json('{"ok":true}'),
    );
    const c = make(server.url, { retries: 0 });
    try {
      await c.request({ method: 'GET', path: '/v2/x' });
      const again = await c.request({ method: 'POST', path: '/v2/x', body: {} });
      assert.deepEqual(again.body, { ok: true });
      assert.equal(again.attempts, 1, 'the transport sent it again, not the client');
      assert.equal(server.conns(), 2);
      assert.equal(server.seen.length, 3);
      // Both sendings of the POST carry the same Idempotency-Key.
      const key = (req: string) => /idempotency-key: (\S+)/.exec(req)?.[1];
      assert.ok(key(server.seen[1]!));
      assert.equal(key(server.seen[2]!), key(server.seen[1]!));
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('never sends a write without an Idempotency-Key twice', async () => {
    const server = await httpServer((_req, conn) =>
      conn === 1 && server.seen.length === 2 ? null : json('{"ok":true}'),
    );
    const transport = new HttpTransport({ connectTimeoutMs: 5_000, answerTimeoutMs: 5_000 });
    const send = (method: string) =>
      transport.send({ origin: server.url, path: '/v2/x', method, headers: {}, body: undefined });
    try {
      assert.equal((await send('GET')).status, 200);
      await assert.rejects(send('POST'), { code: 'ECONNRESET' });
      assert.equal(server.seen.length, 2);
      assert.equal(server.conns(), 1);
    } finally {
      await transport.close();
      await server.close();
    }
  });

  it('reads chunked answers, answers framed by the connection’s end, and skips a 100 Continue', async () => {
    const body = '{"name":"Zoë ✓","n":[1,2,3]}';
    const bytes = Buffer.from(body);
    const chunked =
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n' +
      `5\r\n${bytes.subarray(0, 5).toString('latin1')}\r\n` +
      `${(bytes.length - 5).toString(16)}\r\n${bytes.subarray(5).toString('latin1')}\r\n0\r\n\r\n`;
    const ends = `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nconnection: close\r\n\r\n${bytes.toString('latin1')}`;
    let i = 0;
    const server = await rawServer((socket) => {
      // Each request is answered, a kept connection's next one too.
      socket.on('data', () => {
        // Written a few bytes at a time, as a slow network would deliver them.
        const out = Buffer.from(i++ % 2 === 0 ? chunked : ends, 'latin1');
        let at = 0;
        const more = () => {
          if (at >= out.length) {
            if (i % 2 === 0) socket.end();
            return;
          }
          socket.write(out.subarray(at, at + 7));
          at += 7;
          setImmediate(more);
        };
        more();
      });
    });
    const c = make(server.url);
    try {
      for (let k = 0; k < 4; k++) {
        const res = await c.request({ method: 'GET', path: '/v2/x' });
        assert.deepEqual(res.body, JSON.parse(body), `answer ${k}`);
      }
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('an answer that is not HTTP is named, and not asked for again', async () => {
    let conns = 0;
    const server = await rawServer((socket) => {
      conns++;
      socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    });
    const c = make(server.url, { retries: 3 });
    try {
      await assert.rejects(c.request({ method: 'GET', path: '/v2/x' }), (err: Error) => {
        assert.match(err.message, /The answer is not HTTP the client can read \(Parse Error/);
        return true;
      });
      assert.equal(conns, 1);
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('a path with a space or a method that is no token is a usage error, and nothing is sent', async () => {
    const server = await httpServer(() => json('{}'));
    const c = make(server.url);
    try {
      await assert.rejects(c.request({ method: 'GET', path: '/v2/x y' }), (err: Error) => {
        assert.equal(err.name, 'UsageError');
        assert.match(
          err.message,
          /^The request path has a space or a control character\. Nothing was sent/,
        );
        return true;
      });
      await assert.rejects(
        c.request({ method: 'GE T', path: '/v2/x' }),
        /"GE T" is not an HTTP method/,
      );
      assert.equal(server.seen.length, 0);
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('a key or -H value with a line break is a usage error naming the header, and nothing is sent', async () => {
    const server = await httpServer(() => json('{}'));
    try {
      const r = await runWs(['auth', 'status'], {
        env: { ...env, WS_BASE_URL: server.url, WS_API_KEY: 'wsk_secret_abcd\n' },
      });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /The x-api-key header has a line break or a control character/);
      assert.ok(!r.stderr.includes('wsk_secret'));
      const h = await runWs(['api', 'GET', '/v2/x', '-H', 'X-Trace: a\r\nX-Injected: 1'], {
        env: { ...env, WS_BASE_URL: server.url },
      });
      assert.equal(h.code, 2);
      assert.match(h.stderr, /The x-trace header has a line break or a control character/);
      assert.equal(server.seen.length, 0);
    } finally {
      await server.close();
    }
  });
});

describe('compression', () => {
  const PAGE = '/v2/prism/{teamId}/contact';

  before(async () => {
    // Enough contacts that a page of 50 is well over the sandbox's 1 KiB threshold.
    const c = client();
    try {
      for (let i = 0; i < 50; i++)
        await c.request({
          method: 'POST',
          path: PAGE,
          body: { default: { name: `Compressed ${i}`, email: `compressed${i}@example.com` } },
        });
    } finally {
      await c.close();
    }
  });

  it('asks for gzip and br, and reads a large answer in either, the same as uncompressed', async () => {
    const c = client();
    try {
      const query = { limit: 50 };
      const plain = await c.request({
        method: 'GET',
        path: PAGE,
        query,
        headers: { 'accept-encoding': 'identity' },
      });
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.ok(plain.text.length > 4096, `a page of ${plain.text.length} bytes`);
      const byDefault = await c.request({ method: 'GET', path: PAGE, query });
      assert.equal(byDefault.headers['content-encoding'], 'br');
      assert.ok(Number(byDefault.headers['content-length']) < plain.text.length / 2);
      const gzip = await c.request({
        method: 'GET',
        path: PAGE,
        query,
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      assert.deepEqual(byDefault.body, plain.body);
      assert.deepEqual(gzip.body, plain.body);
      // A small answer is sent as it is.
      const count = await c.request({ method: 'GET', path: COUNT });
      assert.equal(count.headers['content-encoding'], undefined);
    } finally {
      await c.close();
    }
  });

  /** A server that answers every request with `body` under these headers. */
  async function encodedServer(headers: string, body: Buffer) {
    return rawServer((socket) => {
      socket.once('data', () => {
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${headers}content-length: ${body.length}\r\n\r\n`,
        );
        socket.end(body);
      });
    });
  }

  it('caps an answer by its decoded size, so a small gzip bomb costs no more than the cap', async () => {
    // 8 MiB of spaces compress to a few KiB.
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, ' '));
    assert.ok(bomb.length < 64 * 1024);
    const server = await encodedServer('content-encoding: gzip\r\n', bomb);
    const transport = new HttpTransport({
      connectTimeoutMs: 5_000,
      answerTimeoutMs: 5_000,
      maxAnswerBytes: 1024 * 1024,
    });
    try {
      await assert.rejects(
        transport.send({
          origin: server.url,
          path: '/v2/x',
          method: 'GET',
          headers: {},
          body: undefined,
        }),
        { code: 'ANSWER_TOO_LARGE' },
      );
    } finally {
      await transport.close();
      await server.close();
    }
  });

  it('names an encoding it did not ask for, or a body that does not decode, and does not retry', async () => {
    const zstd = await encodedServer('content-encoding: zstd\r\n', Buffer.from('(not json)'));
    const broken = await encodedServer('content-encoding: gzip\r\n', Buffer.from('not gzip'));
    try {
      const a = client({ baseUrl: zstd.url, retries: 3 });
      await assert.rejects(a.request({ method: 'GET', path: '/v2/x' }), (err: Error) => {
        assert.match(
          err.message,
          /encoded as "zstd", which ws did not ask for \(it reads gzip and br\)/,
        );
        assert.doesNotMatch(err.message, /attempts/);
        return true;
      });
      await a.close();
      const b = client({ baseUrl: broken.url, retries: 3 });
      await assert.rejects(
        b.request({ method: 'GET', path: '/v2/x' }),
        /The answer's gzip body does not decode/,
      );
      await b.close();
    } finally {
      await zstd.close();
      await broken.close();
    }
  });
});
