// `ws` over https, as against the hosted service: the one-shot transport speaks HTTP/1.1 on
// a TLS connection that names the host (SNI) and checks its certificate. A server with a
// certificate made for the test is trusted through NODE_EXTRA_CA_CERTS, as users of a
// private authority do; without it, the certificate is refused at once, with a hint, and the
// key is never sent. Runs the built ws (`npm run build`); needs openssl to make the
// certificate.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, wsEnv } from '../helpers/spawned.ts';

const TEAM = '8f1e6a52-3c1d-4b7e-9a5f-2d4c6b8e0f11';
const KEY = 'wsk_test_https_0123456789abcdef';
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
if (!hasOpenssl) console.log('# skipped: openssl is not installed (it makes the test certificate)');

let dir: string;
let server: Server;
let url: string;
const seen: {
  servername: string | false;
  alpn: string | false | null;
  key: string;
  path: string;
}[] = [];

function ws(args: string[], extra: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const env = wsEnv(join(dir, 'config'), {
      WS_BASE_URL: url,
      WS_API_KEY: KEY,
      WS_TEAM_ID: TEAM,
      ...extra,
    });
    if (extra.NODE_EXTRA_CA_CERTS === undefined) delete env.NODE_EXTRA_CA_CERTS;
    const child = spawn(process.execPath, [BIN, ...args], {
      env,
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

describe('ws over https', { skip: !hasOpenssl && 'openssl is not installed' }, () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ws-https-'));
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
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ],
      { encoding: 'utf8' },
    );
    assert.equal(made.status, 0, made.stderr);
    server = createServer(
      {
        key: readFileSync(join(dir, 'key.pem')),
        cert: readFileSync(join(dir, 'cert.pem')),
        ALPNProtocols: ['http/1.1'],
      },
      (req, res) => {
        const tls = req.socket as import('node:tls').TLSSocket;
        seen.push({
          servername: (tls as unknown as { servername: string | false }).servername,
          alpn: tls.alpnProtocol,
          key: String(req.headers['x-api-key']),
          path: req.url ?? '',
        });
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_tls' });
        res.end(JSON.stringify({ total: 7 }));
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://localhost:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server?.close();
    server?.closeAllConnections();
    rmSync(dir, { recursive: true, force: true });
  });

  it('trusts the certificate NODE_EXTRA_CA_CERTS names, names the host, and gets the answer', async () => {
    seen.length = 0;
    const r = await ws(['auth', 'status', '--json'], {
      NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, 'ok');
    assert.equal(seen.length, 1);
    assert.deepEqual(seen[0], {
      servername: 'localhost',
      alpn: 'http/1.1',
      key: KEY,
      path: `/v2/prism/${TEAM}/contact/count`,
    });
  });

  it('refuses a certificate it cannot trust at once, says what to do, and sends nothing', async () => {
    seen.length = 0;
    const r = await ws(['auth', 'status'], {});
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      // Node 24 adds a word about --use-system-ca to its own message.
      /Could not reach https:\/\/localhost:\d+ \(its certificate is not trusted: self-signed certificate[;)].*: GET /,
    );
    assert.match(r.stderr, /NODE_EXTRA_CA_CERTS/);
    assert.doesNotMatch(r.stderr, /after \d attempts/);
    assert.equal(seen.length, 0);
  });
});
