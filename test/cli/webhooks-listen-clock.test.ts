// `ws webhooks listen` and the sender's clock. A sandbox signs deliveries with its own clock,
// which POST /__sandbox/clock/advance moves forward (an automation's wait is passed that
// way): listen checks their timestamps against the sandbox's clock, read at start and again
// when one is off, so an hour's advance does not make it refuse every delivery ("signed
// 3600 s in the future"). Against a service whose clock it cannot read, the refusal names
// the clock skew and its size.
import assert from 'node:assert/strict';
import { request as httpRequest, createServer as httpServer } from 'node:http';
import { after, afterEach, before, describe, it } from 'node:test';
import { runWs, tempConfigDir } from '../helpers/run.ts';
import {
  sandboxCall,
  startTestSandbox,
  type TestSandbox,
  writeProfiles,
} from '../helpers/sandbox.ts';
import { type Spawned, spawnWs, wsEnv } from '../helpers/spawned.ts';
import { hmac } from '../helpers/webhook-receiver.ts';

let t: TestSandbox;
let env: Record<string, string>;
const running: Spawned[] = [];

before(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  env = t.env as Record<string, string>;
});
after(() => t.stop());
afterEach(async () => {
  for (const s of running.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await s.exited;
  }
});

// biome-ignore lint/suspicious/noExplicitAny: lines of NDJSON, read field by field
type Line = Record<string, any>;
const lines = (s: Spawned) => s.lines.map((l) => JSON.parse(l) as Line);
const deliveries = (s: Spawned) => lines(s).filter((l) => l.type === 'delivery');

function listen(args: string[], configDir = t.configDir): Spawned {
  const s = spawnWs(['webhooks', 'listen', '--format', 'ndjson', ...args], wsEnv(configDir));
  running.push(s);
  return s;
}

describe('ws webhooks listen and the sandbox clock', () => {
  it("an automation's webhook after the clock moved an hour: every delivery's signature is valid", async () => {
    const s = listen([]);
    const ready = JSON.parse(await s.waitFor((l) => l.includes('"type":"ready"'), 'ready'));
    const created = await runWs(
      [
        'automations',
        'create',
        'deal',
        '--name',
        'Won, then a day',
        '--on-change',
        'stage:to=won',
        '--wait',
        '1h',
        '--webhook',
        ready.webhook_id,
      ],
      { env },
    );
    assert.equal(created.code, 0, created.stderr);
    const deal = (
      await runWs(
        ['records', 'list', 'deals', '--where', 'stage=lead', '--limit', '1', '--fields', 'id'],
        {
          env,
        },
      )
    ).stdout.trim();
    const updated = await runWs(['records', 'update', 'deals', deal, '--set', 'stage=won'], {
      env,
    });
    assert.equal(updated.code, 0, updated.stderr);
    // The wait ends when the clock passes it: the webhook is sent, signed an hour ahead.
    const moved = await sandboxCall(t, 'POST', '/__sandbox/clock/advance', { seconds: 3600 });
    assert.equal(moved.status, 200);
    await s.waitFor((l) => l.includes('"type":"delivery"'), 'the delivery');
    const ping = await runWs(['webhooks', 'ping', ready.webhook_id, '--wait'], { env });
    assert.equal(ping.code, 0, ping.stderr);
    await s.waitFor((l) => l.includes('"event":"webhook.test"'), 'the ping');
    const got = deliveries(s);
    assert.equal(got.length, 2);
    for (const d of got) {
      assert.equal(d.signature, 'valid', JSON.stringify(d));
      assert.equal(d.answered, 200);
    }

    // A listen started after the move reads the clock as it is.
    const later = listen([]);
    const again = JSON.parse(await later.waitFor((l) => l.includes('"type":"ready"'), 'ready'));
    const second = await runWs(['webhooks', 'ping', again.webhook_id, '--wait'], { env });
    assert.equal(second.code, 0, second.stderr);
    const line = JSON.parse(await later.waitFor((l) => l.includes('"type":"delivery"'), 'ping'));
    assert.equal(line.signature, 'valid', JSON.stringify(line));
  });

  it('a delivery signed far from the sandbox clock is still refused', async () => {
    const s = listen(['--print-secret']);
    const ready = JSON.parse(await s.waitFor((l) => l.includes('"type":"ready"'), 'ready'));
    const clock = await sandboxCall(t, 'GET', '/__sandbox/clock');
    const t0 = Math.floor(Date.parse(clock.body.now) / 1000) - 1000;
    const body = '{"id":"x","webhook_id":"w","event":"webhook.test","data":{}}';
    const answer = await fetch(ready.url, {
      method: 'POST',
      headers: { 'x-service-signature': `t=${t0},v1=${hmac(ready.secret, t0, body)}` },
      body,
    });
    assert.equal(answer.status, 400);
    const line = JSON.parse(await s.waitFor((l) => l.includes('"type":"delivery"'), 'delivery'));
    assert.match(line.signature_error, /^signed 1\d{3} s ago, more than the 300 s allowed$/);
  });
});

describe('ws webhooks listen against a service whose clock it cannot read', () => {
  it('a refused timestamp names the clock skew and its size', async () => {
    // The sandbox's API behind a proxy that hides its control endpoints: a "hosted" service.
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
      const port = 40000 + Math.floor(Math.random() * 20000);
      const s = listen(
        ['--public-url', `http://127.0.0.1:${port}/`, '--port', String(port), '--print-secret'],
        dir,
      );
      const ready = JSON.parse(await s.waitFor((l) => l.includes('"type":"ready"'), 'ready'));
      const body = '{"id":"y","webhook_id":"w","event":"webhook.test","data":{}}';
      const ahead = Math.floor(Date.now() / 1000) + 3600;
      const answer = await fetch(ready.url, {
        method: 'POST',
        headers: { 'x-service-signature': `t=${ahead},v1=${hmac(ready.secret, ahead, body)}` },
        body,
      });
      assert.equal(answer.status, 400);
      const line = JSON.parse(await s.waitFor((l) => l.includes('"type":"delivery"'), 'delivery'));
      assert.match(
        line.signature_error,
        // (An hour ahead of the second it was signed in: 3599 s to 3609 s by the time it is checked.)
        /^signed 3(59|60)\d s in the future, more than the 300 s allowed: a clock skew of 3(59|60)\d s, this machine's clock 1 h behind the sender's/,
      );
    } finally {
      cleanup();
      hosted.closeAllConnections();
      hosted.close();
    }
  });
});
