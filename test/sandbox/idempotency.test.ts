import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  fingerprint,
  idempotencySlice,
  STALE_RETENTION_MS,
} from '../../src/sandbox/idempotency.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import type { RunningSandbox } from '../../src/sandbox/sandbox.ts';
import { canonicalJson } from '../../src/util/canonical-json.ts';
import {
  call,
  prism,
  REQUEST_ID,
  SandboxError,
  startFor,
  type TestHooks,
  tempDir,
  withTestRoutes,
} from './helpers.ts';

async function setup(t: Parameters<typeof startFor>[0]) {
  const hooks: TestHooks = { creates: 0 };
  const sandbox = await startFor(t, {}, withTestRoutes(hooks));
  const create = (
    key: string | undefined,
    body: unknown = { default: { name: 'Ada' } },
    type = 'contact',
  ) =>
    call(sandbox, 'POST', prism(sandbox, type), {
      body,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  return { sandbox, hooks, create };
}

describe('Idempotency-Key', () => {
  test('the first answer is replayed with idempotent-replay: true, and the work is done once', async (t) => {
    const { sandbox, hooks, create } = await setup(t);
    const first = await create('key-1');
    assert.equal(first.status, 201);
    assert.equal(first.headers['idempotent-replay'], undefined);
    const second = await create('key-1');
    assert.equal(second.status, 201);
    assert.equal(second.headers['idempotent-replay'], 'true');
    assert.deepEqual(second.body, first.body);
    assert.equal(second.headers['location'], first.headers['location']);
    assert.equal(second.headers['etag'], first.headers['etag']);
    assert.match(String(second.headers['x-request-id']), REQUEST_ID);
    assert.notEqual(second.headers['x-request-id'], first.headers['x-request-id']);
    assert.equal(hooks.creates, 1);
    assert.equal(recordsOf(sandbox.store).count('contact'), 1);
  });

  test('the same body in another key order is the same request', async (t) => {
    const { create } = await setup(t);
    await create('key-2', { default: { name: 'Ada', email: 'a@x.example' } });
    const again = await create('key-2', { default: { email: 'a@x.example', name: 'Ada' } });
    assert.equal(again.headers['idempotent-replay'], 'true');
  });

  test('the same key with another body: 409 idempotency_key_mismatch', async (t) => {
    const { sandbox, create } = await setup(t);
    await create('key-3');
    const other = await create('key-3', { default: { name: 'Grace' } });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'idempotency_key_mismatch');
    assert.match(
      other.body.error.message,
      /Idempotency-Key 'key-3' was already used with a different request body/,
    );
    assert.equal(recordsOf(sandbox.store).count('contact'), 1);
  });

  test('keys are per method and path: another object type does its own work', async (t) => {
    const { sandbox, create } = await setup(t);
    await create('key-4', { default: {} }, 'contact');
    const deal = await create('key-4', { default: {} }, 'deal');
    assert.equal(deal.status, 201);
    assert.equal(deal.headers['idempotent-replay'], undefined);
    assert.equal(recordsOf(sandbox.store).count('deal'), 1);
  });

  test('key length must be 1 to 255: else 400 with a field error on header.idempotency-key', async (t) => {
    const { hooks, create } = await setup(t);
    for (const key of ['', 'k'.repeat(256)]) {
      // An invalid body as well: the key is checked first.
      const answer = await create(key, { unknown: true });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, 'invalid_request');
      assert.equal(answer.body.error.errors.length, 1);
      assert.equal(answer.body.error.errors[0].field, 'header.idempotency-key');
      assert.equal(answer.body.error.errors[0].code, key === '' ? 'min_length' : 'max_length');
      assert.match(answer.body.error.message, /Idempotency-Key must be 1 to 255 characters long/);
    }
    assert.equal(hooks.creates, 0);
    const longest = await create('k'.repeat(255));
    assert.equal(longest.status, 201);
  });

  test('the answer is kept for 24 hours of sandbox time; then the key is stale: 409, not run again', async (t) => {
    const { sandbox, hooks, create } = await setup(t);
    const advance = (seconds: number) =>
      call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds } });
    await create('key-5');
    assert.equal((await advance(24 * 3600 - 1)).status, 200);
    const within = await create('key-5');
    assert.equal(within.headers['idempotent-replay'], 'true');
    await advance(1);
    for (const body of [undefined, { default: { name: 'Another body' } }]) {
      const stale = await create('key-5', body);
      assert.equal(stale.status, 409, stale.text);
      assert.equal(stale.body.error.code, 'idempotency_key_stale');
      assert.match(
        stale.body.error.message,
        /^Idempotency-Key 'key-5' was used by a request whose stored answer expired at \d{4}-\d\d-\d\dT[\d:.]+Z \(answers are kept for 24 hours\): .*send the request with a new key\.$/,
      );
    }
    assert.equal(hooks.creates, 1, 'a stale key never runs the request again');
    // Another key is a new request.
    assert.equal((await create('key-5b')).status, 201);
    // Keys are remembered for 30 days after their answer expired, then forgotten.
    await advance(STALE_RETENTION_MS / 1000 - 1);
    assert.equal((await create('key-5')).status, 409);
    await advance(1);
    const forgotten = await create('key-5');
    assert.equal(forgotten.status, 201);
    assert.equal(hooks.creates, 3);
  });

  test('a stale key stays stale across a restart with a data file', async (t) => {
    const file = join(await tempDir(t), 'sandbox.json');
    const create = (sandbox: RunningSandbox) =>
      call(sandbox, 'POST', prism(sandbox, 'contact'), {
        body: { default: { name: 'Ada' } },
        headers: { 'idempotency-key': 'persisted-stale' },
      });
    const first = await startFor(t, { dataFile: file });
    assert.equal((await create(first)).status, 201);
    first.store.clock.advance(24 * 3600);
    assert.equal((await create(first)).body.error.code, 'idempotency_key_stale');
    await first.close();
    const second = await startFor(t, { dataFile: file });
    const again = await create(second);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'idempotency_key_stale');
    assert.equal(recordsOf(second.store).count('contact'), 1);
  });

  test('a second request while the first is in flight waits for it and replays its answer', async (t) => {
    const { sandbox, hooks, create } = await setup(t);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => {
      entered = resolve;
    });
    hooks.beforeCreate = () => {
      entered();
      return gate;
    };
    const first = create('key-6');
    await inHandler;
    const second = create('key-6');
    const mismatch = await create('key-6', { default: { name: 'Someone else' } });
    assert.equal(mismatch.status, 409, 'another body is refused at once, even in flight');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(hooks.creates, 1, 'the second request did not run the handler');
    release();
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.equal(a.headers['idempotent-replay'], undefined);
    assert.equal(b.headers['idempotent-replay'], 'true');
    assert.deepEqual(b.body, a.body);
    assert.equal(hooks.creates, 1);
    assert.equal(recordsOf(sandbox.store).count('contact'), 1);
  });

  test('5xx answers are not kept: the retry does the work', async (t) => {
    const { hooks, create } = await setup(t);
    hooks.failNextCreate = new SandboxError(503, 'service_unavailable', 'Try again.');
    const failed = await create('key-7');
    assert.equal(failed.status, 503);
    const retried = await create('key-7');
    assert.equal(retried.status, 201);
    assert.equal(retried.headers['idempotent-replay'], undefined);
    assert.equal(hooks.creates, 2);
  });

  test('4xx answers of the handler are kept, with request_id matching the replay', async (t) => {
    const { hooks, create } = await setup(t);
    hooks.failNextCreate = new SandboxError(422, 'unprocessable', 'The name is required.');
    const first = await create('key-8');
    assert.equal(first.status, 422);
    const replay = await create('key-8');
    assert.equal(replay.status, 422);
    assert.equal(replay.headers['idempotent-replay'], 'true');
    assert.equal(replay.body.error.message, 'The name is required.');
    assert.equal(replay.body.error.request_id, replay.headers['x-request-id']);
    assert.equal(hooks.creates, 1);
  });

  test('requests refused at the door are not kept', async (t) => {
    const { hooks, create } = await setup(t);
    const invalid = await create('key-9', { bogus: 1 });
    assert.equal(invalid.status, 400);
    const fixed = await create('key-9', { default: { name: 'Ada' } });
    assert.equal(fixed.status, 201);
    assert.equal(hooks.creates, 1);
  });

  test('without a key every request does its work; GET ignores the header', async (t) => {
    const { sandbox, create } = await setup(t);
    await create(undefined);
    await create(undefined);
    assert.equal(recordsOf(sandbox.store).count('contact'), 2);
    const count = await call(sandbox, 'GET', prism(sandbox, 'contact/count'), {
      headers: { 'idempotency-key': '' },
    });
    assert.equal(count.status, 200);
    assert.equal(count.headers['idempotent-replay'], undefined);
  });

  test('the cache lives in the store: reset() clears it', async (t) => {
    const { sandbox, hooks, create } = await setup(t);
    await create('key-10');
    assert.equal(sandbox.store.slice(idempotencySlice).size, 1);
    sandbox.reset();
    assert.equal(sandbox.store.slice(idempotencySlice).size, 0);
    const after = await create('key-10');
    assert.equal(after.headers['idempotent-replay'], undefined);
    assert.equal(hooks.creates, 2);
  });
});

