// Deliveries, against real receivers: ping and other resources' events (through a topic of
// the event bus) reach enabled, verified webhooks only; bodies and headers as api.md says,
// signatures checked against an HMAC computed here; failed attempts (non-2xx, timeout) are
// retried twice on the schedule (shortened delays, or the sandbox clock advanced) and then
// dead-lettered; every attempt with both bodies, cut and marked at the documented size.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { defineEvent } from '../../src/sandbox/events.ts';
import {
  REQUEST_BODY_LIMIT,
  RESPONSE_BODY_LIMIT,
} from '../../src/sandbox/resources/webhooks/bodies.ts';
import { deliverOn } from '../../src/sandbox/resources/webhooks/dispatches.ts';
import { call, startFor } from './helpers.ts';
import {
  deliveryWhen,
  expectedSignature,
  handshakeOf,
  handshakeThen,
  hooks,
  type Json,
  pinged,
  startReceiver,
  until,
  verifiedHook,
} from './webhook-helpers.ts';

/** Retry delays short enough for tests, and jitter at its lowest (factor 0.8). */
const QUICK = { retryDelaysMs: [100, 200], random: () => 0 };

describe('ping', () => {
  test('sends webhook.test, signed, with the documented body and headers', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const receiver = await startReceiver(t);
    const hook = await verifiedHook(sandbox, `${receiver.origin}/events`);
    // Sandbox time, not real time, is in occurred_at and t=.
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds: 86_400 } });
    const now = Date.parse((await call(sandbox, 'GET', '/__sandbox/clock')).body.now);

    const ping = await hooks(sandbox, 'POST', `/${hook.id}/ping`);
    assert.equal(ping.status, 200, ping.text);
    assert.equal(ping.body.dispatched, true);
    assert.equal(ping.body.event, 'webhook.test');
    assert.equal(ping.body.webhook_id, hook.id);
    const delivery = await deliveryWhen(
      sandbox,
      hook.id,
      ping.body.delivery_id,
      (d) => d.status !== 'pending',
    );
    assert.equal(delivery.status, 'success');
    assert.equal(delivery.type, 'delivery');
    assert.equal(delivery.event, 'webhook.test');
    assert.equal(delivery.attempts, 1);

    const [post] = receiver.posts();
    assert.equal(post!.path, '/events');
    assert.equal(post!.headers['content-type'], 'application/json');
    const body = JSON.parse(post!.body);
    assert.deepEqual(Object.keys(body), ['id', 'webhook_id', 'event', 'occurred_at', 'data']);
    assert.equal(body.id, ping.body.delivery_id);
    assert.equal(body.webhook_id, hook.id);
    assert.equal(body.event, 'webhook.test');
    assert.deepEqual(body.data, {});
    assert.ok(Math.abs(Date.parse(body.occurred_at) - now) < 60_000, 'sandbox time');
    assert.equal(post!.headers['x-service-webhook-id'], hook.id);
    assert.equal(post!.headers['x-service-delivery-id'], body.id);
    assert.equal(post!.headers['x-service-event'], 'webhook.test');

    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(post!.headers['x-service-signature']));
    assert.ok(match, String(post!.headers['x-service-signature']));
    const [, stamp, v1] = match;
    assert.equal(v1, expectedSignature(hook.secret, stamp!, post!.body));
    assert.ok(Math.abs(Number(stamp) * 1000 - now) < 60_000, 't= is sandbox time');
    assert.notEqual(v1, expectedSignature(`${hook.secret}x`, stamp!, post!.body));

    // The attempt keeps both bodies.
    const [attempt] = delivery.attempt_history;
    assert.equal(attempt.request_body, post!.body);
    assert.equal(attempt.request_body_truncated, false);
    assert.equal(attempt.response_body, 'ok');
    assert.equal(attempt.status, 'success');
    assert.equal(attempt.error, null);
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('is not dispatched to a disabled or unverified webhook', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const receiver = await startReceiver(t);
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`, { enabled: false });
    const disabled = await hooks(sandbox, 'POST', `/${hook.id}/ping`);
    assert.deepEqual(disabled.body, {
      dispatched: false,
      event: 'webhook.test',
      webhook_id: hook.id,
      delivery_id: null,
    });
    await hooks(sandbox, 'PATCH', `/${hook.id}`, { body: { enabled: true } });
    const enabled = await hooks(sandbox, 'POST', `/${hook.id}/ping`);
    assert.equal(enabled.body.dispatched, true);
    await until('the ping', () => (receiver.posts().length === 1 ? true : undefined));
    const listed = await hooks(sandbox, 'GET', `/${hook.id}/deliveries?type=delivery`);
    assert.deepEqual(
      listed.body.data.map((d: Json) => d.delivery_id),
      [enabled.body.delivery_id],
    );
    assert.deepEqual(sandbox.contractViolations, []);
  });
});

describe('retries', () => {
  test('a failing receiver gets three attempts of the same delivery, then it is dead-lettered', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true, webhooks: QUICK });
    const receiver = await startReceiver(
      t,
      handshakeThen((_req, n) => ({ status: 500 + n, body: `failure ${n + 1}` })),
    );
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const delivery = await pinged(sandbox, hook.id, (d) => d.dead_lettered);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.status_code, 502);
    assert.equal(delivery.attempts, 3);
    assert.equal(delivery.next_attempt_at, null);
    assert.deepEqual(
      delivery.attempt_history.map((a: Json) => [
        a.attempt,
        a.status,
        a.status_code,
        a.error,
        a.response_body,
      ]),
      [
        [1, 'failed', 500, 'answered 500; deliveries need a 2xx answer', 'failure 1'],
        [2, 'failed', 501, 'answered 501; deliveries need a 2xx answer', 'failure 2'],
        [3, 'failed', 502, 'answered 502; deliveries need a 2xx answer', 'failure 3'],
      ],
    );
    // The schedule: each retry waits at least its base delay times 0.8 (jitter at its lowest).
    const started = delivery.attempt_history.map((a: Json) => Date.parse(a.created_at));
    assert.ok(started[1] - started[0] >= 80, `first retry after ${started[1] - started[0]} ms`);
    assert.ok(started[2] - started[1] >= 160, `second retry after ${started[2] - started[1]} ms`);

    // Three POSTs, one delivery id, one body; each signed anew.
    const posts = receiver.posts();
    assert.equal(posts.length, 3);
    assert.deepEqual(new Set(posts.map((p) => p.headers['x-service-delivery-id'])).size, 1);
    assert.deepEqual(new Set(posts.map((p) => p.body)).size, 1);
    for (const post of posts) {
      const [, stamp, v1] = /^t=(\d+),v1=(\w+)$/.exec(String(post.headers['x-service-signature']))!;
      assert.equal(v1, expectedSignature(hook.secret, stamp!, post.body));
      assert.equal(JSON.parse(post.body).id, delivery.delivery_id);
    }
    for (const attempt of delivery.attempt_history)
      assert.equal(attempt.request_body, posts[0]!.body);
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('a retry that succeeds ends the delivery as a success', async (t) => {
    const sandbox = await startFor(t, { webhooks: QUICK });
    const receiver = await startReceiver(
      t,
      handshakeThen((_req, n) => (n === 0 ? { status: 503 } : { status: 202 })),
    );
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const delivery = await pinged(sandbox, hook.id, (d) => d.status === 'success');
    assert.equal(delivery.attempts, 2);
    assert.equal(delivery.status_code, 202);
    assert.equal(delivery.dead_lettered, false);
    assert.equal(delivery.next_attempt_at, null);
    assert.deepEqual(
      delivery.attempt_history.map((a: Json) => a.status),
      ['failed', 'success'],
    );
  });

  test('a timeout fails an attempt like a non-2xx answer', async (t) => {
    const sandbox = await startFor(t, { webhooks: { ...QUICK, timeoutMs: 250 } });
    const receiver = await startReceiver(
      t,
      handshakeThen((_req, n) => (n === 0 ? 'hang' : { status: 200 })),
    );
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const delivery = await pinged(sandbox, hook.id, (d) => d.status === 'success');
    const [first, second] = delivery.attempt_history;
    assert.equal(first.status, 'failed');
    assert.equal(first.status_code, null);
    assert.match(first.error, /^timed out after 250 ms/);
    assert.equal(first.response_body, null);
    assert.equal(second.status, 'success');
  });

  test('advancing the sandbox clock makes due retries run; the default delays are 30 s and 120 s', async (t) => {
    // Jitter factor 1: the retries are due exactly 30 s and 120 s after the failed attempts.
    const sandbox = await startFor(t, { webhooks: { random: () => 0.5 } });
    const receiver = await startReceiver(
      t,
      handshakeThen(() => ({ status: 500 })),
    );
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const ping = await hooks(sandbox, 'POST', `/${hook.id}/ping`);
    const id = ping.body.delivery_id;
    const first = await deliveryWhen(sandbox, hook.id, id, (d) => d.attempts === 1);
    const due = Date.parse(first.next_attempt_at) - Date.parse(first.updated_at);
    assert.ok(due >= 29_990 && due <= 30_010, `first retry due after ${due} ms`);

    const advance = (seconds: number) =>
      call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds } });
    await advance(25);
    await delay(100);
    assert.equal(receiver.posts().length, 1, 'not due yet');
    await advance(6);
    const second = await deliveryWhen(sandbox, hook.id, id, (d) => d.attempts === 2);
    const due2 = Date.parse(second.next_attempt_at) - Date.parse(second.updated_at);
    assert.ok(due2 >= 119_990 && due2 <= 120_010, `second retry due after ${due2} ms`);
    await advance(121);
    const last = await deliveryWhen(sandbox, hook.id, id, (d) => d.dead_lettered);
    assert.equal(last.attempts, 3);
    assert.equal(receiver.posts().length, 3);
  });

  test('a retry due while its webhook is disabled or deleted is not sent', async (t) => {
    const sandbox = await startFor(t);
    const receiver = await startReceiver(
      t,
      handshakeThen(() => ({ status: 500 })),
    );
    const kept = await verifiedHook(sandbox, `${receiver.origin}/disabled`);
    const gone = await verifiedHook(sandbox, `${receiver.origin}/deleted`);
    const pingKept = await hooks(sandbox, 'POST', `/${kept.id}/ping`);
    const pingGone = await hooks(sandbox, 'POST', `/${gone.id}/ping`);
    await deliveryWhen(sandbox, kept.id, pingKept.body.delivery_id, (d) => d.attempts === 1);
    await deliveryWhen(sandbox, gone.id, pingGone.body.delivery_id, (d) => d.attempts === 1);
    await hooks(sandbox, 'PATCH', `/${kept.id}`, { body: { enabled: false } });
    await hooks(sandbox, 'DELETE', `/${gone.id}`);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds: 3600 } });
    const dead = await deliveryWhen(
      sandbox,
      kept.id,
      pingKept.body.delivery_id,
      (d) => d.dead_lettered,
    );
    assert.equal(dead.attempts, 1);
    assert.equal(dead.next_attempt_at, null);
    await delay(100);
    assert.equal(receiver.posts().length, 2, 'only the two first attempts');
  });

  test('reset stops pending retries', async (t) => {
    const sandbox = await startFor(t);
    const receiver = await startReceiver(
      t,
      handshakeThen(() => ({ status: 500 })),
    );
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const ping = await hooks(sandbox, 'POST', `/${hook.id}/ping`);
    await deliveryWhen(sandbox, hook.id, ping.body.delivery_id, (d) => d.attempts === 1);
    await call(sandbox, 'POST', '/__sandbox/reset');
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds: 3600 } });
    await delay(100);
    assert.equal(receiver.posts().length, 1);
  });
});

describe('bodies in the attempt history', () => {
  test('are cut at the documented size, on a character boundary, and marked', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true, webhooks: QUICK });
    const big = 'é'.repeat(40_000); // 80,000 bytes
    const receiver = await startReceiver(
      t,
      handshakeThen(() => ({ status: 500, body: big })),
    );
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const topic = defineEvent<{ blob: string }>('test.big-event');
    deliverOn(sandbox.store, topic, (e) => ({
      teamId: sandbox.teamId,
      webhookId: hook.id,
      event: 'test.big',
      data: { blob: e.blob },
    }));
    sandbox.store.events.emit(topic, { blob: 'ü'.repeat(50_000) }); // 100,000 bytes of data
    const id = await until('the delivery', async () => {
      const listed = await hooks(sandbox, 'GET', `/${hook.id}/deliveries?type=delivery`);
      return listed.body.data[0]?.delivery_id as string | undefined;
    });
    // While a retry is due the whole body is kept (and sent); the history shows it cut.
    const pending = await deliveryWhen(sandbox, hook.id, id, (d) => d.attempts === 1);
    assert.equal(
      Buffer.byteLength(receiver.posts()[0]!.body),
      receiver.posts()[0]!.body.length + 50_000,
    );
    assert.equal(pending.attempt_history[0].request_body_truncated, true);
    const done = await deliveryWhen(sandbox, hook.id, id, (d) => d.dead_lettered);
    for (const post of receiver.posts())
      assert.equal(JSON.parse(post.body).data.blob.length, 50_000);
    for (const attempt of done.attempt_history) {
      assert.equal(attempt.request_body_truncated, true);
      assert.ok(Buffer.byteLength(attempt.request_body) <= REQUEST_BODY_LIMIT);
      assert.ok(Buffer.byteLength(attempt.request_body) > REQUEST_BODY_LIMIT - 4);
      assert.ok(receiver.posts()[0]!.body.startsWith(attempt.request_body));
      assert.equal(attempt.response_body_truncated, true);
      assert.equal(attempt.response_body, 'é'.repeat(RESPONSE_BODY_LIMIT / 2));
    }
    assert.deepEqual(sandbox.contractViolations, []);
  });
});

describe('events of other resources', () => {
  test('a topic wired with deliverOn reaches verified, enabled webhooks of the team only', async (t) => {
    const sandbox = await startFor(t);
    const receiver = await startReceiver(t);
    const verified = await verifiedHook(sandbox, `${receiver.origin}/verified`);
    const disabled = await verifiedHook(sandbox, `${receiver.origin}/disabled`, {
      enabled: false,
    });
    receiver.respond = () => ({ status: 404 });
    const unverified = (
      await hooks(sandbox, 'POST', '', {
        body: { name: 'never verified', url: `${receiver.origin}/unverified` },
      })
    ).body;
    await handshakeOf(sandbox, unverified, (d) => d.status === 'failed');
    receiver.respond = () => ({ status: 200 });

    // As an automation's webhook action would: its own topic, turned into dispatches.
    const action = defineEvent<{ webhookId: string; recordId: string; teamId?: string }>(
      'test.webhook-action',
    );
    deliverOn(sandbox.store, action, (e) =>
      e.recordId === 'skip'
        ? undefined
        : {
            teamId: e.teamId ?? sandbox.teamId,
            webhookId: e.webhookId,
            event: 'record.updated',
            data: { record_id: e.recordId },
          },
    );
    for (const webhookId of [verified.id, disabled.id, unverified.id, crypto.randomUUID()]) {
      sandbox.store.events.emit(action, { webhookId, recordId: 'r1' });
    }
    sandbox.store.events.emit(action, { webhookId: verified.id, recordId: 'skip' });
    sandbox.store.events.emit(action, {
      webhookId: verified.id,
      recordId: 'r2',
      teamId: crypto.randomUUID(),
    });
    const [post] = await until('the event', () =>
      receiver.posts().length > 0 ? receiver.posts() : undefined,
    );
    await delay(100);
    assert.equal(receiver.posts().length, 1, 'one webhook, one event');
    assert.equal(post!.path, '/verified');
    const body = JSON.parse(post!.body);
    assert.equal(body.event, 'record.updated');
    assert.deepEqual(body.data, { record_id: 'r1' });
    assert.equal(post!.headers['x-service-event'], 'record.updated');
    const team = await hooks(sandbox, 'GET', '/deliveries?type=delivery');
    assert.deepEqual(
      team.body.data.map((d: Json) => [d.webhook_id, d.event]),
      [[verified.id, 'record.updated']],
    );
  });
});

describe('at scale', () => {
  test('every event is delivered exactly once', async (t) => {
    const sandbox = await startFor(t);
    const receiver = await startReceiver(t);
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const topic = defineEvent<number>('test.numbered');
    deliverOn(sandbox.store, topic, (n) => ({
      teamId: sandbox.teamId,
      webhookId: hook.id,
      event: 'test.numbered',
      data: { n },
    }));
    const count = 300;
    for (let n = 0; n < count; n++) sandbox.store.events.emit(topic, n);
    await until('every event', () => (receiver.posts().length >= count ? true : undefined));
    await delay(100);
    const posts = receiver.posts();
    assert.equal(posts.length, count);
    const ns = posts.map((p) => JSON.parse(p.body).data.n as number).sort((a, b) => a - b);
    assert.deepEqual(
      ns,
      Array.from({ length: count }, (_, n) => n),
    );
    assert.equal(new Set(posts.map((p) => p.headers['x-service-delivery-id'])).size, count);
    const page = await hooks(
      sandbox,
      'GET',
      `/${hook.id}/deliveries?type=delivery&status=success&limit=100`,
    );
    assert.equal(page.body.data.length, 100);
  });

  test("a receiver that hangs does not hold up other webhooks' deliveries", async (t) => {
    const sandbox = await startFor(t);
    const hanging = await startReceiver(
      t,
      handshakeThen(() => 'hang'),
    );
    const quick = await startReceiver(t);
    const stuck = await verifiedHook(sandbox, `${hanging.origin}/stuck`);
    const fine = await verifiedHook(sandbox, `${quick.origin}/fine`);
    const topic = defineEvent<string>('test.to');
    deliverOn(sandbox.store, topic, (webhookId) => ({
      teamId: sandbox.teamId,
      webhookId,
      event: 'test.to',
      data: {},
    }));
    for (let i = 0; i < 40; i++) sandbox.store.events.emit(topic, stuck.id);
    for (let i = 0; i < 20; i++) sandbox.store.events.emit(topic, fine.id);
    await until('the quick receiver', () => (quick.posts().length === 20 ? true : undefined));
    await until('the stuck receiver', () => (hanging.posts().length >= 16 ? true : undefined));
    await delay(100);
    const stuckList = await hooks(
      sandbox,
      'GET',
      `/${stuck.id}/deliveries?type=delivery&limit=100`,
    );
    // None has an outcome yet: none is listed (each is pending, read by its id).
    assert.equal(stuckList.body.data.length, 0);
    const fineList = await hooks(sandbox, 'GET', `/${fine.id}/deliveries?limit=100`);
    assert.equal(fineList.body.data.length, 20);
    // At most 16 attempts in flight per webhook: the rest wait their turn.
    assert.equal(hanging.posts().length, 16);
  });
});
