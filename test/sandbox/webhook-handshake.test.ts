// The verification handshake, against real receivers: on create, url change and verify the
// sandbox sends GET url?service_hook_mode=subscribe&service_hook_challenge=…&
// service_hook_token=…; only a 200 whose body is the challenge verbatim verifies the
// webhook. Every run is a delivery of type `verification`, made once (no retries).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { startFor } from './helpers.ts';
import {
  createHook,
  handshakeOf,
  hooks,
  type Reaction,
  type Received,
  startReceiver,
  verifiedHook,
} from './webhook-helpers.ts';

const challengeOf = (req: Received) => req.query.get('service_hook_challenge') ?? '';

describe('the handshake', () => {
  test('a 200 echoing the challenge verifies the webhook', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const receiver = await startReceiver(t);
    const created = await createHook(sandbox, `${receiver.origin}/in?app=crm`);
    const handshake = await handshakeOf(sandbox, created);
    assert.equal(handshake.type, 'verification');
    assert.equal(handshake.event, 'verification');
    assert.equal(handshake.status, 'success');
    assert.equal(handshake.status_code, 200);
    assert.equal(handshake.attempts, 1);
    assert.equal(handshake.next_attempt_at, null);
    assert.equal(handshake.dead_lettered, false);
    const [attempt] = handshake.attempt_history;
    assert.equal(attempt.request_body, null, 'handshakes have no request body');

    const [get] = receiver.received;
    assert.equal(get!.method, 'GET');
    assert.equal(get!.path, '/in');
    assert.equal(get!.query.get('app'), 'crm', "the url's own query is kept");
    assert.equal(get!.query.get('service_hook_mode'), 'subscribe');
    assert.equal(get!.query.get('service_hook_token'), created.verification_token);
    assert.match(challengeOf(get!), /^[A-Za-z0-9_-]{32}$/);
    assert.equal(attempt.response_body, challengeOf(get!));
    assert.equal(get!.headers['x-service-signature'], undefined, 'no signature is involved');
    assert.equal(get!.headers['x-service-delivery-id'], handshake.delivery_id);

    const webhook = (await hooks(sandbox, 'GET', `/${created.id}`)).body;
    assert.equal(webhook.verified, true);
    assert.ok(webhook.verified_at >= created.created_at);
    assert.ok(webhook.verified_at >= handshake.attempt_history[0].created_at);
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('anything else leaves the webhook unverified, once, with the reason', async (t) => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const reactions: Record<string, (req: Received) => Reaction> = {
      '/not-found': () => ({ status: 404, body: 'no such hook' }),
      '/wrong-body': () => ({ status: 200, body: 'hello' }),
      '/empty': () => ({ status: 200 }),
      '/trailing-newline': (req) => ({ status: 200, body: `${challengeOf(req)}\n` }),
      '/json': (req) => ({ status: 200, body: JSON.stringify({ challenge: challengeOf(req) }) }),
      '/created': (req) => ({ status: 201, body: challengeOf(req) }),
      '/no-content': () => ({ status: 204 }),
      '/error': (req) => ({ status: 500, body: challengeOf(req) }),
      '/hang': () => 'hang',
      '/reset': () => 'reset',
    };
    const receiver = await startReceiver(t, (req) => reactions[req.path]!(req));
    const sandbox = await startFor(t, { validateResponses: true, webhooks: { timeoutMs: 300 } });
    const expected: [string, number | null, RegExp][] = [
      [`${receiver.origin}/not-found`, 404, /answered 404; the handshake needs 200/],
      [`${receiver.origin}/wrong-body`, 200, /body was not the challenge/],
      [`${receiver.origin}/empty`, 200, /body was not the challenge/],
      [`${receiver.origin}/trailing-newline`, 200, /body was not the challenge/],
      [`${receiver.origin}/json`, 200, /body was not the challenge/],
      [`${receiver.origin}/created`, 201, /answered 201/],
      [`${receiver.origin}/no-content`, 204, /answered 204/],
      [`${receiver.origin}/error`, 500, /answered 500/],
      [`${receiver.origin}/hang`, null, /timed out after 300 ms/],
      [`${receiver.origin}/reset`, null, /closed before a whole answer \(ECONNRESET\)/],
      [`http://127.0.0.1:${closedPort}/gone`, null, /connection refused by 127\.0\.0\.1:\d+/],
    ];
    for (const [url, code, reason] of expected) {
      const created = await createHook(sandbox, url);
      const handshake = await handshakeOf(sandbox, created);
      assert.equal(handshake.status, 'failed', url);
      assert.equal(handshake.status_code, code, url);
      assert.equal(handshake.attempts, 1, url);
      assert.equal(handshake.next_attempt_at, null, `${url}: no retry`);
      assert.equal(handshake.dead_lettered, true, url);
      assert.match(handshake.attempt_history[0].error, reason, url);
      const webhook = (await hooks(sandbox, 'GET', `/${created.id}`)).body;
      assert.equal(webhook.verified, false, url);
      assert.equal(webhook.verified_at, null, url);
      // Not verified: a ping is not dispatched.
      const ping = await hooks(sandbox, 'POST', `/${created.id}/ping`);
      assert.deepEqual(ping.body, {
        dispatched: false,
        event: 'webhook.test',
        webhook_id: created.id,
        delivery_id: null,
      });
    }
    assert.equal(receiver.posts().length, 0);
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('verify re-runs it: a failing endpoint becomes unverified, a fixed one verified', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const receiver = await startReceiver(t);
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);

    receiver.respond = () => ({ status: 503 });
    const failing = await hooks(sandbox, 'POST', `/${hook.id}/verify`);
    assert.equal(failing.status, 200, failing.text);
    assert.equal(failing.body.verification.status, 'pending');
    assert.equal(failing.body.verified, true, 'unchanged until the handshake ends');
    await handshakeOf(sandbox, failing.body, (d) => d.status === 'failed');
    assert.equal((await hooks(sandbox, 'GET', `/${hook.id}`)).body.verified, false);

    receiver.respond = (req) => ({ status: 200, body: challengeOf(req) });
    const fixed = await hooks(sandbox, 'POST', `/${hook.id}/verify`);
    await handshakeOf(sandbox, fixed.body, (d) => d.status === 'success');
    assert.equal((await hooks(sandbox, 'GET', `/${hook.id}`)).body.verified, true);
    assert.equal(receiver.handshakes().length, 3);
    const tokens = new Set(receiver.handshakes().map((r) => r.query.get('service_hook_token')));
    assert.deepEqual([...tokens], [hook.verification_token]);
    const challenges = new Set(receiver.handshakes().map(challengeOf));
    assert.equal(challenges.size, 3, 'every run has its own challenge');
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('a handshake overtaken by a url change decides nothing', async (t) => {
    const sandbox = await startFor(t);
    const slow = await startReceiver(t, () => 'hang');
    const fast = await startReceiver(t);
    const created = await createHook(sandbox, `${slow.origin}/slow`);
    const moved = await hooks(sandbox, 'PATCH', `/${created.id}`, {
      body: { url: `${fast.origin}/fast` },
    });
    await handshakeOf(sandbox, moved.body, (d) => d.status === 'success');
    assert.equal((await hooks(sandbox, 'GET', `/${created.id}`)).body.verified, true);
    assert.equal(slow.handshakes().length, 1, 'the first handshake is still waiting');
  });
});
