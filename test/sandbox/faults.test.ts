import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { mulberry32 } from '../../src/sandbox/seed.ts';
import {
  call,
  prism,
  REQUEST_ID,
  scripted,
  startFor,
  type TestHooks,
  withTestRoutes,
} from './helpers.ts';

describe('latency', () => {
  test('delays API answers, not control answers', async (t) => {
    const sandbox = await startFor(t, { latencyMs: 300 });
    let started = performance.now();
    const answer = await call(sandbox, 'GET', prism(sandbox, 'contact/count'));
    assert.equal(answer.status, 200);
    assert.ok(performance.now() - started >= 290, 'API answer delayed');
    started = performance.now();
    await call(sandbox, 'GET', '/__sandbox/health');
    assert.ok(performance.now() - started < 250, 'control answer not delayed');
    // Errors are API answers too.
    started = performance.now();
    const unauthorized = await call(sandbox, 'GET', prism(sandbox, 'contact/count'), { key: null });
    assert.equal(unauthorized.status, 401);
    assert.ok(performance.now() - started >= 290, 'error answer delayed');
  });
});

describe('fail rate', () => {
  test('answers 500, 502, 503 or drops the socket, before auth and before doing anything', async (t) => {
    // Each failure draws twice: below fail_rate to fail, then which failure (quarter each).
    const random = scripted(0.1, 0.0, 0.1, 0.3, 0.1, 0.6, 0.1, 0.9, 0.6);
    const sandbox = await startFor(t, { failRate: 0.5, random });
    const path = prism(sandbox, 'contact/count');
    const expected: [number, string][] = [
      [500, 'internal_error'],
      [502, 'bad_gateway'],
      [503, 'service_unavailable'],
    ];
    for (const [status, code] of expected) {
      const answer = await call(sandbox, 'GET', path, { key: null });
      assert.equal(answer.status, status);
      assert.equal(answer.body.error.code, code);
      assert.equal(answer.body.error.request_id, answer.headers['x-request-id']);
      assert.match(answer.body.error.message, /Simulated .*fail_rate/);
      assert.deepEqual(answer.body.error.details, { fault: 'fail_rate' });
      if (status === 503) assert.equal(answer.headers['retry-after'], '1');
    }
    await assert.rejects(call(sandbox, 'GET', path), /socket hang up|ECONNRESET/);
    // 0.6 >= 0.5: no failure, and this request (without a key) reaches authentication.
    const passed = await call(sandbox, 'GET', path, { key: null });
    assert.equal(passed.status, 401);
  });

  test('the four outcomes are equally likely', async (t) => {
    const random = mulberry32(42);
    const sandbox = await startFor(t, { failRate: 1, random });
    const tally = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const outcome = await call(sandbox, 'GET', prism(sandbox, 'contact/count')).then(
        (a) => String(a.status),
        () => 'dropped',
      );
      tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
    }
    assert.deepEqual([...tally.keys()].sort(), ['500', '502', '503', 'dropped']);
    for (const [outcome, n] of tally) assert.ok(n > 25 && n < 75, `${outcome}: ${n} of 200`);
  });

  test('control endpoints are never subject to faults', async (t) => {
    let draws = 0;
    const sandbox = await startFor(t, {
      failRate: 1,
      rateLimit: 1,
      latencyMs: 1000,
      random: () => {
        draws++;
        return 0;
      },
    });
    const started = performance.now();
    for (let i = 0; i < 5; i++) {
      const answer = await call(sandbox, 'GET', '/__sandbox/health');
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['x-ratelimit-limit'], undefined);
    }
    assert.ok(performance.now() - started < 1000);
    assert.equal(draws, 0);
  });
});

