// ws webhooks listen, spawned from the built binary as a developer or a CI job runs it,
// against a sandbox: the readiness line, forwarding the raw bytes and headers to a handler
// (whose answer goes back to the service), signatures checked, --events, clean-up on
// SIGINT and SIGTERM, after kill -9 by the next run, --public-url and --webhook; and the
// refusals of a hosted service and of a sandbox that delivers only to public addresses.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { request as httpRequest, createServer as httpServer } from 'node:http';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { hostLabel } from '../../src/commands/webhooks/listen-setup.ts';
import { runWs, tempConfigDir } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox, writeProfiles } from '../helpers/sandbox.ts';
import { type Spawned, spawnWs, wsEnv } from '../helpers/spawned.ts';
import { startStub } from '../helpers/stub-server.ts';
import {
  freePort,
  hmac,
  signatureOk,
  startReceiver,
  type TestReceiver,
} from '../helpers/webhook-receiver.ts';

let t: TestSandbox;
let env: Record<string, string>;
let handler: TestReceiver;
let files: { dir: string; cleanup: () => void };
const running: Spawned[] = [];

before(async () => {
  t = await startTestSandbox();
  env = t.env as Record<string, string>;
  files = tempConfigDir();
});
after(async () => {
  files.cleanup();
  await t.stop();
});
beforeEach(async () => {
  t.sandbox.reset();
  handler = await startReceiver(() => ({ status: 200, body: 'handled' }));
});
afterEach(async () => {
  for (const s of running.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await s.exited;
  }
  await handler.close();
});

function listen(args: string[]): Spawned {
  const s = spawnWs(['webhooks', 'listen', ...args], wsEnv(t.configDir));
  running.push(s);
  return s;
}

// biome-ignore lint/suspicious/noExplicitAny: lines of NDJSON, read field by field
type Line = Record<string, any>;
const json = (s: Spawned) => s.lines.map((l) => JSON.parse(l) as Line);
const ready = async (s: Spawned): Promise<Line> =>
  JSON.parse(await s.waitFor((l) => l.includes('"type":"ready"'), 'the ready line'));

async function webhooks(): Promise<{ id: string; name: string; url: string }[]> {
  const r = await runWs(['webhooks', 'list', '--json'], { env });
  return JSON.parse(r.stdout);
}

