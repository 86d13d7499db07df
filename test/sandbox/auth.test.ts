import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, prism, REQUEST_ID, startFor } from './helpers.ts';

describe('authentication', () => {
  test('no x-api-key: 401 unauthorized', async (t) => {
    const sandbox = await startFor(t);
    for (const key of [null, '', '   ']) {
      const answer = await call(sandbox, 'GET', prism(sandbox, 'contact/count'), { key });
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, {
        error: {
          code: 'unauthorized',
          message: 'No API key provided: send it in the x-api-key header.',
          request_id: answer.headers['x-request-id'],
        },
      });
    }
  });

  test('a wrong key: 403 forbidden saying the key is invalid, without echoing it', async (t) => {
    const sandbox = await startFor(t);
    const wrong = `${sandbox.apiKey}x`;
    const answer = await call(sandbox, 'GET', prism(sandbox, 'contact/count'), { key: wrong });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.code, 'forbidden');
    assert.match(answer.body.error.message, /API key is invalid/);
    assert.ok(!answer.text.includes(wrong));
    assert.ok(!answer.text.includes(sandbox.apiKey));
  });

  test('the right key with another team: 403 forbidden naming the team', async (t) => {
    const sandbox = await startFor(t);
    const other = crypto.randomUUID();
    const answer = await call(sandbox, 'GET', `/v2/prism/${other}/contact/count`);
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.code, 'forbidden');
    assert.equal(answer.body.error.message, `The API key has no access to team ${other}.`);
    assert.ok(!answer.text.includes(sandbox.apiKey));
  });

  test('the three messages differ', async (t) => {
    const sandbox = await startFor(t);
    const messages = await Promise.all([
      call(sandbox, 'GET', prism(sandbox, 'contact/count'), { key: null }),
      call(sandbox, 'GET', prism(sandbox, 'contact/count'), { key: 'nope' }),
      call(sandbox, 'GET', `/v2/prism/${crypto.randomUUID()}/contact/count`),
    ]);
    assert.equal(new Set(messages.map((a) => a.body.error.message)).size, 3);
  });

  test('the team id is compared case-insensitively (it is a uuid)', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(
      sandbox,
      'GET',
      `/v2/prism/${sandbox.teamId.toUpperCase()}/deal/count`,
    );
    assert.equal(answer.status, 200);
  });

  test('authentication comes before path checks: an unknown object type with a wrong key is a 403', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(sandbox, 'GET', prism(sandbox, 'widgets/count'), { key: 'nope' });
    assert.equal(answer.status, 403);
  });

  test('control endpoints other than health need the key', async (t) => {
    const sandbox = await startFor(t);
    const missing = await call(sandbox, 'GET', '/__sandbox/clock', { key: null });
    assert.equal(missing.status, 401);
    const wrong = await call(sandbox, 'POST', '/__sandbox/reset', { key: 'nope' });
    assert.equal(wrong.status, 403);
    const health = await call(sandbox, 'GET', '/__sandbox/health', { key: null });
    assert.equal(health.status, 200);
  });
});

describe('webhook routes with the preview option', () => {
  test('answer as the gateway does: 403 with the older body form, whatever the key and method', async (t) => {
    const sandbox = await startFor(t, { webhooks: { preview: true } });
    const cases: [string, string, string | null][] = [
      ['GET', `/v2/webhooks/${sandbox.teamId}`, sandbox.apiKey],
      ['POST', `/v2/webhooks/${sandbox.teamId}`, sandbox.apiKey],
      ['DELETE', `/v2/webhooks/${sandbox.teamId}/${crypto.randomUUID()}`, 'wrong'],
      ['GET', `/v2/webhooks/${sandbox.teamId}/deliveries`, null],
      ['PATCH', '/v2/webhooks/anything/at/all', null],
    ];
    for (const [method, path, key] of cases) {
      const answer = await call(sandbox, method, path, { key, body: { name: 'x' } });
      assert.equal(answer.status, 403, `${method} ${path}`);
      assert.deepEqual(answer.body, { message: 'Missing Authentication Token' });
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      assert.match(String(answer.headers['x-request-id']), REQUEST_ID);
    }
  });
});
