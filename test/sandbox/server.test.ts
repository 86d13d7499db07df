import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import { call, prism, REQUEST_ID, startFor, type TestHooks, withTestRoutes } from './helpers.ts';

describe('answers', () => {
  test('JSON with charset, and a fresh x-request-id on every answer', async (t) => {
    const sandbox = await startFor(t);
    const first = await call(sandbox, 'GET', prism(sandbox, 'contact/count'));
    const second = await call(sandbox, 'GET', prism(sandbox, 'contact/count'));
    assert.equal(first.status, 200);
    assert.equal(first.headers['content-type'], 'application/json; charset=utf-8');
    assert.match(String(first.headers['x-request-id']), REQUEST_ID);
    assert.match(String(second.headers['x-request-id']), REQUEST_ID);
    assert.notEqual(first.headers['x-request-id'], second.headers['x-request-id']);
    assert.deepEqual(first.body, { total: 0 });
  });

  test('unknown path: 404 not_found naming the method and the path, in the error body form', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(sandbox, 'GET', '/v2/nothing/here?x=1');
    assert.equal(answer.status, 404);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(answer.body, {
      error: {
        code: 'not_found',
        message: 'No such endpoint: GET /v2/nothing/here does not exist.',
        request_id: answer.headers['x-request-id'],
      },
    });
  });

  test('known path, wrong method: 405 method_not_allowed with an Allow header', async (t) => {
    const sandbox = await startFor(t);
    const path = prism(sandbox, 'contact/count');
    const answer = await call(sandbox, 'DELETE', path);
    assert.equal(answer.status, 405);
    assert.equal(answer.headers['allow'], 'GET, HEAD');
    assert.equal(answer.body.error.code, 'method_not_allowed');
    assert.equal(
      answer.body.error.message,
      `Method DELETE is not allowed on ${path}; allowed: GET, HEAD.`,
    );
    assert.equal(answer.body.error.request_id, answer.headers['x-request-id']);
  });

  test('HEAD answers like GET without a body', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(sandbox, 'HEAD', prism(sandbox, 'contact/count'));
    assert.equal(answer.status, 200);
    assert.equal(answer.text, '');
    assert.match(String(answer.headers['x-request-id']), REQUEST_ID);
  });

  test('an encoded / stays inside its segment', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(sandbox, 'GET', prism(sandbox, 'con%2Ftact/count'));
    assert.equal(answer.status, 404);
    assert.match(answer.body.error.message, /Unknown object type 'con\/tact'/);
  });

  test('a malformed percent escape in the path is a 400', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(sandbox, 'GET', prism(sandbox, 'con%zztact/count'));
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, 'invalid_request');
    assert.match(
      answer.body.error.message,
      /Path segment 4 \('con%zztact'\) is not valid percent-encoded UTF-8/,
    );
  });

  test('invalid JSON body: 400 invalid_request saying the body is not valid JSON', async (t) => {
    const hooks: TestHooks = { creates: 0 };
    const sandbox = await startFor(t, {}, withTestRoutes(hooks));
    for (const path of [prism(sandbox, 'contact'), '/__sandbox/clock/advance']) {
      const answer = await call(sandbox, 'POST', path, { raw: '{"default": {' });
      assert.equal(answer.status, 400, path);
      assert.equal(answer.body.error.code, 'invalid_request');
      assert.match(answer.body.error.message, /^The request body is not valid JSON: /);
      assert.equal(answer.body.error.request_id, answer.headers['x-request-id']);
      assert.equal('errors' in answer.body.error, false);
    }
    const notUtf8 = await call(sandbox, 'POST', prism(sandbox, 'contact'), {
      raw: Buffer.from([0x7b, 0xff, 0x7d]),
    });
    assert.equal(notUtf8.status, 400);
    assert.match(notUtf8.body.error.message, /not valid JSON: it is not UTF-8 text/);
    assert.equal(hooks.creates, 0);
  });

  test('a body over 10 MiB: 413 payload_too_large', async (t) => {
    const sandbox = await startFor(t);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    const answer = await call(sandbox, 'POST', '/__sandbox/faults', { raw: big });
    assert.equal(answer.status, 413);
    assert.equal(answer.body.error.code, 'payload_too_large');
    assert.match(answer.body.error.message, /larger than 10485760 bytes \(10 MiB\)/);
    // Exactly 10 MiB is accepted (whitespace only: an empty body).
    const limit = await call(sandbox, 'POST', '/__sandbox/faults', { raw: big.subarray(1) });
    assert.equal(limit.status, 200);
  });

  test('max_body_bytes: API bodies over it are 413, control bodies are not', async (t) => {
    const sandbox = await startFor(t, { maxBodyBytes: 2048 });
    const path = prism(sandbox, 'contact');
    const over = await call(sandbox, 'POST', path, {
      body: { default: { name: 'x'.repeat(2048) } },
    });
    assert.equal(over.status, 413);
    assert.equal(over.body.error.code, 'payload_too_large');
    assert.match(over.body.error.message, /larger than 2048 bytes, the most the API accepts/);
    const under = await call(sandbox, 'POST', path, { body: { default: { name: 'Ann' } } });
    assert.equal(under.status, 201);
    const control = await call(sandbox, 'POST', '/__sandbox/faults', {
      raw: Buffer.from(`{"latency_ms":0}${' '.repeat(4096)}`),
    });
    assert.equal(control.status, 200);
  });

  test('an unexpected exception: 500 internal_error, no stack to the client, stack to the log', async (t) => {
    const lines: string[] = [];
    const sandbox = await startFor(
      t,
      { log: (line) => lines.push(line) },
      withTestRoutes({ creates: 0 }),
    );
    const path = prism(sandbox, `contact/${crypto.randomUUID()}/restore`);
    const answer = await call(sandbox, 'POST', path);
    assert.equal(answer.status, 500);
    assert.equal(answer.body.error.code, 'internal_error');
    assert.equal(answer.body.error.request_id, answer.headers['x-request-id']);
    assert.doesNotMatch(answer.text, /kaboom|secret|handlers\.ts|at /);
    const logged = lines.find((line) => line.includes('kaboom'));
    assert.ok(logged, 'the stack is logged');
    assert.ok(logged.includes(String(answer.headers['x-request-id'])));
  });

  test('a reply that cannot be sent as JSON becomes a 500 internal_error', async (t) => {
    const lines: string[] = [];
    const sandbox = await startFor(
      t,
      { log: (line) => lines.push(line) },
      withTestRoutes({ creates: 0 }),
    );
    const answer = await call(
      sandbox,
      'POST',
      prism(sandbox, `deal/${crypto.randomUUID()}/duplicate`),
    );
    assert.equal(answer.status, 500);
    assert.equal(answer.body.error.code, 'internal_error');
    assert.equal(answer.body.error.request_id, answer.headers['x-request-id']);
    assert.ok(lines.some((line) => line.includes('BigInt')));
  });

  test('log: one line per request with method, path, status, ms and request id; never the key', async (t) => {
    const lines: string[] = [];
    const sandbox = await startFor(t, { log: (line) => lines.push(line) });
    const answer = await call(sandbox, 'GET', prism(sandbox, 'deal/count'));
    await call(sandbox, 'GET', '/__sandbox/health');
    assert.equal(lines.length, 2);
    assert.equal(
      lines[0],
      `GET ${prism(sandbox, 'deal/count')} 200 ${/ (\d+)ms /.exec(lines[0]!)?.[1]}ms ${answer.headers['x-request-id']}`,
    );
    assert.match(lines[1]!, /^GET \/__sandbox\/health 200 \d+ms req_[0-9a-f]{24}$/);
    assert.ok(lines.every((line) => !line.includes(sandbox.apiKey)));
  });
});

