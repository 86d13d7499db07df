// `ws` behind a proxy, as in an office or a CI network: HTTP_PROXY carries plain-http
// requests (sent to the proxy in absolute form), HTTPS_PROXY tunnels https ones (CONNECT),
// with the credentials the proxy URL holds, and NO_PROXY leaves hosts out. The proxy here
// runs on 127.0.0.1 and records what passes through it; the service's host name
// (api.ws-proxy.test) is one only the proxy resolves (to 127.0.0.1), as a proxy resolves
// names a client cannot. The built ws is spawned as a user runs it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.ts';
import { BIN, wsEnv } from '../helpers/spawned.ts';

const HOST = 'api.ws-proxy.test';
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

interface Passed {
  method: string;
  target: string;
  host: string | undefined;
  auth: string | undefined;
  bytes: string;
}

/** A forward proxy on 127.0.0.1 that records each request or tunnel, then passes it on. */
async function recordingProxy(opts: { requireAuth?: string } = {}) {
  const passed: Passed[] = [];
  const server: Server = createHttpServer((req, res) => {
    // Absolute form: GET http://host:port/path HTTP/1.1.
    const url = new URL(req.url ?? '');
    passed.push({
      method: req.method ?? '',
      target: req.url ?? '',
      host: req.headers.host,
      auth: req.headers['proxy-authorization'],
      bytes: '',
    });
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const out = request(
      {
        host: '127.0.0.1',
        port: url.port,
        method: req.method,
        path: url.pathname + url.search,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(out);
  });
  server.on('connect', (req, client, head) => {
    const seen: Passed = {
      method: 'CONNECT',
      target: req.url ?? '',
      host: req.headers.host,
      auth: req.headers['proxy-authorization'],
      bytes: '',
    };
    passed.push(seen);
    if (opts.requireAuth !== undefined && seen.auth !== opts.requireAuth) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const port = Number((req.url ?? '').split(':').pop());
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      client.on('data', (c: Buffer) => {
        seen.bytes += c.toString('latin1');
      });
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    passed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function ws(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const full = wsEnv(join(dir, 'config'), env);
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY'])
      for (const n of [name, name.toLowerCase()]) if (env[n] === undefined) delete full[n];
    const child = spawn(process.execPath, [BIN, ...args], {
      env: full,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let dir: string;
let sandbox: RunningSandbox;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ws-proxy-'));
  sandbox = await startSandbox({ port: 0, seed: 'demo' });
});
after(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTP_PROXY: plain http through a proxy', () => {
  it('sends each request to the proxy in absolute form, the key to the service only', async () => {
    const proxy = await recordingProxy();
    try {
      const port = new URL(sandbox.url).port;
      const r = await ws(['records', 'list', 'contacts', '--limit', '2', '--json'], {
        WS_BASE_URL: `http://${HOST}:${port}`,
        WS_TEAM_ID: sandbox.teamId,
        WS_API_KEY: sandbox.apiKey,
        HTTP_PROXY: proxy.url,
        NO_PROXY: 'other.example,10.0.0.0/8',
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal((JSON.parse(r.stdout) as unknown[]).length, 2);
      assert.equal(proxy.passed.length, 1);
      assert.equal(
        proxy.passed[0]!.target,
        `http://${HOST}:${port}/v2/prism/${sandbox.teamId}/contact?limit=2`,
      );
      assert.equal(proxy.passed[0]!.host, `${HOST}:${port}`);
      assert.equal(proxy.passed[0]!.auth, undefined);
    } finally {
      await proxy.close();
    }
  });

  it('is not used for a loopback address (a local sandbox), and --debug says when one is', async () => {
    const proxy = await recordingProxy();
    try {
      const direct = await ws(['records', 'count', 'contacts', '--debug'], {
        WS_BASE_URL: sandbox.url,
        WS_TEAM_ID: sandbox.teamId,
        WS_API_KEY: sandbox.apiKey,
        HTTP_PROXY: proxy.url,
      });
      assert.equal(direct.code, 0, direct.stderr);
      assert.doesNotMatch(direct.stderr, /via proxy/);
      assert.equal(proxy.passed.length, 0);
      const port = new URL(sandbox.url).port;
      const via = await ws(['records', 'count', 'contacts', '--debug'], {
        WS_BASE_URL: `http://${HOST}:${port}`,
        WS_TEAM_ID: sandbox.teamId,
        WS_API_KEY: sandbox.apiKey,
        http_proxy: `http://someone:s3cret@${proxy.url.slice('http://'.length)}`,
      });
      assert.equal(via.code, 0, via.stderr);
      assert.match(via.stderr, new RegExp(`\\(attempt 1/4\\) via proxy ${proxy.url}\\n`));
      assert.ok(!via.stderr.includes('s3cret'), 'the proxy password is never shown');
      assert.equal(
        proxy.passed[0]!.auth,
        `Basic ${Buffer.from('someone:s3cret').toString('base64')}`,
      );
    } finally {
      await proxy.close();
    }
  });

  it('names the proxy when it cannot be reached, and a proxy URL that is not one', async () => {
    const proxy = await recordingProxy();
    const gone = proxy.url;
    await proxy.close();
    const env = {
      WS_BASE_URL: `http://${HOST}:${new URL(sandbox.url).port}`,
      WS_TEAM_ID: sandbox.teamId,
      WS_API_KEY: sandbox.apiKey,
    };
    const r = await ws(['records', 'count', 'contacts', '--retries', '0'], {
      ...env,
      HTTP_PROXY: gone,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`through the proxy ${gone} \\(connection refused\\)`));
    assert.match(r.stderr, /Check that the proxy is running/);
    const socks = await ws(['records', 'count', 'contacts'], {
      ...env,
      HTTP_PROXY: 'socks5://127.0.0.1:1080',
    });
    assert.equal(socks.code, 2, socks.stderr);
    assert.match(
      socks.stderr,
      /HTTP_PROXY names a socks5 proxy; ws speaks to http:\/\/ and https:\/\/ proxies/,
    );
  });
});

describe('HTTPS_PROXY: https through a tunnel', {
  skip: !hasOpenssl && 'openssl is not installed',
}, () => {
  it('opens a CONNECT tunnel with the proxy credentials; the proxy sees no request, no key', async () => {
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        `/CN=${HOST}`,
        '-addext',
        `subjectAltName=DNS:${HOST}`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(made.status, 0, made.stderr);
    const keys: string[] = [];
    const service = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (req, res) => {
        keys.push(String(req.headers['x-api-key']));
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_tunnel' });
        res.end(JSON.stringify({ total: 7 }));
      },
    );
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const port = (service.address() as AddressInfo).port;
    const auth = `Basic ${Buffer.from('ci:pa@ss').toString('base64')}`;
    const proxy = await recordingProxy({ requireAuth: auth });
    const key = 'wsk_test_tunnel_0123456789abcdef';
    const env = {
      WS_BASE_URL: `https://${HOST}:${port}`,
      WS_TEAM_ID: '8f1e6a52-3c1d-4b7e-9a5f-2d4c6b8e0f11',
      WS_API_KEY: key,
      NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'),
    };
    try {
      const r = await ws(['records', 'count', 'contacts'], {
        ...env,
        HTTPS_PROXY: `http://ci:pa%40ss@${proxy.url.slice('http://'.length)}`,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), '7');
      assert.deepEqual(keys, [key]);
      assert.equal(proxy.passed.length, 1);
      assert.equal(proxy.passed[0]!.method, 'CONNECT');
      assert.equal(proxy.passed[0]!.target, `${HOST}:${port}`);
      assert.ok(proxy.passed[0]!.bytes.length > 0, 'bytes went through the tunnel');
      assert.ok(!proxy.passed[0]!.bytes.includes(key), 'the proxy saw only encrypted bytes');
      // Without the credentials the proxy refuses the tunnel: named, not retried.
      const refused = await ws(['records', 'count', 'contacts'], {
        ...env,
        HTTPS_PROXY: proxy.url,
      });
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(
        refused.stderr,
        new RegExp(`The proxy ${proxy.url} answered 407 to the tunnel it was asked for`),
      );
      assert.match(refused.stderr, /Check HTTPS_PROXY or HTTP_PROXY \(and the credentials in it\)/);
      assert.equal(proxy.passed.length, 2, 'a refused tunnel is not asked for again');
      assert.deepEqual(keys, [key]);
    } finally {
      await proxy.close();
      await new Promise((resolve) => service.close(resolve));
    }
  });
});
