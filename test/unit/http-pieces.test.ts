import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffDelay, buildQuery, encodeSegment, parseRetryAfter } from '../../src/api/client.ts';
import { toApiError } from '../../src/api/errors.ts';
import { RateLimiter } from '../../src/api/ratelimit.ts';
import { redactBody, redactHeaders, redactText } from '../../src/api/redact.ts';
import { UsageError } from '../../src/errors.ts';

const base = {
  method: 'GET',
  url: 'http://x/v2/prism/t/contact/count',
  path: '/v2/prism/t/contact/count',
  teamId: 't',
};

describe('path segments', () => {
  it('percent-encodes every character that could split or end a segment', () => {
    assert.equal(encodeSegment('a/b'), 'a%2Fb');
    assert.equal(encodeSegment('..'), '%2E%2E');
    assert.equal(encodeSegment('.'), '%2E');
    assert.equal(encodeSegment('a.b'), 'a.b');
    assert.equal(encodeSegment('..x'), '..x');
    assert.equal(encodeSegment('what?x=1#frag'), 'what%3Fx%3D1%23frag');
    assert.equal(encodeSegment('100%'), '100%25');
    assert.equal(encodeSegment('Zoë Ünïcode'), 'Zo%C3%AB%20%C3%9Cn%C3%AFcode');
    assert.equal(encodeSegment("it's (x)*!"), 'it%27s%20%28x%29%2A%21');
    assert.throws(() => encodeSegment(''), UsageError);
  });

  it('builds query strings with repeated names for arrays and skips unset values', () => {
    assert.equal(
      buildQuery({ a: 1, b: undefined, c: null, d: ['x', 'y z'], e: true }),
      '?a=1&d=x&d=y+z&e=true',
    );
    assert.equal(buildQuery({}), '');
  });

  it('encodes names and values exactly as URLSearchParams does', () => {
    const texts = [
      "it's (x)*!~",
      'a b+c&d=e?f#g/h%i',
      'héllo wörld ✓ 🙂',
      '-._*',
      '\u0000\t\n\u007f',
      'lone \uD800 high, lone \uDC00 low, pair \uD83D\uDE00',
      '',
    ];
    for (const text of texts) {
      const expected = new URLSearchParams([[text, text]]).toString();
      assert.equal(buildQuery({ [text]: text }), `?${expected}`, JSON.stringify(text));
    }
  });
});

describe('retry timing', () => {
  it('full jitter stays under the exponential cap', () => {
    assert.equal(
      backoffDelay(1, 250, 8000, () => 0.999),
      249,
    );
    assert.equal(
      backoffDelay(3, 250, 8000, () => 0.5),
      500,
    );
    assert.equal(
      backoffDelay(10, 250, 8000, () => 0.5),
      4000,
    );
    assert.equal(
      backoffDelay(2, 250, 8000, () => 0),
      0,
    );
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    assert.equal(parseRetryAfter('0.5'), 500);
    assert.equal(parseRetryAfter(undefined), undefined);
    assert.equal(parseRetryAfter('soon'), undefined);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now), 3000);
  });
});

describe('rate limiter', () => {
  /**
   * A clock that moves only when the limiter sleeps; `early` makes every timer fire up to
   * that many ms before its time (never before half of it: time still passes).
   */
  function fakeClock(early = 0) {
    const clock = {
      t: 1_000,
      now: () => clock.t,
      sleep: async (ms: number) => {
        clock.t += Math.max(ms - early, ms / 2);
      },
    };
    return clock;
  }

  /** Most grants inside any window of `windowMs` (a window starts at each grant). */
  function mostInAnyWindow(times: number[], windowMs: number): number {
    let most = 0;
    for (const start of times) {
      most = Math.max(most, times.filter((t) => t >= start && t < start + windowMs).length);
    }
    return most;
  }

  it('never lets more than N requests start within any one second, even when timers fire early', async () => {
    for (const early of [0, 0.4, 3]) {
      const clock = fakeClock(early);
      const limiter = new RateLimiter(10, clock);
      const granted: number[] = [];
      // 35 requests, each answered 2 ms after it is sent.
      for (let i = 0; i < 35; i++) {
        const release = await limiter.take();
        granted.push(clock.t);
        clock.t += 2;
        release();
      }
      assert.equal(mostInAnyWindow(granted, 1000), 10, `timers ${early} ms early`);
      // Full speed otherwise: 10 at once, then 10 more each second after the answers.
      assert.ok(granted[34]! - granted[0]! <= 3 * 1002 + 2 * 10, `timers ${early} ms early`);
    }
  });

  it('counts a place from the answer, so a slow answer holds its place longer', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(2, clock);
    const first = await limiter.take();
    const second = await limiter.take();
    second();
    clock.t += 500; // the first answer arrives half a second after it was sent
    first();
    // The second place frees 1 s after its answer (t = 2000), before the first (t = 2500).
    await limiter.take();
    assert.equal(clock.t, 2000);
    await limiter.take();
    assert.equal(clock.t, 2500);
  });

  it('waits for a request in flight to give its place back', async () => {
    const limiter = new RateLimiter(1);
    const release = await limiter.take();
    let granted = false;
    const next = limiter.take().then((r) => {
      granted = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(granted, false, 'the only place is in flight');
    release();
    release(); // twice is harmless
    const controller = new AbortController();
    const third = limiter.take(controller.signal);
    controller.abort(new Error('stopped'));
    await assert.rejects(third, /stopped/);
    (await next)();
  });

  it('serves callers in order', async () => {
    const limiter = new RateLimiter(3, fakeClock());
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) =>
        limiter.take().then((release) => {
          order.push(i);
          release();
        }),
      ),
    );
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5]);
  });

  it('a rate of 0 means no limit', async () => {
    const limiter = new RateLimiter(0);
    await Promise.all(Array.from({ length: 100 }, () => limiter.take()));
  });
});

