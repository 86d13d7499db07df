// Delivery listings (per webhook and team-wide: newest first, status, type, before/after,
// cursor, limit 1 to 100) and deliveries across a restart with a data file (a pending retry
// is sent by the restarted sandbox, with the same delivery id and the same secret).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { defineEvent } from '../../src/sandbox/events.ts';
import { deliverOn } from '../../src/sandbox/resources/webhooks/dispatches.ts';
import { launchSandbox } from '../../src/sandbox/sandbox.ts';
import { call, startFor, tempDir } from './helpers.ts';
import {
  deliveryWhen,
  expectedSignature,
  handshakeThen,
  hooks,
  type Json,
  pinged,
  startReceiver,
  until,
  verifiedHook,
} from './webhook-helpers.ts';

describe('delivery listings', () => {
  test('newest first, filtered by status, type and time, paged by cursor', async (t) => {
    const sandbox = await startFor(t, {
      validateResponses: true,
      webhooks: { retryDelaysMs: [0, 0] },
    });
    const receiver = await startReceiver(t, (req) =>
      req.method === 'GET'
        ? { status: 200, body: req.query.get('service_hook_challenge') ?? '' }
        : { status: req.path === '/bad' ? 500 : 200 },
    );
    const good = await verifiedHook(sandbox, `${receiver.origin}/good`);
    const bad = await verifiedHook(sandbox, `${receiver.origin}/bad`);
    const topic = defineEvent<{ webhookId: string; n: number }>('test.listing');
    deliverOn(sandbox.store, topic, (e) => ({
      teamId: sandbox.teamId,
      webhookId: e.webhookId,
      event: `test.n${e.n}`,
      data: {},
    }));
    const advance = (seconds: number) =>
      call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds } });
    // Six events a minute apart, alternating webhooks: n0 good, n1 bad, n2 good, ...
    for (let n = 0; n < 6; n++) {
      await advance(60);
      sandbox.store.events.emit(topic, { webhookId: n % 2 === 0 ? good.id : bad.id, n });
    }
    await until('every delivery to end', async () => {
      const page = await hooks(sandbox, 'GET', '/deliveries?type=delivery');
      return page.body.data.length === 6 ? true : undefined;
    });
    await until('the failing ones to be dead-lettered', async () => {
      const page = await hooks(sandbox, 'GET', `/${bad.id}/deliveries?type=delivery`);
      return page.body.data.every((d: Json) => d.dead_lettered) ? true : undefined;
    });

    const events = async (rest: string) => {
      const answer = await hooks(sandbox, 'GET', rest);
      assert.equal(answer.status, 200, answer.text);
      return answer.body.data.map((d: Json) => d.event);
    };
    assert.deepEqual(await events('/deliveries?type=delivery'), [
      'test.n5',
      'test.n4',
      'test.n3',
      'test.n2',
      'test.n1',
      'test.n0',
    ]);
    // Type: the default is delivery; all adds the two handshakes (the oldest).
    assert.deepEqual(await events('/deliveries'), await events('/deliveries?type=delivery'));
    assert.deepEqual((await events('/deliveries?type=all')).slice(-2), [
      'verification',
      'verification',
    ]);
    assert.equal((await events('/deliveries?type=all')).length, 8);
    assert.deepEqual(await events(`/${good.id}/deliveries?type=verification`), ['verification']);
    assert.deepEqual(await events(`/${good.id}/deliveries`), ['test.n4', 'test.n2', 'test.n0']);
    assert.deepEqual(await events(`/${good.id}/deliveries?type=delivery`), [
      'test.n4',
      'test.n2',
      'test.n0',
    ]);
    assert.deepEqual(await events('/deliveries?status=failed'), ['test.n5', 'test.n3', 'test.n1']);
    assert.deepEqual(await events(`/${bad.id}/deliveries?status=success&type=delivery`), []);
    // Before and after: created strictly before / after the instant.
    const all = (await hooks(sandbox, 'GET', '/deliveries?type=delivery')).body.data as Json[];
    const times = all.map((d) => d.created_at as string).reverse(); // times[n]: test.n<n>
    const q = (s: string) => encodeURIComponent(s);
    assert.deepEqual(await events(`/deliveries?before=${q(times[2]!)}&type=delivery`), [
      'test.n1',
      'test.n0',
    ]);
    assert.deepEqual(await events(`/deliveries?after=${q(times[3]!)}`), ['test.n5', 'test.n4']);
    assert.deepEqual(
      await events(`/deliveries?after=${q(times[0]!)}&before=${q(times[3]!)}&status=success`),
      ['test.n2'],
    );

    // Pages: a cursor continues below the last delivery it gave, even after new deliveries.
    const first = await hooks(sandbox, 'GET', '/deliveries?type=delivery&limit=4');
    assert.deepEqual(
      first.body.data.map((d: Json) => d.event),
      ['test.n5', 'test.n4', 'test.n3', 'test.n2'],
    );
    assert.equal(typeof first.body.next_cursor, 'string');
    sandbox.store.events.emit(topic, { webhookId: good.id, n: 6 });
    const second = await hooks(
      sandbox,
      'GET',
      `/deliveries?type=delivery&limit=4&cursor=${first.body.next_cursor}`,
    );
    assert.deepEqual(
      second.body.data.map((d: Json) => d.event),
      ['test.n1', 'test.n0'],
    );
    assert.equal(second.body.next_cursor, null);
    // A cursor belongs to its listing's filters; a made-up one is refused too.
    const mismatch = await hooks(
      sandbox,
      'GET',
      `/deliveries?type=verification&cursor=${first.body.next_cursor}`,
    );
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error.errors[0].code, 'cursor_mismatch');
    const other = await hooks(
      sandbox,
      'GET',
      `/${good.id}/deliveries?type=delivery&cursor=${first.body.next_cursor}`,
    );
    assert.equal(other.body.error.errors[0].code, 'cursor_mismatch');
    const garbage = await hooks(sandbox, 'GET', '/deliveries?cursor=bm9wZQ');
    assert.equal(garbage.body.error.errors[0].code, 'invalid_cursor');

    for (const bad of [
      'limit=0',
      'limit=101',
      'limit=x',
      'status=done',
      'status=pending',
      'type=ping',
      'before=yesterday',
    ]) {
      const answer = await hooks(sandbox, 'GET', `/deliveries?${bad}`);
      assert.equal(answer.status, 400, bad);
      assert.equal(answer.body.error.code, 'invalid_request');
    }
    assert.equal((await hooks(sandbox, 'GET', '/deliveries?limit=100')).status, 200);
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('a delivery is listed once its first attempt has ended; read by id it is pending until then', async (t) => {
    const sandbox = await startFor(t, {
      validateResponses: true,
      webhooks: { retryDelaysMs: [0, 0], timeoutMs: 400 },
    });
    const receiver = await startReceiver(
      t,
      handshakeThen(() => 'hang'),
    );
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const ping = await hooks(sandbox, 'POST', `/${hook.id}/ping`);
    await until('the attempt to start', () => (receiver.posts().length === 1 ? true : undefined));
    const id = ping.body.delivery_id as string;
    for (const rest of [`/${hook.id}/deliveries`, '/deliveries', '/deliveries?type=all']) {
      const page = await hooks(sandbox, 'GET', rest);
      assert.equal(page.status, 200);
      assert.ok(!page.body.data.some((d: Json) => d.delivery_id === id), rest);
    }
    const detail = await hooks(sandbox, 'GET', `/${hook.id}/deliveries/${id}`);
    assert.equal(detail.body.status, 'pending');
    // The attempt times out: the delivery is listed, failed, in its place.
    const listed = await until('the delivery to be listed', async () => {
      const page = await hooks(sandbox, 'GET', `/${hook.id}/deliveries`);
      return page.body.data.find((d: Json) => d.delivery_id === id);
    });
    assert.equal(listed.status, 'failed');
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('pages hold 50 deliveries unless a limit says otherwise', async (t) => {
    const sandbox = await startFor(t);
    const receiver = await startReceiver(t);
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const topic = defineEvent<number>('test.many');
    deliverOn(sandbox.store, topic, () => ({
      teamId: sandbox.teamId,
      webhookId: hook.id,
      event: 'test.many',
      data: {},
    }));
    for (let n = 0; n < 60; n++) sandbox.store.events.emit(topic, n);
    await until('the 60 deliveries to end', () =>
      receiver.posts().length === 60 ? true : undefined,
    );
    const page = await until('the 60 deliveries to be listed', async () => {
      const answer = await hooks(sandbox, 'GET', `/${hook.id}/deliveries?type=all`);
      return answer.body.next_cursor === null ? undefined : answer;
    });
    assert.equal(page.body.data.length, 50);
    const rest = await until('the last delivery to be listed', async () => {
      const answer = await hooks(
        sandbox,
        'GET',
        `/${hook.id}/deliveries?type=all&cursor=${page.body.next_cursor}`,
      );
      return answer.body.data.length === 11 ? answer : undefined;
    });
    assert.equal(rest.body.data.length, 11, '10 events and the handshake');
    const ids = new Set([...page.body.data, ...rest.body.data].map((d: Json) => d.delivery_id));
    assert.equal(ids.size, 61);
  });
});

