import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Resource } from '../../src/sandbox/resource.ts';
import { launchSandbox } from '../../src/sandbox/sandbox.ts';
import { call, prism, startFor, type TestHooks, withTestRoutes } from './helpers.ts';

describe('request validation at the door', () => {
  test('a request that does not match the contract: 400 invalid_request with errors[]', async (t) => {
    const hooks: TestHooks = { creates: 0 };
    const sandbox = await startFor(t, {}, withTestRoutes(hooks));
    const answer = await call(sandbox, 'POST', prism(sandbox, 'contact'), {
      body: { default: { name: 'Ada' }, colour: 'red' },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, 'invalid_request');
    assert.equal(answer.body.error.request_id, answer.headers['x-request-id']);
    assert.deepEqual(answer.body.error.errors, [
      { field: 'body.colour', message: 'is not allowed', code: 'unknown_field' },
    ]);
    assert.equal(
      answer.body.error.message,
      'The request is not valid: body.colour: is not allowed.',
    );
    assert.equal(hooks.creates, 0, 'the handler did not run');

    const missing = await call(sandbox, 'POST', prism(sandbox, 'contact'));
    assert.equal(missing.status, 400);
    assert.deepEqual(
      missing.body.error.errors.map((e: { field: string }) => e.field),
      ['body'],
    );
  });

  test('the route declares operations that must exist in the contract, with the same method and path', async () => {
    const route = (operationId: string, method: 'GET' | 'POST', path: string): Resource => ({
      name: 'bad',
      routes: [{ kind: 'api', method, path, operationId, handler: () => ({ status: 200 }) }],
    });
    await assert.rejects(
      launchSandbox({}, [route('noSuchOperation', 'GET', '/v2/nothing')]),
      /Sandbox route GET \/v2\/nothing declares operationId 'noSuchOperation', which openapi\/openapi\.yaml does not define/,
    );
    await assert.rejects(
      launchSandbox({}, [route('countRecords', 'POST', '/v2/prism/{teamId}/{objectType}/count')]),
      /which openapi\/openapi\.yaml defines as GET \/v2\/prism\/\{teamId\}\/\{objectType\}\/count/,
    );
  });
});

describe('response validation (validateResponses)', () => {
  test('answers that match the contract leave no violations', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true, seed: 'demo', rateLimit: 2 });
    await call(sandbox, 'GET', prism(sandbox, 'contact/count'));
    await call(sandbox, 'GET', prism(sandbox, 'deal/count?list_id=x'));
    await call(sandbox, 'GET', prism(sandbox, 'deal/count'));
    await call(sandbox, 'GET', prism(sandbox, 'deal/count'), { key: null });
    await call(sandbox, 'GET', prism(sandbox, 'deal/count'), { key: 'wrong' });
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('mismatches are recorded and the answer is left as it was', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true }, withTestRoutes({ creates: 0 }));
    const path = prism(sandbox, `contact/${crypto.randomUUID()}`);
    const answer = await call(sandbox, 'GET', path);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { nope: true });
    assert.ok(sandbox.contractViolations.length >= 2, sandbox.contractViolations.join('\n'));
    for (const violation of sandbox.contractViolations) {
      assert.ok(
        violation.startsWith(`GET ${path} → 200 (getRecord, ${answer.headers['x-request-id']}): `),
      );
    }
    assert.ok(sandbox.contractViolations.some((v) => /id/.test(v) && /required/.test(v)));
    assert.ok(sandbox.contractViolations.some((v) => /header etag is missing/.test(v)));
  });

  test('off by default', async (t) => {
    const sandbox = await startFor(t, {}, withTestRoutes({ creates: 0 }));
    await call(sandbox, 'GET', prism(sandbox, `contact/${crypto.randomUUID()}`));
    assert.deepEqual(sandbox.contractViolations, []);
  });
});