describe('canonical body hash', () => {
  test('sorts keys at every level and tells no body from null', () => {
    assert.equal(canonicalJson({ b: [{ d: 1, c: 2 }], a: null }), '{"a":null,"b":[{"c":2,"d":1}]}');
    assert.equal(fingerprint({ x: 1, y: 2 }), fingerprint({ y: 2, x: 1 }));
    assert.notEqual(fingerprint(undefined), fingerprint(null));
    assert.notEqual(fingerprint({ x: 1 }), fingerprint({ x: '1' }));
  });

  test('writes the same text for bodies of few keys and of many distinct keys', () => {
    // Keys sorted at every level, key by key: what canonicalJson must write.
    const expected = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map((v) => expected(v ?? null)).join(',')}]`;
      if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
      const entries = Object.entries(value).filter(([, v]) => v !== undefined);
      entries.sort(([a], [b]) => (a < b ? -1 : 1));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${expected(v)}`).join(',')}}`;
    };
    const row = (i: number) => ({
      default: { name: `n${i}`, email: undefined, score: i, '10': true, '2': [3, undefined] },
      list: { [`k${i}`]: { z: null, a: 'x"y\u00e9' } },
    });
    const few = { objects: [row(1), row(2)], options: { dedupe_by: 'email' } };
    const many = { objects: Array.from({ length: 300 }, (_, i) => row(i)) };
    for (const body of [few, many]) {
      assert.equal(canonicalJson(body), expected(body));
    }
    assert.match(
      canonicalJson(few),
      /^\{"objects":\[\{"default":\{"10":true,"2":\[3,null\],"name"/,
    );
    assert.equal(canonicalJson(undefined), 'null');
    assert.equal(canonicalJson([undefined, 'a']), '[null,"a"]');
  });
});