describe('across a restart with a data file', () => {
  test('a pending retry is sent by the restarted sandbox, same delivery, same secret', async (t) => {
    const dataFile = join(await tempDir(t), 'sandbox.json');
    const receiver = await startReceiver(
      t,
      handshakeThen(() => ({ status: 500 })),
    );
    const first = await launchSandbox({ dataFile });
    let closed = false;
    t.after(() => (closed ? undefined : first.close()));
    const hook = await verifiedHook(first, `${receiver.origin}/h`);
    const failed = await pinged(first, hook.id, (d) => d.attempts === 1);
    assert.notEqual(failed.next_attempt_at, null);
    await first.close();
    closed = true;

    receiver.respond = () => ({ status: 200 });
    const second = await startFor(t, { dataFile });
    const restored = (await hooks(second, 'GET', `/${hook.id}/deliveries/${failed.delivery_id}`))
      .body;
    assert.equal(restored.attempts, 1);
    assert.equal(restored.next_attempt_at, failed.next_attempt_at);
    await call(second, 'POST', '/__sandbox/clock/advance', { body: { seconds: 3600 } });
    const done = await deliveryWhen(
      second,
      hook.id,
      failed.delivery_id,
      (d) => d.status === 'success',
    );
    assert.equal(done.attempts, 2);
    const posts = receiver.posts();
    assert.equal(posts.length, 2);
    assert.equal(posts[1]!.headers['x-service-delivery-id'], failed.delivery_id);
    assert.equal(posts[1]!.body, posts[0]!.body);
    const [, stamp, v1] = /^t=(\d+),v1=(\w+)$/.exec(
      String(posts[1]!.headers['x-service-signature']),
    )!;
    assert.equal(v1, expectedSignature(hook.secret, stamp!, posts[1]!.body));
  });

  test('an attempt cut short by closing is made again after the restart', async (t) => {
    const dataFile = join(await tempDir(t), 'sandbox.json');
    const receiver = await startReceiver(
      t,
      handshakeThen(() => 'hang'),
    );
    const first = await launchSandbox({ dataFile });
    let closed = false;
    t.after(() => (closed ? undefined : first.close()));
    const hook = await verifiedHook(first, `${receiver.origin}/h`);
    const ping = await hooks(first, 'POST', `/${hook.id}/ping`);
    await until('the attempt to start', () => (receiver.posts().length === 1 ? true : undefined));
    await first.close();
    closed = true;

    receiver.respond = () => ({ status: 200 });
    const second = await startFor(t, { dataFile });
    const done = await deliveryWhen(
      second,
      hook.id,
      ping.body.delivery_id,
      (d) => d.status === 'success',
    );
    assert.equal(done.attempts, 1, 'the cut attempt was not recorded');
    assert.equal(receiver.posts().length, 2);
  });
});
