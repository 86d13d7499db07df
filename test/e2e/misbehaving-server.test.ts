// `ws` against a local server that misbehaves as no API should: an answer of hundreds of
// megabytes, a 200 that is not JSON, a redirect to another host. Each is a clear error and
// exit 1; the huge answer is abandoned at the cap (so memory stays bounded); a redirect is
// not followed, so the API key never leaves the profile's origin.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { tempConfigDir } from '../helpers/run.ts';

const BIN = new URL('../../bin/ws.js', import.meta.url).pathname;
const TEAM = '8f1e6a52-3c1d-4b7e-9a5f-2d4c6b8e0f11';
const KEY = 'wsk_test_0123456789abcdef';

let dir: string;
let cleanup: () => void;

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, seen };
}

function ws(baseUrl: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        ...process.env,
        WS_CONFIG_DIR: dir,
        FORCE_COLOR: '0',
        WS_PROFILE: '',
        WS_BASE_URL: baseUrl,
        WS_API_KEY: KEY,
        WS_TEAM_ID: TEAM,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('ws against a misbehaving server', () => {
  before(() => {
    ({ dir, cleanup } = tempConfigDir());
  });
  after(() => cleanup());

  it('an answer streamed past the cap: exit 1, a clear error, the rest never read', async () => {
    const total = 400 * 1024 * 1024;
    let sent = 0;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const { url, server } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_huge' });
      res.write('{"data":[');
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end(']}');
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    try {
      const r = await ws(url, ['records', 'list', 'contacts', '--json']);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /larger than 64 MiB, the most ws reads \(request id req_huge\)/);
      assert.ok(sent < total / 2, `the server sent ${sent} bytes before ws hung up`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('a declared Content-Length over the cap is refused before reading', async () => {
    const { url, server } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 31) });
      res.write('{');
    });
    try {
      const r = await ws(url, ['api', 'GET', '/v2/prism/{teamId}/contact']);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /larger than 64 MiB/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('a 200 that is not JSON: exit 1, naming the request id and the first bytes', async () => {
    const { url, server } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'x-request-id': 'req_html' });
      res.end('<html><body>Welcome to the proxy</body></html>');
    });
    try {
      const r = await ws(url, ['records', 'list', 'contacts']);
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /answered 200 to GET \/v2\/prism\/.*contact.* with a body that is not JSON \(request id req_html\); it begins "<html><body>Welcome/,
      );
      assert.doesNotMatch(r.stderr, /Unexpected error/);
    } finally {
      server.close();
    }
  });

  it('a redirect names its Location, is not followed, and the key stays with the origin', async () => {
    const elsewhere = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":[],"has_more":false,"next_cursor":null}');
    });
    const { url, server } = await serve((_req, res) => {
      res.writeHead(301, { location: `${elsewhere.url}/v2/moved` });
      res.end();
    });
    try {
      for (const args of [
        ['records', 'list', 'contacts'],
        ['records', 'create', 'contacts', '--data', '{"name":"Ada"}'],
      ]) {
        const r = await ws(url, args);
        assert.equal(r.code, 1, r.stderr);
        assert.match(
          r.stderr,
          new RegExp(
            `301 Moved Permanently, redirecting to ${elsewhere.url}/v2/moved; ws does not follow redirects`,
          ),
        );
      }
      assert.equal(elsewhere.seen.length, 0, 'nothing was sent to the Location');
    } finally {
      server.close();
      elsewhere.server.close();
    }
  });
});