describe('fail after commit', () => {
  test('does the work, keeps the idempotent answer, then drops the socket; the retry replays', async (t) => {
    const hooks: TestHooks = { creates: 0 };
    const sandbox = await startFor(t, { failAfterCommit: 1 }, withTestRoutes(hooks));
    const create = () =>
      call(sandbox, 'POST', prism(sandbox, 'contact'), {
        body: { default: { name: 'Ada' } },
        headers: { 'idempotency-key': 'commit-1' },
      });
    await assert.rejects(create(), /socket hang up|ECONNRESET/);
    assert.equal(recordsOf(sandbox.store).count('contact'), 1, 'the work was committed');

    // Reads are not mutating: never dropped by fail_after_commit.
    const count = await call(sandbox, 'GET', prism(sandbox, 'contact/count'));
    assert.deepEqual(count.body, { total: 1 });

    const off = await call(sandbox, 'POST', '/__sandbox/faults', {
      body: { fail_after_commit: 0 },
    });
    assert.equal(off.status, 200);
    const retry = await create();
    assert.equal(retry.status, 201);
    assert.equal(retry.headers['idempotent-replay'], 'true');
    assert.equal(hooks.creates, 1);
    assert.equal(recordsOf(sandbox.store).count('contact'), 1);
  });
});

describe('rate limit', () => {
  test('N requests per second per key, then 429 rate_limited with Retry-After', async (t) => {
    const sandbox = await startFor(t, { rateLimit: 3 });
    const path = prism(sandbox, 'contact/count');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call(sandbox, 'GET', path));
    assert.deepEqual(
      answers.map((a) => [
        a.status,
        a.headers['x-ratelimit-limit'],
        a.headers['x-ratelimit-remaining'],
      ]),
      [
        [200, '3', '2'],
        [200, '3', '1'],
        [200, '3', '0'],
        [429, '3', '0'],
      ],
    );
    for (const answer of answers) assert.equal(answer.headers['x-ratelimit-reset'], '1');
    const limited = answers[3]!;
    assert.equal(limited.headers['retry-after'], '1');
    assert.equal(limited.body.error.code, 'rate_limited');
    assert.equal(
      limited.body.error.message,
      'Too many requests: this API key may make 3 requests per second; retry after 1 second.',
    );
    assert.deepEqual(limited.body.error.details, { limit: 3, retry_after: 1 });
    assert.match(String(limited.headers['x-request-id']), REQUEST_ID);

    // Other keys have their own budget.
    const other = await call(sandbox, 'GET', path, { key: 'someone-else' });
    assert.equal(other.status, 403);
    assert.equal(other.headers['x-ratelimit-remaining'], '2');

    // A second later (sandbox clock) the budget is back.
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds: 1 } });
    const later = await call(sandbox, 'GET', path);
    assert.equal(later.status, 200);
    assert.equal(later.headers['x-ratelimit-remaining'], '2');
  });

  test('the window slides: at most N requests in any one second, not per calendar second', async (t) => {
    const sandbox = await startFor(t, { rateLimit: 3 });
    const path = prism(sandbox, 'contact/count');
    const advance = (seconds: number) =>
      call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds } });
    assert.equal((await call(sandbox, 'GET', path)).status, 200);
    await advance(0.9);
    assert.equal((await call(sandbox, 'GET', path)).status, 200);
    assert.equal((await call(sandbox, 'GET', path)).status, 200);
    // 1.1 s after the first: it left the window, the two others did not.
    await advance(0.2);
    const next = await call(sandbox, 'GET', path);
    assert.equal(next.status, 200);
    assert.equal(next.headers['x-ratelimit-remaining'], '0');
    const over = await call(sandbox, 'GET', path);
    assert.equal(over.status, 429);
    assert.equal(over.headers['retry-after'], '1');
    // 0.8 s on, the two sent at 0.9 s have left: two places again.
    await advance(0.8);
    const back = await call(sandbox, 'GET', path);
    assert.equal(back.status, 200);
    assert.equal(back.headers['x-ratelimit-remaining'], '1');
  });

  test('no rate-limit headers when the limit is off', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(sandbox, 'GET', prism(sandbox, 'contact/count'));
    assert.equal(answer.headers['x-ratelimit-limit'], undefined);
  });

  test('can be turned on at run time', async (t) => {
    const sandbox = await startFor(t);
    await call(sandbox, 'POST', '/__sandbox/faults', { body: { rate_limit: 1 } });
    const first = await call(sandbox, 'GET', prism(sandbox, 'deal/count'));
    const second = await call(sandbox, 'GET', prism(sandbox, 'deal/count'));
    assert.equal(first.status, 200);
    assert.equal(second.status, 429);
  });
});
