// Receivers bound what the sandbox does for them, and it bounds what it keeps for them: a
// 429 or 503 with Retry-After delays the retry as asked (within the schedule's bounds), and
// past 100,000 deliveries waiting to be sent a new one is kept failed with the reason.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defineEvent } from '../../src/sandbox/events.ts';
import { deliverOn } from '../../src/sandbox/resources/webhooks/dispatches.ts';
import { retryAfterMs } from '../../src/sandbox/resources/webhooks/engine.ts';
import { MAX_UNSENT_DELIVERIES } from '../../src/sandbox/resources/webhooks/model.ts';
import { startFor } from './helpers.ts';
import {
  deliveryWhen,
  handshakeThen,
  hooks,
  type Json,
  startReceiver,
  until,
  verifiedHook,
} from './webhook-helpers.ts';

/** How long after its failed attempt the delivery's retry is due (ms). */
function retryWait(delivery: Json): number {
  return Date.parse(delivery.next_attempt_at) - Date.parse(delivery.updated_at);
}

describe('webhooks: Retry-After', () => {
  test('a 429 or 503 asking for longer than the schedule delays the retry that long, an hour at most', async (t) => {
    // Jitter factor 1: the schedule's first retry is due 30 s after the failed attempt.
    const sandbox = await startFor(t, { webhooks: { random: () => 0.5 } });
    const answers = [
      { status: 429, headers: { 'retry-after': '600' } },
      { status: 503, headers: { 'retry-after': new Date(Date.now() + 900_000).toUTCString() } },
      { status: 429, headers: { 'retry-after': '7200' } },
      { status: 429, headers: { 'retry-after': '5' } },
      { status: 500, headers: { 'retry-after': '600' } },
      { status: 429, headers: { 'retry-after': 'soon' } },
    ];
    const receiver = await startReceiver(
      t,
      handshakeThen((req) => answers[Number(req.path.slice('/h'.length))]!),
    );
    const waits: number[] = [];
    for (const [i] of answers.entries()) {
      const hook = await verifiedHook(sandbox, `${receiver.origin}/h${i}`);
      const ping = await hooks(sandbox, 'POST', `/${hook.id}/ping`);
      const failed = await deliveryWhen(
        sandbox,
        hook.id,
        ping.body.delivery_id,
        (d) => d.attempts === 1,
      );
      waits.push(retryWait(failed));
    }
    const [asked600, asked900, asked7200, asked5, on500, unreadable] = waits as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    assert.ok(Math.abs(asked600 - 600_000) < 50, `Retry-After: 600 → ${asked600} ms`);
    assert.ok(Math.abs(asked900 - 900_000) < 5_000, `an HTTP date 15 min away → ${asked900} ms`);
    assert.ok(Math.abs(asked7200 - 3_600_000) < 50, `7200 s is capped at an hour: ${asked7200}`);
    for (const [what, wait] of [
      ['Retry-After: 5 (shorter than the schedule)', asked5],
      ['a 500 (Retry-After is for 429 and 503)', on500],
      ['an unreadable Retry-After', unreadable],
    ] as const) {
      assert.ok(Math.abs(wait - 30_000) < 50, `${what} → the schedule's 30 s, got ${wait}`);
    }
  });

  test('Retry-After is read as delay-seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs(' 0 ', now), 0);
    assert.equal(retryAfterMs('Fri, 27 Nov 2026 10:05:00 GMT', now), 300_000);
    assert.equal(retryAfterMs('Fri, 27 Nov 2026 09:00:00 GMT', now), 0);
    assert.equal(retryAfterMs('-5', now), undefined);
    assert.equal(retryAfterMs('later', now), undefined);
    assert.equal(retryAfterMs(null, now), undefined);
  });
});

describe('webhooks: deliveries waiting to be sent are bounded', () => {
  test(`past ${MAX_UNSENT_DELIVERIES} deliveries waiting, a new one is kept failed with the reason`, async (t) => {
    const sandbox = await startFor(t);
    // The receiver takes nothing: every delivery waits.
    const receiver = await startReceiver(
      t,
      handshakeThen(() => 'hang'),
    );
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const topic = defineEvent<number>('test.many');
    deliverOn(sandbox.store, topic, (n) => ({
      teamId: sandbox.teamId,
      webhookId: hook.id,
      event: 'test.many',
      data: { n },
    }));
    const over = 3;
    for (let n = 0; n < MAX_UNSENT_DELIVERIES + over; n++) sandbox.store.events.emit(topic, n);
    // Making 100,003 deliveries takes seconds (more on a busy machine): a patient wait.
    const failed = await until(
      'the deliveries over the bound',
      async () => {
        const page = await hooks(sandbox, 'GET', `/${hook.id}/deliveries?status=failed&limit=100`);
        // (After the 10 s attempt timeout, the first ones in flight are failed too.)
        const notSent = page.body.data.filter((d: Json) => d.not_sent !== undefined);
        return notSent.length === over ? notSent : undefined;
      },
      90_000,
    );
    for (const delivery of failed) {
      assert.equal(delivery.attempts, 0);
      assert.equal(delivery.dead_lettered, true);
      assert.equal(delivery.next_attempt_at, null);
      assert.match(delivery.not_sent, /^not sent: 100000 deliveries were waiting/);
    }
    const detail = await hooks(sandbox, 'GET', `/${hook.id}/deliveries/${failed[0].delivery_id}`);
    assert.deepEqual(detail.body.attempt_history, []);
    // The deliveries still waiting are not listed (no attempt has ended), and were sent.
    const listed = await hooks(sandbox, 'GET', `/${hook.id}/deliveries?limit=100`);
    assert.ok(listed.body.data.every((d: Json) => d.status !== 'pending'));
  });
});