describe('start and close', () => {
  test('defaults: 127.0.0.1, a free port, a generated key and a uuid team', async (t) => {
    const sandbox = await startFor(t);
    assert.equal(sandbox.host, '127.0.0.1');
    assert.ok(sandbox.port > 0);
    assert.equal(sandbox.url, `http://127.0.0.1:${sandbox.port}`);
    assert.match(sandbox.apiKey, /^wsk_sandbox_[0-9a-f]{32}$/);
    assert.match(
      sandbox.teamId,
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const other = await startFor(t);
    assert.notEqual(other.apiKey, sandbox.apiKey);
    assert.notEqual(other.port, sandbox.port);
  });

  test('close stops accepting connections and can be called twice', async () => {
    const sandbox = await startSandbox({ latencyMs: 5000 });
    const pending = call(sandbox, 'GET', prism(sandbox, 'contact/count'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await Promise.all([sandbox.close(), sandbox.close()]);
    assert.ok(Date.now() - started < 2000, 'close does not wait for the latency');
    await assert.rejects(pending);
    await assert.rejects(call(sandbox, 'GET', '/__sandbox/health'), /ECONNREFUSED/);
  });

  test('a busy port is an error naming host and port', async (t) => {
    const sandbox = await startFor(t);
    await assert.rejects(
      startSandbox({ port: sandbox.port }),
      new RegExp(`could not listen on 127\\.0\\.0\\.1:${sandbox.port}`),
    );
  });

  test('invalid options are rejected with the option named', async () => {
    await assert.rejects(
      startSandbox({ failRate: 2 }),
      /failRate must be a number from 0 to 1, got 2/,
    );
    await assert.rejects(startSandbox({ rateLimit: 1.5 }), /rateLimit must be a whole number/);
    await assert.rejects(startSandbox({ teamId: 'team-1' }), /teamId must be a UUID, got 'team-1'/);
    await assert.rejects(startSandbox({ apiKey: 'has space' }), /apiKey must be/);
    await assert.rejects(startSandbox({ port: 70000 }), /port must be an integer/);
  });

  test('given key and team are used', async (t) => {
    const teamId = crypto.randomUUID();
    const sandbox = await startFor(t, { apiKey: 'wsk_given', teamId });
    assert.equal(sandbox.apiKey, 'wsk_given');
    assert.equal(sandbox.teamId, teamId);
    const answer = await call(sandbox, 'GET', `/v2/prism/${teamId}/contact/count`, {
      key: 'wsk_given',
    });
    assert.equal(answer.status, 200);
  });
});