describe('ws webhooks listen against a sandbox', () => {
  it('registers itself, forwards each delivery byte for byte, and removes the webhook on Ctrl-C', async () => {
    const secretFile = join(files.dir, 'listen-secret.txt');
    const s = listen([
      '--forward-to',
      handler.url,
      '--format',
      'ndjson',
      '--print-secret',
      '--secret-file',
      secretFile,
    ]);
    const r = await ready(s);
    // For CI: the first line says it is ready, with the webhook and (asked for) the secret.
    assert.equal(json(s)[0]!.type, 'ready');
    assert.equal(r.webhook_name, `ws-listen-${hostLabel()}-${s.child.pid}`);
    assert.match(r.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.equal(r.webhook_url, r.url);
    assert.equal(r.forward_to, handler.url);
    assert.match(r.secret, /^whsec_/);
    assert.equal(readFileSync(secretFile, 'utf8').trim(), r.secret);
    assert.equal(statSync(secretFile).mode & 0o777, 0o600);
    const [own] = await webhooks();
    assert.equal(own!.id, r.webhook_id);
    assert.equal(
      (await runWs(['webhooks', 'get', own!.id, '--json'], { env })).stdout.includes(
        '"verified": true',
      ),
      true,
    );

    const ping = await runWs(['webhooks', 'ping', r.webhook_id, '--wait', '--json'], { env });
    assert.equal(ping.code, 0, ping.stderr);
    const deliveryId = JSON.parse(ping.stdout).delivery_id;
    const line = JSON.parse(await s.waitFor((l) => l.includes('"type":"delivery"')));
    assert.equal(line.event, 'webhook.test');
    assert.equal(line.delivery_id, deliveryId);
    assert.equal(line.signature, 'valid');
    assert.equal(line.forward.status, 200);
    assert.equal(line.payload.id, deliveryId);

    // The handler got the bytes the service logged, with the delivery headers, and a
    // signature an HMAC made here accepts with the secret listen printed.
    const got = handler.posts()[0]!;
    const detail = JSON.parse(
      (await runWs(['deliveries', 'get', deliveryId, '--webhook', r.webhook_id, '--json'], { env }))
        .stdout,
    );
    assert.equal(got.body.toString('utf8'), detail.attempt_history[0].request_body);
    assert.equal(got.headers['x-service-delivery-id'], deliveryId);
    assert.equal(got.headers['x-service-webhook-id'], r.webhook_id);
    assert.equal(got.headers['x-service-event'], 'webhook.test');
    assert.equal(got.headers['content-type'], 'application/json');
    const [, ts, v1] = /^t=(\d+),v1=(\w+)$/.exec(String(got.headers['x-service-signature']))!;
    assert.equal(v1, hmac(r.secret, ts!, got.body));
    // The handler's answer went back to the service.
    assert.equal(detail.attempt_history[0].response_body, 'handled');

    s.child.kill('SIGINT');
    assert.equal(await s.exited, 130);
    const last = json(s).at(-1)!;
    assert.deepEqual(last, {
      type: 'stopped',
      received: 1,
      rejected: 0,
      skipped: 0,
      webhook_removed: true,
    });
    assert.deepEqual(await webhooks(), []);
    assert.match(
      s.stderr(),
      new RegExp(`Stopped: 1 delivery received; removed webhook ${r.webhook_name}`),
    );
    assert.ok(!s.stderr().includes(r.secret), 'the secret is only on stdout, as asked');
  });

  it("answers the service with the handler's status: a failing handler fails the delivery", async () => {
    handler.answer = () => ({ status: 500, body: 'handler broke' });
    const s = listen(['--forward-to', handler.url, '--format', 'ndjson']);
    const r = await ready(s);
    assert.equal(r.secret, undefined, 'no secret without --print-secret');
    const ping = await runWs(['webhooks', 'ping', r.webhook_id, '--wait'], { env });
    assert.equal(ping.code, 1);
    assert.match(ping.stderr, /answered 500/);
    const line = JSON.parse(await s.waitFor((l) => l.includes('"type":"delivery"')));
    assert.equal(line.forward.status, 500);
    assert.equal(line.answered, 500);
    s.child.kill('SIGTERM');
    assert.equal(await s.exited, 130);
    assert.deepEqual(await webhooks(), []);
  });

  it('a handler that cannot be reached makes listen answer 502', async () => {
    await handler.close();
    const s = listen(['--forward-to', handler.url, '--format', 'ndjson']);
    const r = await ready(s);
    await runWs(['webhooks', 'ping', r.webhook_id, '--wait'], { env });
    const line = JSON.parse(await s.waitFor((l) => l.includes('"type":"delivery"')));
    assert.equal(line.answered, 502);
    assert.equal(line.forward.status, null);
    assert.match(line.forward.error, /connection refused/);
    handler = await startReceiver();
  });

  it('refuses (400) and does not forward a delivery whose signature is wrong', async () => {
    const s = listen(['--forward-to', handler.url, '--format', 'ndjson', '--print-secret']);
    const r = await ready(s);
    const body =
      '{"id":"x","webhook_id":"w","event":"webhook.test","occurred_at":"2026-01-01T00:00:00Z","data":{}}';
    const t0 = Math.floor(Date.now() / 1000);
    const send = (signature: string) =>
      fetch(r.url, { method: 'POST', headers: { 'x-service-signature': signature }, body });
    const wrong = await send(
      `t=${t0},v1=${hmac('whsec_wrongwrongwrongwrongwrongwrong00', t0, body)}`,
    );
    assert.equal(wrong.status, 400);
    const old = t0 - 1000;
    const stale = await send(`t=${old},v1=${hmac(r.secret, old, body)}`);
    assert.equal(stale.status, 400);
    assert.match(await stale.text(), /invalid signature: signed 1\d{3} s ago/);
    const right = await send(`t=${t0},v1=${hmac(r.secret, t0, body)}`);
    assert.equal(right.status, 200);
    assert.equal(handler.posts().length, 1, 'only the right one was forwarded');
    await s.waitFor((l) => l.includes('"signature":"valid"'));
    const deliveries = json(s).filter((l) => l.type === 'delivery');
    assert.deepEqual(
      deliveries.map((d) => [d.signature, d.answered]),
      [
        ['invalid', 400],
        ['invalid', 400],
        ['valid', 200],
      ],
    );
    s.child.kill('SIGINT');
    await s.exited;
    assert.deepEqual(json(s).at(-1), {
      type: 'stopped',
      received: 1,
      rejected: 2,
      skipped: 0,
      webhook_removed: true,
    });
  });

  it('refuses a delivery with two signatures, whatever their order', async () => {
    const s = listen(['--forward-to', handler.url, '--format', 'ndjson', '--print-secret']);
    const r = await ready(s);
    const body =
      '{"id":"y","webhook_id":"w","event":"webhook.test","occurred_at":"2026-01-01T00:00:00Z","data":{}}';
    const t0 = Math.floor(Date.now() / 1000);
    const good = `t=${t0},v1=${hmac(r.secret, t0, body)}`;
    const bad = `t=${t0 - 7},v1=${hmac('whsec_wrongwrongwrongwrongwrongwrong00', t0 - 7, body)}`;
    /** POST with the signature header sent once per value (node:http keeps them apart). */
    const send = (signature: string | string[]) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(r.url, {
          method: 'POST',
          headers: { 'x-service-signature': signature, 'content-type': 'application/json' },
        });
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    for (const signature of [[good, bad], [bad, good], `${good}, ${bad}`, `${bad}, ${good}`]) {
      const answer = await send(signature);
      assert.equal(answer.status, 400, JSON.stringify(signature));
      assert.match(answer.text, /2 X-Service-Signature headers|2 t= parts/);
    }
    assert.equal((await send(good)).status, 200);
    assert.equal(handler.posts().length, 1, 'only the delivery with one signature was forwarded');
    s.child.kill('SIGINT');
    await s.exited;
  });

  it('--events leaves other events out: acknowledged, not forwarded, not printed', async () => {
    const s = listen(['--forward-to', handler.url, '--events', 'record.*', '--format', 'ndjson']);
    const r = await ready(s);
    assert.deepEqual(r.events, ['record.*']);
    const ping = await runWs(['webhooks', 'ping', r.webhook_id, '--wait'], { env });
    assert.equal(ping.code, 0, ping.stderr);
    assert.equal(
      handler.posts().length,
      0,
      JSON.stringify(handler.posts().map((p) => [p.url.href, p.headers, p.body.toString()])),
    );
    s.child.kill('SIGINT');
    await s.exited;
    assert.equal(json(s).filter((l) => l.type === 'delivery').length, 0);
    assert.equal(json(s).at(-1)!.skipped, 1);
  });

  it('--format table: one readable line per event, and the ready line on stderr', async () => {
    const s = listen(['--forward-to', handler.url, '--format', 'table']);
    await s.waitFor((l) => l.includes('handshake'), 'the handshake line');
    assert.match(
      s.stderr(),
      /Ready: listening on http:\/\/127\.0\.0\.1:\d+\/ as webhook ws-listen-/,
    );
    const id = (await webhooks())[0]!.id;
    await runWs(['webhooks', 'ping', id, '--wait'], { env });
    const line = await s.waitFor((l) => l.includes('webhook.test'));
    // Piped, nothing is cut: the delivery id whole, last.
    assert.match(line, /^\S+\s+webhook\.test\s+✓ signature ok\s+→ 200 in \d+ms\s+[0-9a-f-]{36}$/);
    s.child.kill('SIGINT');
    assert.equal(await s.exited, 130);
    assert.doesNotMatch(s.stderr(), /error:/);
  });

  it('piped without --format: a tsv row per delivery; --print-secret is the first line', async () => {
    const s = listen(['--forward-to', handler.url, '--print-secret']);
    await s.waitForStderr(/Ready: listening/);
    const secret = await s.waitFor(() => true, 'the secret');
    assert.match(secret, /^whsec_[\w-]{32}$/);
    assert.equal(s.lines[0], secret);
    const id = (await webhooks())[0]!.id;
    await runWs(['webhooks', 'ping', id, '--wait'], { env });
    const row = (await s.waitFor((l) => l.includes('webhook.test'))).split('\t');
    assert.deepEqual(
      [row[0], row[2], row[4], row[5], row[6], row[7]],
      ['delivery', 'webhook.test', id, 'valid', '200', '200'],
    );
    // It is the webhook's secret: the handler's copy of the delivery is signed with it.
    const got = handler.posts()[0]!;
    assert.ok(signatureOk(String(got.headers['x-service-signature']), got.body, secret));
    s.child.kill('SIGINT');
    assert.equal(await s.exited, 130);
    assert.ok(!s.stderr().includes(secret));
  });

  it('after kill -9 the webhook stays; the next listen removes it', async () => {
    const first = listen(['--format', 'ndjson']);
    const r1 = await ready(first);
    first.child.kill('SIGKILL');
    await first.exited;
    assert.deepEqual(
      (await webhooks()).map((w) => w.id),
      [r1.webhook_id],
    );
    const second = listen(['--format', 'ndjson']);
    const r2 = await ready(second);
    assert.match(
      second.stderr(),
      new RegExp(
        `Removed webhook ${r1.webhook_name}, left by a \`ws webhooks listen\` that no longer runs`,
      ),
    );
    assert.deepEqual(
      (await webhooks()).map((w) => w.id),
      [r2.webhook_id],
    );
    second.child.kill('SIGTERM');
    await second.exited;
    assert.deepEqual(await webhooks(), []);
  });

  it('leaves alone a listen webhook whose process still runs, and other webhooks', async () => {
    const first = listen(['--format', 'ndjson']);
    const r1 = await ready(first);
    const other = await runWs(
      ['webhooks', 'create', '--name', 'ws-listen-elsewhere-1', '--url', handler.url, '--no-wait'],
      { env },
    );
    assert.equal(other.code, 0, other.stderr);
    const second = listen(['--format', 'ndjson']);
    await ready(second);
    assert.doesNotMatch(second.stderr(), /Removed webhook/);
    second.child.kill('SIGINT');
    await second.exited;
    const left = (await webhooks()).map((w) => w.name).sort();
    assert.deepEqual(left, [r1.webhook_name, 'ws-listen-elsewhere-1'].sort());
    first.child.kill('SIGINT');
    await first.exited;
  });

  it('--public-url registers that address (a tunnel to --port)', async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}/`;
    const s = listen(['--public-url', publicUrl, '--port', String(port), '--format', 'ndjson']);
    const r = await ready(s);
    assert.equal(r.webhook_url, publicUrl);
    assert.equal(r.url, publicUrl);
    s.child.kill('SIGINT');
    await s.exited;
    assert.deepEqual(await webhooks(), []);
  });

  it('--webhook listens for an existing webhook with its --secret-file, and keeps it', async () => {
    const port = await freePort();
    const secretFile = join(files.dir, 'existing-secret.txt');
    const created = await runWs(
      [
        'webhooks',
        'create',
        '--name',
        'mine',
        '--url',
        `http://127.0.0.1:${port}/`,
        '--secret-file',
        secretFile,
        '--no-wait',
        '--json',
      ],
      { env },
    );
    assert.equal(created.code, 0, created.stderr);
    const s = listen([
      '--webhook',
      'mine',
      '--secret-file',
      secretFile,
      '--port',
      String(port),
      '--forward-to',
      handler.url,
      '--format',
      'ndjson',
    ]);
    const r = await ready(s);
    assert.equal(r.webhook_name, 'mine');
    const verify = await runWs(['webhooks', 'verify', 'mine', '--wait'], { env });
    assert.equal(verify.code, 0, verify.stderr);
    const ping = await runWs(['webhooks', 'ping', 'mine', '--wait'], { env });
    assert.equal(ping.code, 0, ping.stderr);
    assert.ok(
      signatureOk(
        String(handler.posts()[0]!.headers['x-service-signature']),
        handler.posts()[0]!.body,
        readFileSync(secretFile, 'utf8').trim(),
      ),
    );
    s.child.kill('SIGINT');
    await s.exited;
    assert.equal(json(s).at(-1)!.webhook_removed, false);
    assert.deepEqual(
      (await webhooks()).map((w) => w.name),
      ['mine'],
    );
  });

  it('--webhook without its secret is a usage error, before anything starts', async () => {
    const r = await runWs(['webhooks', 'listen', '--webhook', 'mine'], { env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /A webhook secret is needed to check the deliveries of the webhook/);
  });

  it('a port in use is a conflict (exit 6)', async () => {
    const blocker = await startReceiver();
    const port = new URL(blocker.url).port;
    try {
      const r = await runWs(['webhooks', 'listen', '--port', port], { env });
      assert.equal(r.code, 6);
      assert.match(r.stderr, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is taken`));
      assert.deepEqual(await webhooks(), []);
    } finally {
      await blocker.close();
    }
  });
});

describe('ws webhooks listen where 127.0.0.1 cannot be reached', () => {
  it('a hosted service (no sandbox there) needs --public-url or --webhook (exit 2)', async () => {
    const stub = await startStub(() => ({
      status: 404,
      body: { error: { code: 'not_found', message: 'No such endpoint' } },
    }));
    const { dir, cleanup } = tempConfigDir();
    try {
      writeProfiles(
        dir,
        { hosted: { base_url: stub.url, team_id: t.sandbox.teamId, api_key: 'k', rate_limit: 0 } },
        'hosted',
      );
      const r = await runWs(['webhooks', 'listen'], { env: { WS_CONFIG_DIR: dir } });
      assert.equal(r.code, 2);
      assert.match(
        r.stderr,
        /This service delivers webhooks only to public addresses, so it cannot reach a listener on 127\.0\.0\.1/,
      );
      assert.match(r.stderr, /--public-url https:\/\/… --port N/);
      assert.match(r.stderr, /--webhook ID\|NAME --secret-file F/);
      assert.deepEqual(
        stub.requests.map((q) => `${q.method} ${q.url}`),
        ['GET /__sandbox/health'],
      );
      const noPort = await runWs(['webhooks', 'listen', '--public-url', 'https://x.example/'], {
        env: { WS_CONFIG_DIR: dir },
      });
      assert.equal(noPort.code, 2);
      assert.match(
        noPort.stderr,
        /--public-url needs --port: the local port your tunnel forwards to/,
      );
    } finally {
      cleanup();
      await stub.close();
    }
  });

  it('a hosted service with --public-url: the tunnel carries the handshake and deliveries; kill -9 leaves nothing for long', async () => {
    // "Hosted": the sandbox's API behind a proxy that hides its control endpoints, so ws
    // cannot tell it is a sandbox. The "tunnel": a TCP relay from a public port to --port.
    const hosted = httpServer((req, res) => {
      if (req.url!.startsWith('/__sandbox/')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"not_found","message":"No such endpoint"}}');
        return;
      }
      const upstream = new URL(t.sandbox.url);
      const out = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(out);
    });
    await new Promise<void>((resolve) => hosted.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    const tunnel = createServer((socket) => {
      const local = connect(port, '127.0.0.1');
      socket.pipe(local).pipe(socket);
      local.on('error', () => socket.destroy());
      socket.on('error', () => local.destroy());
    });
    await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
    const publicUrl = `http://127.0.0.1:${(tunnel.address() as { port: number }).port}/`;
    const { dir, cleanup } = tempConfigDir();
    try {
      writeProfiles(
        dir,
        {
          hosted: {
            base_url: `http://127.0.0.1:${(hosted.address() as { port: number }).port}`,
            team_id: t.sandbox.teamId,
            api_key: t.sandbox.apiKey,
            rate_limit: 0,
          },
        },
        'hosted',
      );
      const hostedEnv = wsEnv(dir);
      const args = ['--public-url', publicUrl, '--port', String(port), '--forward-to', handler.url];
      const first = spawnWs(['webhooks', 'listen', ...args, '--format', 'ndjson'], hostedEnv);
      running.push(first);
      const r1 = await ready(first);
      assert.equal(r1.webhook_url, publicUrl);
      first.child.kill('SIGKILL');
      await first.exited;

      // The next run, on the same machine, removes the webhook the killed one left.
      const s = spawnWs(
        ['webhooks', 'listen', ...args, '--format', 'ndjson', '--print-secret'],
        hostedEnv,
      );
      running.push(s);
      const r = await ready(s);
      assert.match(s.stderr(), new RegExp(`Removed webhook ${r1.webhook_name}, left by`));
      assert.deepEqual(
        (await webhooks()).map((w) => [w.id, w.url]),
        [[r.webhook_id, publicUrl]],
      );
      const ping = await runWs(['webhooks', 'ping', r.webhook_id, '--wait'], {
        env: { WS_CONFIG_DIR: dir },
      });
      assert.equal(ping.code, 0, ping.stderr);
      const line = JSON.parse(await s.waitFor((l) => l.includes('"type":"delivery"')));
      assert.equal(line.signature, 'valid');
      assert.equal(line.forward.status, 200);
      const got = handler.posts()[0]!;
      assert.ok(signatureOk(String(got.headers['x-service-signature']), got.body, r.secret));

      s.child.kill('SIGTERM');
      assert.equal(await s.exited, 130);
      assert.equal(json(s).at(-1)!.webhook_removed, true);
      assert.deepEqual(await webhooks(), []);
    } finally {
      cleanup();
      tunnel.close();
      hosted.closeAllConnections();
      hosted.close();
    }
  });

  it('a sandbox with --strict-webhook-urls refuses 127.0.0.1, and listen explains', async () => {
    const strict = await startTestSandbox({ webhooks: { strictAddresses: true } });
    try {
      const r = await runWs(['webhooks', 'listen'], { env: strict.env as Record<string, string> });
      assert.equal(r.code, 2);
      assert.match(
        r.stderr,
        /The service refused a webhook to http:\/\/127\.0\.0\.1:\d+\/: url is refused/,
      );
      assert.match(r.stderr, /--strict-webhook-urls/);
    } finally {
      await strict.stop();
    }
  });
});