describe('error bodies', () => {
  it('reads the v2 error body', () => {
    const e = toApiError({
      ...base,
      status: 400,
      headers: { 'x-request-id': 'req_1' },
      text: JSON.stringify({
        error: {
          code: 'invalid_request',
          message: 'Bad query',
          request_id: 'req_1',
          errors: [{ field: 'query.limit', message: 'must be <= 50', code: 'maximum' }],
        },
      }),
    });
    assert.equal(e.status, 400);
    assert.equal(e.apiCode, 'invalid_request');
    assert.equal(e.message, 'Bad query');
    assert.equal(e.requestId, 'req_1');
    assert.deepEqual(e.errors, [
      { field: 'query.limit', message: 'must be <= 50', code: 'maximum' },
    ]);
    assert.equal(e.exitCode, 2);
  });

  it('reads the older { message } form', () => {
    const e = toApiError({ ...base, status: 404, headers: {}, text: '{"message":"Not here"}' });
    assert.equal(e.message, 'Not here');
    assert.equal(e.exitCode, 4);
    assert.equal(e.requestId, undefined);
  });

  it('renders a body that is not JSON without crashing', () => {
    const e = toApiError({
      ...base,
      status: 502,
      headers: { 'x-request-id': 'req_9' },
      text: '<html><body><h1>502 Bad Gateway</h1></body></html>',
    });
    assert.equal(e.message, 'HTTP 502 Bad Gateway: 502 Bad Gateway');
    assert.equal(e.exitCode, 1);
    assert.equal(e.requestId, 'req_9');
    const empty = toApiError({ ...base, status: 500, headers: {}, text: '' });
    assert.equal(empty.message, 'HTTP 500 Internal Server Error');
  });

  it('tells 401 from 403', () => {
    const a = toApiError({
      ...base,
      status: 401,
      headers: {},
      text: '{"error":{"code":"unauthorized","message":"No API key"}}',
    });
    const b = toApiError({
      ...base,
      status: 403,
      headers: {},
      text: '{"error":{"code":"forbidden","message":"Invalid key"}}',
    });
    assert.equal(a.exitCode, 3);
    assert.equal(b.exitCode, 3);
    assert.match(a.message, /No API key was sent/);
    assert.match(b.message, /refused: it is invalid, or it has no access to team t/);
  });

  it('explains the 403 of webhook routes while they are a preview', () => {
    const e = toApiError({
      ...base,
      path: '/v2/webhooks/t',
      status: 403,
      headers: {},
      text: '{"message":"Missing Authentication Token"}',
    });
    assert.match(e.message, /^Webhook routes are not yet available on this service/);
    assert.equal(e.apiCode, 'webhooks_unavailable');
    assert.equal(e.exitCode, 1);
  });

  it('maps 409 and 412 to the conflict exit code', () => {
    for (const status of [409, 412]) {
      assert.equal(toApiError({ ...base, status, headers: {}, text: '{}' }).exitCode, 6);
    }
  });
});

describe('redaction', () => {
  it('redacts keys, secrets and signatures in headers, bodies and text', () => {
    assert.deepEqual(
      redactHeaders({
        'x-api-key': 'wsk_live_abcdefgh1234',
        'x-service-signature': 't=1,v1=abcdef0123456789',
        accept: 'a',
      }),
      {
        'x-api-key': '…1234',
        'x-service-signature': '…6789',
        accept: 'a',
      },
    );
    const body = redactBody(
      JSON.stringify({
        secret: 'whsec_abcdefghijkl',
        nested: { verification_token: 'whtok_zzzzzzzz9999' },
        note: 'key whsec_QQQQQQQQ7777 here',
      }),
    );
    assert.ok(!body.includes('abcdefghijkl'));
    assert.ok(!body.includes('zzzzzzzz'));
    assert.ok(!body.includes('QQQQQQQQ'));
    assert.match(body, /…ijkl/);
    assert.equal(
      redactText('the key is my-secret-key-5678 ok', ['my-secret-key-5678']),
      'the key is …5678 ok',
    );
  });

  it('cuts long bodies and says how long they were', () => {
    const long = JSON.stringify({ data: 'x'.repeat(10_000) });
    const shown = redactBody(long, [], 100);
    assert.ok(shown.length < 200);
    assert.match(shown, /\(10\d{3} bytes in all\)$/);
  });
});
