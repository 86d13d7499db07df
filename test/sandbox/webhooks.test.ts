// The webhook routes of the sandbox, over real HTTP, every answer checked against the
// contract: create (201, the secret once, the verification token, verification pending),
// read, list, update (200; a new url resets verification and re-runs the handshake), delete
// (204), the field rules (400 with field errors), 404s, and the secret never shown again.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFor } from './helpers.ts';
import {
  createHook,
  handshakeOf,
  hooks,
  type Json,
  noNames,
  startReceiver,
  until,
  verifiedHook,
} from './webhook-helpers.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('webhook routes', () => {
  test('create answers 201 with the secret once, the token and a pending verification', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const receiver = await startReceiver(t);
    const url = `${receiver.origin}/hooks/ws`;
    const answer = await hooks(sandbox, 'POST', '', {
      body: { name: 'Orders', url, description: 'orders feed', enabled: true },
    });
    assert.equal(answer.status, 201, answer.text);
    const created = answer.body;
    assert.match(created.id, UUID);
    assert.equal(created.team_id, sandbox.teamId);
    assert.equal(created.name, 'Orders');
    assert.equal(created.url, url);
    assert.equal(created.description, 'orders feed');
    assert.equal(created.enabled, true);
    assert.equal(created.verified, false);
    assert.equal(created.verified_at, null);
    assert.match(created.secret, /^whsec_[A-Za-z0-9_-]{32}$/);
    assert.match(created.verification_token, /^whtok_[A-Za-z0-9_-]{32}$/);
    assert.match(created.created_at, ISO);
    assert.equal(created.updated_at, created.created_at);
    assert.equal(created.verification.status, 'pending');
    assert.match(created.verification.delivery_id, UUID);

    // The secret is never answered again: not by get, list, update or verify.
    const got = await hooks(sandbox, 'GET', `/${created.id}`);
    const listed = await hooks(sandbox, 'GET');
    const patched = await hooks(sandbox, 'PATCH', `/${created.id}`, { body: { name: 'Orders 2' } });
    const verified = await hooks(sandbox, 'POST', `/${created.id}/verify`);
    for (const a of [got, listed, patched, verified]) {
      assert.ok(a.status === 200, a.text);
      assert.doesNotMatch(a.text, /whsec_/);
    }
    assert.deepEqual(
      listed.body.data.map((w: Json) => w.id),
      [created.id],
    );
    assert.equal(got.body.verification_token, created.verification_token);
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('defaults: enabled, no description; list keeps creation order', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const receiver = await startReceiver(t);
    const first = await createHook(sandbox, `${receiver.origin}/a`);
    const second = await createHook(sandbox, `${receiver.origin}/b`, { enabled: false });
    assert.equal(first.enabled, true);
    assert.equal(first.description, null);
    assert.equal(second.enabled, false);
    const listed = await hooks(sandbox, 'GET');
    assert.deepEqual(
      listed.body.data.map((w: Json) => [w.id, w.enabled]),
      [
        [first.id, true],
        [second.id, false],
      ],
    );
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('refuses bad fields with 400 invalid_request and field errors; nothing is created', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true, webhooks: { resolve: noNames } });
    const cases: [unknown, string, string][] = [
      [{ url: 'https://hooks.invalid/h' }, 'body.name', 'required'],
      [{ name: '', url: 'https://hooks.invalid/h' }, 'body.name', 'min_length'],
      [{ name: '   ', url: 'https://hooks.invalid/h' }, 'body.name', 'blank'],
      [{ name: 'x'.repeat(256), url: 'https://hooks.invalid/h' }, 'body.name', 'max_length'],
      [{ name: 'n' }, 'body.url', 'required'],
      [{ name: 'n', url: 'not a url' }, 'body.url', 'format'],
      [{ name: 'n', url: '/relative/path' }, 'body.url', 'format'],
      [{ name: 'n', url: 'ftp://example.com/h' }, 'body.url', 'scheme'],
      [{ name: 'n', url: 'mailto:ops@example.com' }, 'body.url', 'scheme'],
      [
        { name: 'n', url: 'https://hooks.invalid/h', description: 'd'.repeat(1001) },
        'body.description',
        'max_length',
      ],
      [{ name: 'n', url: 'https://hooks.invalid/h', enabled: 'yes' }, 'body.enabled', 'type'],
      [
        { name: 'n', url: 'https://hooks.invalid/h', secret: 'whsec_x' },
        'body.secret',
        'unknown_field',
      ],
    ];
    for (const [body, field, code] of cases) {
      const answer = await hooks(sandbox, 'POST', '', { body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error.code, 'invalid_request');
      const errors = answer.body.error.errors.map((e: Json) => `${e.field}:${e.code}`);
      assert.ok(
        errors.includes(`${field}:${code}`),
        `${JSON.stringify(body)} → ${errors.join(', ')}`,
      );
    }
    // The longest name and description are fine.
    const ok = await hooks(sandbox, 'POST', '', {
      body: {
        name: 'x'.repeat(255),
        url: 'https://hooks.invalid/h',
        description: 'd'.repeat(1000),
      },
    });
    assert.equal(ok.status, 201, ok.text);
    assert.equal((await hooks(sandbox, 'GET')).body.data.length, 1);
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('update answers 200; a new url resets verification and re-runs the handshake', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const receiver = await startReceiver(t);
    const hook = await verifiedHook(sandbox, `${receiver.origin}/one`);
    assert.equal(receiver.handshakes().length, 1);

    const renamed = await hooks(sandbox, 'PATCH', `/${hook.id}`, {
      body: { name: 'Renamed', description: 'now described', enabled: false },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.name, 'Renamed');
    assert.equal(renamed.body.description, 'now described');
    assert.equal(renamed.body.enabled, false);
    assert.equal(renamed.body.verified, true, 'no url change: still verified');
    assert.equal(renamed.body.verification, undefined);
    assert.ok(renamed.body.updated_at >= hook.updated_at);

    // The same url again is no change.
    const same = await hooks(sandbox, 'PATCH', `/${hook.id}`, { body: { url: hook.url } });
    assert.equal(same.body.verified, true);
    assert.equal(same.body.verification, undefined);

    const moved = await hooks(sandbox, 'PATCH', `/${hook.id}`, {
      body: { url: `${receiver.origin}/two` },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.url, `${receiver.origin}/two`);
    assert.equal(moved.body.verified, false);
    assert.equal(moved.body.verified_at, null);
    assert.equal(moved.body.verification.status, 'pending');
    const handshake = await handshakeOf(sandbox, moved.body);
    assert.equal(handshake.status, 'success');
    assert.equal(handshake.url, `${receiver.origin}/two`);
    assert.equal(receiver.handshakes().at(-1)?.path, '/two');
    const after = await hooks(sandbox, 'GET', `/${hook.id}`);
    assert.equal(after.body.verified, true);

    const bad = await hooks(sandbox, 'PATCH', `/${hook.id}`, { body: { name: ' ', url: 'x:y' } });
    assert.equal(bad.status, 400);
    assert.deepEqual(
      bad.body.error.errors.map((e: Json) => `${e.field}:${e.code}`),
      ['body.name:blank', 'body.url:scheme'],
    );
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('delete answers 204, then the webhook and its deliveries are gone', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const receiver = await startReceiver(t);
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const deleted = await hooks(sandbox, 'DELETE', `/${hook.id}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    for (const [method, rest] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/verify'],
      ['POST', '/ping'],
      ['GET', '/deliveries'],
      ['GET', `/deliveries/${hook.id}`],
    ] as const) {
      const answer = await hooks(sandbox, method, `/${hook.id}${rest}`, {
        ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
      });
      assert.equal(answer.status, 404, `${method} ${rest}`);
      assert.equal(answer.body.error.code, 'not_found');
      assert.match(answer.body.error.message, new RegExp(hook.id));
    }
    const team = await hooks(sandbox, 'GET', '/deliveries');
    assert.deepEqual(team.body.data, []);
    assert.deepEqual((await hooks(sandbox, 'GET')).body.data, []);
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('an unknown delivery, or one of another webhook, is 404', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const receiver = await startReceiver(t);
    const a = await verifiedHook(sandbox, `${receiver.origin}/a`);
    const b = await verifiedHook(sandbox, `${receiver.origin}/b`);
    const handshakeOfA = (await hooks(sandbox, 'GET', `/${a.id}/deliveries?type=verification`)).body
      .data[0];
    const wrong = await hooks(sandbox, 'GET', `/${b.id}/deliveries/${handshakeOfA.delivery_id}`);
    assert.equal(wrong.status, 404);
    const unknown = await hooks(sandbox, 'GET', `/${a.id}/deliveries/${crypto.randomUUID()}`);
    assert.equal(unknown.status, 404);
    const notUuid = await hooks(sandbox, 'GET', `/${a.id}/deliveries/nope`);
    assert.equal(notUuid.status, 400);
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('the request log never holds a signing secret', async (t) => {
    const lines: string[] = [];
    const sandbox = await startFor(t, { log: (line) => lines.push(line) });
    const receiver = await startReceiver(t);
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    await hooks(sandbox, 'POST', `/${hook.id}/ping`);
    await until('the ping', () => (receiver.posts().length === 1 ? true : undefined));
    assert.ok(lines.length >= 4, 'the requests were logged');
    for (const line of lines) assert.doesNotMatch(line, /whsec_/);
    assert.ok(receiver.posts()[0]!.body.length > 0);
  });

  test('reset empties webhooks and deliveries', async (t) => {
    const sandbox = await startFor(t);
    const receiver = await startReceiver(t);
    await verifiedHook(sandbox, `${receiver.origin}/h`);
    sandbox.reset();
    assert.deepEqual((await hooks(sandbox, 'GET')).body.data, []);
    assert.deepEqual((await hooks(sandbox, 'GET', '/deliveries')).body.data, []);
  });
});
