import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pkg from '../../package.json' with { type: 'json' };
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { call, prism, startFor } from './helpers.ts';

describe('control endpoints', () => {
  test('GET /__sandbox/health needs no key and never shows it; with it, says more', async (t) => {
    const sandbox = await startFor(t);
    const anonymous = await call(sandbox, 'GET', '/__sandbox/health', { key: null });
    assert.equal(anonymous.status, 200);
    assert.deepEqual(anonymous.body, { ok: true });
    const answer = await call(sandbox, 'GET', '/__sandbox/health');
    assert.equal(answer.status, 200);
    assert.deepEqual(Object.keys(answer.body).sort(), [
      'ok',
      'pid',
      'started_at',
      'team_id',
      'version',
    ]);
    assert.equal(answer.body.ok, true);
    assert.equal(answer.body.team_id, sandbox.teamId);
    assert.equal(answer.body.pid, process.pid);
    assert.equal(answer.body.version, pkg.version);
    assert.ok(Math.abs(Date.parse(answer.body.started_at) - Date.now()) < 60_000);
    assert.ok(!answer.text.includes(sandbox.apiKey));
  });

  test('POST /__sandbox/reset empties the store and keeps key and team', async (t) => {
    const sandbox = await startFor(t);
    recordsOf(sandbox.store).create('contact', { default: { name: 'Ada' } });
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds: 3600 } });
    const answer = await call(sandbox, 'POST', '/__sandbox/reset');
    assert.equal(answer.status, 204);
    assert.equal(answer.text, '');
    assert.equal(recordsOf(sandbox.store).count('contact'), 0);
    assert.equal(sandbox.store.clock.offsetMs, 0);
    const count = await call(sandbox, 'GET', prism(sandbox, 'contact/count'));
    assert.equal(count.status, 200, 'same key and team still work');
  });

  test('POST /__sandbox/reset with { seed: "demo" } refills the demo data', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(sandbox, 'POST', '/__sandbox/reset', { body: { seed: 'demo' } });
    assert.equal(answer.status, 204);
    assert.equal(recordsOf(sandbox.store).count('contact'), 25);
    const bad = await call(sandbox, 'POST', '/__sandbox/reset', { body: { seed: 'big' } });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.errors, [
      { field: 'body.seed', code: 'enum', message: `seed must be 'demo' when given, got "big".` },
    ]);
  });

  test('GET /__sandbox/clock and POST /__sandbox/clock/advance', async (t) => {
    const sandbox = await startFor(t);
    const before = await call(sandbox, 'GET', '/__sandbox/clock');
    assert.equal(before.status, 200);
    assert.ok(Math.abs(Date.parse(before.body.now) - Date.now()) < 5_000);
    const advanced = await call(sandbox, 'POST', '/__sandbox/clock/advance', {
      body: { seconds: 86_400 },
    });
    assert.equal(advanced.status, 200);
    const moved = Date.parse(advanced.body.now) - Date.parse(before.body.now);
    assert.ok(moved >= 86_400_000 && moved < 86_400_000 + 5_000, `moved ${moved}ms`);
    const after = await call(sandbox, 'GET', '/__sandbox/clock');
    assert.ok(Date.parse(after.body.now) >= Date.parse(advanced.body.now));
    assert.equal(sandbox.store.clock.offsetMs, 86_400_000);
  });

  test('clock advance rejects what would not move it forward', async (t) => {
    const sandbox = await startFor(t);
    const cases: [unknown, string, string][] = [
      [{}, 'body.seconds', 'required'],
      [{ seconds: -1 }, 'body.seconds', 'minimum'],
      [{ seconds: '60' }, 'body.seconds', 'type'],
      [{ seconds: 1e12 }, 'body.seconds', 'maximum'],
      [{ seconds: 1, minutes: 2 }, 'body.minutes', 'unknown_field'],
      [[1], 'body', 'type'],
    ];
    for (const [body, field, code] of cases) {
      const answer = await call(sandbox, 'POST', '/__sandbox/clock/advance', { body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error.code, 'invalid_request');
      assert.equal(answer.body.error.errors[0].field, field);
      assert.equal(answer.body.error.errors[0].code, code);
    }
    assert.equal(sandbox.store.clock.offsetMs, 0);
  });

  test('GET /__sandbox/echo/... returns the decoded segments and query', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(
      sandbox,
      'GET',
      '/__sandbox/echo/a%2Fb/%3F%23/%25/%2e%2e/../caf%C3%A9/%E2%9C%93//end?x=1&x=2&y=%26',
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {
      segments: ['a/b', '?#', '%', '..', '..', 'café', '✓', '', 'end'],
      query: { x: ['1', '2'], y: '&' },
    });
    const none = await call(sandbox, 'GET', '/__sandbox/echo');
    assert.deepEqual(none.body, { segments: [], query: {} });
  });

  test('GET and POST /__sandbox/faults read and change faults at run time', async (t) => {
    const sandbox = await startFor(t, { latencyMs: 5 });
    const initial = await call(sandbox, 'GET', '/__sandbox/faults');
    assert.deepEqual(initial.body, {
      fail_rate: 0,
      fail_after_commit: 0,
      latency_ms: 5,
      rate_limit: 0,
      max_body_bytes: 10 * 1024 * 1024,
    });
    const changed = await call(sandbox, 'POST', '/__sandbox/faults', {
      body: { fail_rate: 0.25, rate_limit: 10, max_body_bytes: 2048 },
    });
    assert.equal(changed.status, 200);
    assert.deepEqual(changed.body, {
      fail_rate: 0.25,
      fail_after_commit: 0,
      latency_ms: 5,
      rate_limit: 10,
      max_body_bytes: 2048,
    });
    const invalid = await call(sandbox, 'POST', '/__sandbox/faults', {
      body: { fail_rate: 2, latency_ms: -1, rate_limit: 'many', burst: 1 },
    });
    assert.equal(invalid.status, 400);
    assert.deepEqual(
      invalid.body.error.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
      [['body.burst', 'unknown_field']],
    );
    const ranges = await call(sandbox, 'POST', '/__sandbox/faults', {
      body: { fail_rate: 2, latency_ms: -1, rate_limit: 'many', max_body_bytes: 100 },
    });
    assert.deepEqual(
      ranges.body.error.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
      [
        ['body.fail_rate', 'maximum'],
        ['body.latency_ms', 'minimum'],
        ['body.rate_limit', 'type'],
        ['body.max_body_bytes', 'minimum'],
      ],
    );
    const unchanged = await call(sandbox, 'GET', '/__sandbox/faults');
    assert.deepEqual(unchanged.body, changed.body);
  });

  test('unknown control path: 404; wrong method: 405', async (t) => {
    const sandbox = await startFor(t);
    const unknown = await call(sandbox, 'GET', '/__sandbox/nothing');
    assert.equal(unknown.status, 404);
    assert.equal(
      unknown.body.error.message,
      'No such endpoint: GET /__sandbox/nothing does not exist.',
    );
    const wrong = await call(sandbox, 'GET', '/__sandbox/reset');
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers['allow'], 'POST');
  });
});
