// The sandbox server guards itself against hostile or careless clients: nested bodies are
// refused with a 400 before anything walks them, connections that send nothing or send
// slowly are closed, the number of connections is capped, idempotency answers are bounded,
// and the health endpoint tells strangers nothing but that it is up.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import {
  IDEMPOTENCY_TTL_MS,
  idempotencySlice,
  MAX_IDEMPOTENCY_ENTRIES,
} from '../../src/sandbox/idempotency.ts';
import { MAX_JSON_DEPTH } from '../../src/sandbox/server.ts';
import { call, prism, startFor } from './helpers.ts';

function nested(levels: number): string {
  return `{"default":{"name":"deep","notes":${'['.repeat(levels)}1${']'.repeat(levels)}}}`;
}

/** Resolves when the server closes `socket`, with how long that took (ms). */
function closedWithin(socket: Socket): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    socket.on('error', () => {});
    socket.resume(); // read what the server says (a 408), so its end is seen
    socket.on('close', () => resolve(Date.now() - started));
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

describe('sandbox hygiene', () => {
  test('a body nested deeper than the limit is a 400 naming it, with or without a key', async (t) => {
    const sandbox = await startFor(t);
    for (const headers of [{ 'idempotency-key': 'deep-1' }, {}] as Record<string, string>[]) {
      const answer = await call(sandbox, 'POST', prism(sandbox, 'contact'), {
        raw: nested(10_000),
        headers,
      });
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error.code, 'invalid_request');
      assert.match(answer.body.error.message, new RegExp(`more than ${MAX_JSON_DEPTH} levels`));
    }
    // At the limit the body is read (and then judged by the contract as usual).
    const ok = await call(sandbox, 'POST', prism(sandbox, 'contact'), {
      raw: nested(MAX_JSON_DEPTH - 2),
      headers: { 'idempotency-key': 'deep-2' },
    });
    assert.doesNotMatch(ok.text, /levels deep/);
  });

  test('connections that send nothing, or a body one byte at a time, are closed', async (t) => {
    const sandbox = await startFor(t, {
      limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 200 },
    });
    const idle = await open(sandbox.port);
    const idleClosed = closedWithin(idle);
    const slow = await open(sandbox.port);
    const slowClosed = closedWithin(slow);
    slow.write(
      `POST ${prism(sandbox, 'contact')} HTTP/1.1\r\nhost: x\r\nx-api-key: ${sandbox.apiKey}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`,
    );
    const drip = setInterval(() => slow.write(' '), 100);
    t.after(() => clearInterval(drip));
    // A kept-alive connection, answered once, then left idle.
    const kept = await open(sandbox.port);
    const keptClosed = closedWithin(kept);
    kept.write('GET /__sandbox/health HTTP/1.1\r\nhost: x\r\n\r\n');
    const [a, b, c] = await Promise.all([idleClosed, slowClosed, keptClosed]);
    clearInterval(drip);
    assert.ok(a < 5_000 && b < 5_000 && c < 5_000, `closed after ${a}, ${b}, ${c} ms`);
  });

  test('connections beyond the cap are closed as they arrive', async (t) => {
    const sandbox = await startFor(t, { limits: { maxConnections: 3 } });
    const held = await Promise.all([1, 2, 3].map(() => open(sandbox.port)));
    t.after(() => {
      for (const s of held) s.destroy();
    });
    const extra = await open(sandbox.port);
    await closedWithin(extra);
    for (const s of held) s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const answer = await call(sandbox, 'GET', '/__sandbox/health', { key: null });
    assert.equal(answer.status, 200, 'served again once connections are free');
  });

  test('idempotency answers are bounded: the oldest go first', async (t) => {
    const sandbox = await startFor(t);
    const create = (key: string) =>
      call(sandbox, 'POST', prism(sandbox, 'contact'), {
        body: { default: { name: key } },
        headers: { 'idempotency-key': key },
      });
    const first = await create('first');
    assert.equal(first.status, 201, first.text);
    const cache = sandbox.store.slice(idempotencySlice);
    const now = sandbox.store.clock.nowMs();
    for (let i = 0; i < MAX_IDEMPOTENCY_ENTRIES - 1; i++) {
      cache.put(`filler-${i}`, { created_ms: now, fingerprint: 'x', status: 201, headers: {} });
    }
    assert.equal(cache.size, MAX_IDEMPOTENCY_ENTRIES);
    assert.equal((await create('first')).headers['idempotent-replay'], 'true');
    assert.equal((await create('second')).status, 201);
    assert.equal(cache.size, MAX_IDEMPOTENCY_ENTRIES);
    // "first" was the oldest: dropped, so its retry is done again (a second record).
    const again = await create('first');
    assert.equal(again.status, 201);
    assert.equal(again.headers['idempotent-replay'], undefined);
    assert.notEqual(again.body.id, first.body.id);
    assert.ok(IDEMPOTENCY_TTL_MS > 0);
  });

  test('/__sandbox/health without the key shows only that it is up', async (t) => {
    const sandbox = await startFor(t);
    const stranger = await call(sandbox, 'GET', '/__sandbox/health', { key: null });
    assert.deepEqual(stranger.body, { ok: true });
    const wrong = await call(sandbox, 'GET', '/__sandbox/health', { key: 'wrong' });
    assert.deepEqual(wrong.body, { ok: true });
    const owner = await call(sandbox, 'GET', '/__sandbox/health');
    assert.equal(owner.body.team_id, sandbox.teamId);
    assert.equal(owner.body.pid, process.pid);
  });
});
