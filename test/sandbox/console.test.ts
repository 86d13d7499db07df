// The console's server and the activity log, over real HTTP without a browser (the browser
// tests are test/e2e/console.test.ts): who may use it (Host, session, CSRF, sign-in codes),
// that the API answers as before, and what the activity log keeps (bounds, histories that
// outlive them, a reset, the runs a write started as one entry each).

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ActivityLog } from '../../src/sandbox/activity/log.ts';
import { ConsoleAuth, hostChecker } from '../../src/sandbox/console/security.ts';
import { sandboxCall, startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let t: TestSandbox;
let port: string;

before(async () => {
  t = await startTestSandbox({ console: true });
  port = new URL(t.sandbox.url).port;
});
after(() => t.stop());

/** A request with headers of our choosing (fetch sends its own Host and Origin). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}> {
  const url = new URL(path, t.sandbox.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { method, host: url.hostname, port: url.port, path: url.pathname + url.search, headers },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function signIn(): Promise<{ cookie: string; csrf: string }> {
  const { body } = await sandboxCall(t, 'POST', '/__sandbox/console/code');
  const res = await send(
    'POST',
    '/console/login',
    { host: `127.0.0.1:${port}`, 'content-type': 'application/x-www-form-urlencoded' },
    `code=${encodeURIComponent(body.code)}`,
  );
  assert.equal(res.status, 200, res.text);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  const session = await send('GET', '/console/api/session', { host: `127.0.0.1:${port}`, cookie });
  assert.equal(session.status, 200);
  return { cookie, csrf: JSON.parse(session.text).csrf };
}

describe('the console server', () => {
  it('answers only requests for the address it listens on', () => {
    const loopback = hostChecker('127.0.0.1', 4800);
    assert.equal(loopback('127.0.0.1:4800'), true);
    assert.equal(loopback('localhost:4800'), true);
    assert.equal(loopback('LOCALHOST:4800'), true);
    assert.equal(loopback('[::1]:4800'), true);
    assert.equal(loopback('127.0.0.1:4801'), false);
    assert.equal(loopback('evil.example:4800'), false);
    assert.equal(loopback('127.0.0.1.evil.example:4800'), false);
    assert.equal(loopback(undefined), false);
    const everywhere = hostChecker('0.0.0.0', 4800);
    assert.equal(everywhere('192.168.1.20:4800'), true);
    assert.equal(everywhere('laptop.local:4800'), false);
    const named = hostChecker('devbox.internal', 4800);
    assert.equal(named('devbox.internal:4800'), true);
    assert.equal(named('localhost:4800'), false);
  });

  it('signs in once per code, for 2 minutes, and drops every code after 20 wrong ones', () => {
    let now = 1_000_000;
    const auth = new ConsoleAuth(() => now);
    const { code } = auth.issueCode();
    assert.match(code, /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    assert.ok(
      auth.signIn(code.toLowerCase().replace(/-/g, ' ')),
      'case and separators do not matter',
    );
    assert.equal(auth.signIn(code), undefined, 'a code signs in once');
    const late = auth.issueCode().code;
    now += 2 * 60 * 1000;
    assert.equal(auth.signIn(late), undefined, 'a code lasts 2 minutes');
    const guessed = auth.issueCode().code;
    for (let i = 0; i < 20; i++) auth.signIn(`WRONG-${i}`);
    assert.equal(auth.signIn(guessed), undefined, 'guessing drops the pending codes');
  });

  it('refuses a foreign Host, no session, no CSRF token and a foreign sign-in form; sends no CORS header', async () => {
    const host = `127.0.0.1:${port}`;
    const foreign = await send('GET', '/console/', { host: `evil.example:${port}` });
    assert.equal(foreign.status, 421);
    const page = await send('GET', '/console/', { host, origin: 'http://evil.example' });
    assert.equal(page.status, 200);
    assert.match(page.text, /One-time code/);
    assert.equal(page.headers['access-control-allow-origin'], undefined);
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.equal((await send('GET', '/console/api/activity', { host })).status, 401);
    const { cookie, csrf } = await signIn();
    assert.equal((await send('GET', '/console/api/activity', { host, cookie })).status, 200);
    const noToken = await send('POST', '/console/api/reset', { host, cookie }, '{}');
    assert.equal(noToken.status, 403);
    const badToken = await send(
      'POST',
      '/console/api/reset',
      { host, cookie, 'x-csrf-token': `${csrf}x` },
      '{}',
    );
    assert.equal(badToken.status, 403);
    const withToken = await send(
      'POST',
      '/console/api/clock/advance',
      { host, cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      '{"seconds":60}',
    );
    assert.equal(withToken.status, 200, withToken.text);
    // A sign-in form posted from another site is refused, whatever the code.
    const { body } = await sandboxCall(t, 'POST', '/__sandbox/console/code');
    const forged = await send(
      'POST',
      '/console/login',
      { host, origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      `code=${body.code}`,
    );
    assert.equal(forged.status, 403);
    // The code endpoint wants the key, like every control route.
    const keyless = await fetch(`${t.sandbox.url}/__sandbox/console/code`, { method: 'POST' });
    assert.equal(keyless.status, 401);
    // The API answers as before, whatever the Host and Origin.
    const health = await send('GET', '/__sandbox/health', {
      host: `evil.example:${port}`,
      origin: 'http://evil.example',
    });
    assert.equal(health.status, 200);
    assert.equal(health.headers['content-security-policy'], undefined);
  });

  it('logs requests with their bodies and the key by its last 4 characters', async () => {
    const { cookie } = await signIn();
    const host = `127.0.0.1:${port}`;
    const created = await sandboxCall(t, 'POST', `/v2/prism/${t.sandbox.teamId}/contact`, {
      default: { name: 'Logged Person' },
    });
    assert.equal(created.status, 201);
    const list = await send('GET', '/console/api/requests?path=/contact&status=2xx', {
      host,
      cookie,
    });
    const rows = JSON.parse(list.text).data as { request_id: string; key_last4: string }[];
    assert.ok(rows.length >= 1);
    assert.equal(rows[0]!.key_last4, t.sandbox.apiKey.slice(-4));
    const one = await send('GET', `/console/api/requests/${rows[0]!.request_id}`, {
      host,
      cookie,
    });
    assert.match(one.text, /Logged Person/);
    assert.ok(!one.text.includes(t.sandbox.apiKey), 'the key is not in the log');
  });
});

describe('the activity log', () => {
  it('keeps the latest events, a record history past that bound, and starts again at a reset', async () => {
    const log = new ActivityLog(t.sandbox.store, { maxSlots: 4 });
    try {
      const team = t.sandbox.teamId;
      const made = await sandboxCall(t, 'POST', `/v2/prism/${team}/contact`, {
        default: { name: 'Ada', score: 1 },
      });
      const id = made.body.id as string;
      for (let score = 2; score <= 6; score++) {
        await sandboxCall(t, 'PATCH', `/v2/prism/${team}/contact/${id}`, { default: { score } });
      }
      const page = log.newestFirst({ limit: 10 });
      assert.equal(page.entries.length, 4, 'the latest 4 events');
      assert.equal(page.next, undefined);
      const history = log.changesOf('contact', id);
      assert.equal(history.length, 6, 'every change of the record, the ones dropped too');
      assert.deepEqual(
        history.map((e) => e.kind === 'record' && e.event.type),
        ['record.created', ...Array(5).fill('record.updated')],
      );
      const cause = history[1]!.cause;
      assert.equal(cause?.kind, 'request');
      assert.equal(cause?.kind === 'request' && cause.method, 'PATCH');
      t.sandbox.reset();
      log.resetDone();
      assert.deepEqual(log.changesOf('contact', id), []);
      const after = log.newestFirst({ limit: 10 }).entries;
      assert.deepEqual(
        after.map((e) => e.kind),
        ['reset'],
      );
    } finally {
      log.close();
    }
  });

  it('shows each run a write started as an entry, paged newest first', async () => {
    const log = new ActivityLog(t.sandbox.store);
    try {
      const team = t.sandbox.teamId;
      for (const name of ['One', 'Two', 'Three']) {
        const a = await sandboxCall(t, 'POST', `/v2/prism/${team}/contact/triggered_automations`, {
          kind: 'lifecycle',
          name,
          on_create: true,
          state: { filter: [{ name: { exists: true } }] },
          actions: [{ type: 'agent', agent_id: '7a3e1f52-6b9d-4e0c-8f1a-3d2c5b6e7f80' }],
        });
        assert.equal(a.status, 201, JSON.stringify(a.body));
      }
      await sandboxCall(t, 'POST', `/v2/prism/${team}/contact`, { default: { name: 'Runner' } });
      const runs = log.newestFirst({ limit: 10 }, (e) => e.kind === 'run').entries;
      assert.equal(runs.length, 3);
      const names = runs.map((e) => (e.kind === 'run' ? e.event.run()?.automation.name : ''));
      assert.deepEqual(names, ['Three', 'Two', 'One']);
      assert.deepEqual(
        runs.map((e) => e.seq),
        [runs[2]!.seq + 2, runs[2]!.seq + 1, runs[2]!.seq],
      );
      // Paging through them two at a time gives each once.
      const first = log.newestFirst({ limit: 2 }, (e) => e.kind === 'run');
      const second = log.newestFirst({ limit: 2, before: first.next! }, (e) => e.kind === 'run');
      assert.deepEqual(
        [...first.entries, ...second.entries].map((e) => e.seq),
        runs.map((e) => e.seq),
      );
    } finally {
      log.close();
    }
  });
});
