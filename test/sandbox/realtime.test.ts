// The realtime stream over real HTTP and real WebSockets, every answer and every message
// checked against the contract: POST /v2/realtime/ticket; the stream's refusals (no ticket,
// a used or expired one, bad parameters); one message per record change of every write
// operation, in order, with what changed before → after; `types`; resuming after a position
// (exactly the changes missed), a position too old for the window, another stream after a
// reset; a restart on the data file (no gap, no duplicate); and a slow reader, which costs
// the sandbox its bounded buffer, is told it fell behind, and reads on from its position.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { launchSandbox } from '../../src/sandbox/sandbox.ts';
import { call, prism, startFor, tempDir } from './helpers.ts';
import { type Json, openStream, ticket } from './realtime-helpers.ts';

describe('realtime tickets', () => {
  test('201 { ticket, expires_in, ws_url } for the key; single use; expired after its time', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const answer = await call(sandbox, 'POST', '/v2/realtime/ticket');
    assert.equal(answer.status, 201);
    assert.match(answer.body.ticket, /^rt_[0-9a-f]{32}$/);
    assert.equal(answer.body.expires_in, 60);
    assert.equal(answer.body.ws_url, `ws://127.0.0.1:${sandbox.port}/v2/realtime/stream`);
    assert.equal((await call(sandbox, 'POST', '/v2/realtime/ticket', { key: null })).status, 401);
    assert.equal((await call(sandbox, 'POST', '/v2/realtime/ticket', { key: 'x' })).status, 403);

    const refused = async (url: string) =>
      new Promise<{ status: number; body: Json }>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.on('open', () => reject(new Error(`${url} opened`)));
        ws.on('error', () => undefined);
        ws.on('unexpected-response', (_req, res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
      });
    const { ws_url } = answer.body;
    const none = await refused(ws_url);
    assert.equal(none.status, 401);
    assert.match(none.body.error.message, /^No ticket/);
    // Used once: the second opening is refused.
    const reader = await openStream(t, sandbox);
    const used = reader.ws.url.replace(/token=[^&]+/, `token=${answer.body.ticket}`);
    const first = new WebSocket(used);
    await new Promise((r) => first.once('open', r));
    first.terminate();
    assert.match((await refused(used)).body.error.message, /used already/);
    // Expired on the sandbox clock.
    const late = await ticket(sandbox);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds: 61 } });
    const expired = await refused(`${late.ws_url}?token=${late.ticket}`);
    assert.equal(expired.status, 401);
    assert.match(expired.body.error.message, /expired/);
    // Bad parameters are 400 (the ticket is kept for a right request); another path 404.
    const kept = await ticket(sandbox);
    const badAfter = await refused(`${kept.ws_url}?token=${kept.ticket}&after=yesterday`);
    assert.equal(badAfter.status, 400);
    assert.equal(badAfter.body.error.errors[0].field, 'query.after');
    const badType = await refused(`${kept.ws_url}?token=${kept.ticket}&types=deal,widget`);
    assert.equal(badType.body.error.errors[0].field, 'query.types');
    const other = await refused(`ws://127.0.0.1:${sandbox.port}/v2/realtime/other?token=x`);
    assert.equal(other.status, 404);
    assert.deepEqual(sandbox.contractViolations, []);
    assert.deepEqual(reader.problems, []);
  });
});

describe('the stream', () => {
  test('one message per change of every write operation, in order, with before → after', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const reader = await openStream(t, sandbox);
    await reader.waitFor((m) => m.length === 1, 'ready');
    assert.equal(reader.messages[0].kind, 'ready');
    const api = (method: string, rest: string, body?: unknown) =>
      call(sandbox, method, prism(sandbox, rest), body === undefined ? {} : { body });
    const a = (await api('POST', 'deal', { default: { name: 'A', amount: 10 } })).body.id;
    await api('PATCH', `deal/${a}`, { default: { amount: 20, stage: 'won' } });
    await api('PATCH', `deal/${a}`, { default: { amount: 20 } }); // changes nothing
    await api('PUT', 'deal/by/name/B', { default: {} });
    const copy = (await api('POST', `deal/${a}/duplicate`)).body.id;
    await api('POST', 'deal/batch/update', { items: [{ id: copy, default: { name: 'C' } }] });
    await api('DELETE', `deal/${a}`);
    await api('POST', `deal/${a}/restore`);
    await api('POST', 'contact/import', { objects: [{ default: { name: 'Ada' } }] });
    await reader.waitFor((m) => m.length === 1 + 8, 'eight changes');
    const changes = reader.changes();
    assert.deepEqual(
      changes.map((c) => [c.type, c.change, c.source]),
      [
        ['deal', 'created', 'create'],
        ['deal', 'updated', 'patch'],
        ['deal', 'created', 'upsert'],
        ['deal', 'created', 'duplicate'],
        ['deal', 'updated', 'batch_update'],
        ['deal', 'deleted', 'delete'],
        ['deal', 'restored', 'restore'],
        ['contact', 'created', 'import'],
      ],
    );
    const seqs = changes.map((c) => Number(c.position.split('-')[1]));
    assert.deepEqual(seqs, [1, 2, 3, 4, 5, 6, 7, 8], 'in order, each once');
    assert.deepEqual(changes[0].changes, {
      name: { from: null, to: 'A' },
      amount: { from: null, to: 10 },
    });
    assert.deepEqual(changes[1].changes, {
      amount: { from: 10, to: 20 },
      stage: { from: null, to: 'won' },
    });
    assert.deepEqual(changes[1].record, {
      id: a,
      default: { name: 'A', amount: 20, stage: 'won' },
    });
    assert.deepEqual(changes[5].changes, {});
    assert.equal(changes[5].record.default.name, 'A', 'a deletion tells the record as it was');
    assert.deepEqual(reader.problems, []);
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('types keeps those record types; list values are told as list_changes', async (t) => {
    const sandbox = await startFor(t);
    const reader = await openStream(t, sandbox, { types: 'contact,engagement' });
    const list = crypto.randomUUID();
    await call(sandbox, 'POST', prism(sandbox, 'deal'), { body: { default: { name: 'D' } } });
    const c = await call(sandbox, 'POST', prism(sandbox, 'contact'), {
      body: { default: { name: 'C' } },
    });
    await call(sandbox, 'PATCH', prism(sandbox, `contact/${c.body.id}`), {
      body: { list: { [list]: {} } },
    });
    await call(sandbox, 'POST', prism(sandbox, 'engagement'), {
      body: { default: { title: 'Call' } },
    });
    await reader.waitFor((m) => m.filter((x) => x.kind === 'change').length === 3, 'three');
    assert.deepEqual(
      reader.changes().map((x) => [x.type, x.change, x.position.split('-')[1]]),
      [
        ['contact', 'created', '2'],
        ['contact', 'updated', '3'],
        ['engagement', 'created', '4'],
      ],
    );
    assert.deepEqual(reader.changes()[1].list_changes, { [list]: {} });
    assert.deepEqual(reader.changes()[1].record.list, { [list]: {} });
    assert.deepEqual(reader.problems, []);
  });

  test('after: exactly the changes missed; too old for the window: a gap; a reset: a new stream', async (t) => {
    const sandbox = await startFor(t, { realtime: { windowSize: 8 } });
    const create = (name: string) =>
      call(sandbox, 'POST', prism(sandbox, 'contact'), { body: { default: { name } } });
    const first = await openStream(t, sandbox);
    await create('c1');
    await create('c2');
    await first.waitFor((m) => m.length === 3, 'two changes');
    const position = first.changes()[1].position;
    first.ws.terminate();
    for (let i = 3; i <= 6; i++) await create(`c${i}`);
    const resumed = await openStream(t, sandbox, { after: position });
    await resumed.waitFor((m) => m.filter((x) => x.kind === 'change').length === 4, 'the four');
    assert.equal(resumed.messages[0].position, position);
    assert.deepEqual(
      resumed.changes().map((c) => c.record.default.name),
      ['c3', 'c4', 'c5', 'c6'],
    );
    // The window keeps at least 8: after 20 more, c1's position is too old.
    for (let i = 7; i <= 26; i++) await create(`c${i}`);
    const old = await openStream(t, sandbox, { after: first.changes()[0].position });
    await old.waitFor((m) => m.some((x) => x.kind === 'gap'), 'the gap');
    const gap = old.messages.find((x) => x.kind === 'gap');
    assert.equal(gap.reason, 'too_old');
    assert.match(gap.message, /are no longer kept/);
    await old.waitFor((m) => m.at(-1)?.record?.default.name === 'c26', 'the newest');
    const names = old.changes().map((c) => c.record.default.name);
    assert.ok(names.length >= 8 && names.length < 26, `a window of changes: ${names.length}`);
    // A reset: a connected reader is told, and reads the new stream.
    sandbox.reset();
    await resumed.waitFor((m) => m.some((x) => x.kind === 'reset'), 'the reset');
    await create('after reset');
    await resumed.waitFor((m) => m.at(-1)?.record?.default.name === 'after reset', 'the change');
    const reset = resumed.messages.find((x) => x.kind === 'reset');
    assert.notEqual(reset.position.split('-')[0], position.split('-')[0]);
    assert.equal(resumed.messages.at(-1).position, `${reset.position.split('-')[0]}-1`);
    const stale = await openStream(t, sandbox, { after: position });
    await stale.waitFor((m) => m.some((x) => x.kind === 'gap'), 'the gap');
    assert.equal(stale.messages.find((x) => x.kind === 'gap').reason, 'other_stream');
    await stale.waitFor((m) => m.some((x) => x.kind === 'change'), 'the change since');
    for (const r of [first, resumed, old, stale]) assert.deepEqual(r.problems, []);
  });

  test('a restart on the data file: the reader resumes after its position, no gap, no duplicate', async (t) => {
    const dataFile = join(await tempDir(t), 'sandbox.data');
    const one = await launchSandbox({ dataFile });
    let closed = false;
    t.after(() => (closed ? undefined : one.close()));
    const reader = await openStream(t, one);
    for (let i = 1; i <= 5; i++) {
      await call(one, 'POST', prism(one, 'deal'), { body: { default: { name: `d${i}` } } });
    }
    await reader.waitFor((m) => m.filter((x) => x.kind === 'change').length === 5, 'five');
    const position = reader.changes()[2].position; // as if d4 and d5 never arrived
    const stopped = reader.closed;
    await one.close();
    closed = true;
    assert.equal((await stopped).code, 1001, 'going away');
    const two = await startFor(t, { dataFile, port: one.port });
    for (let i = 6; i <= 7; i++) {
      await call(two, 'POST', prism(two, 'deal'), { body: { default: { name: `d${i}` } } });
    }
    const again = await openStream(t, two, { after: position });
    await again.waitFor((m) => m.filter((x) => x.kind === 'change').length === 4, 'four');
    assert.deepEqual(
      again.changes().map((c) => c.record.default.name),
      ['d4', 'd5', 'd6', 'd7'],
    );
    assert.ok(!again.messages.some((x) => x.kind === 'gap'));
    assert.equal(again.changes()[0].position.split('-')[0], position.split('-')[0], 'one stream');
  });

  test('a slow reader: its buffer stays bounded; it is told it fell behind and reads on from its position', async (t) => {
    const highWaterBytes = 16 * 1024;
    const sandbox = await startFor(t, {
      realtime: { highWaterBytes, lagLimit: 300, windowSize: 2_000, heartbeatMs: 60_000 },
    });
    const slow = await openStream(t, sandbox, { types: 'contact' });
    await slow.waitFor((m) => m.length === 1, 'ready');
    slow.ws.pause();
    const status = async () =>
      (await call(sandbox, 'GET', '/__sandbox/realtime')).body.readers[0] as Json;
    // 10 KB a change: more than the kernel's socket buffers hold, so the sandbox's fills.
    const note = 'x'.repeat(10_000);
    let most = 0;
    let cut = false;
    for (let i = 1; i <= 1_000; i++) {
      await call(sandbox, 'POST', prism(sandbox, 'contact'), {
        body: { default: { name: `n${i}`, notes: note } },
      });
      if (i % 25 === 0 && !cut) {
        const reader = await status();
        if (reader !== undefined) most = Math.max(most, reader.buffered_bytes);
        if (reader === undefined || reader.state === 'closing') {
          // Told it fell behind: it reads again (within the 5 s the sandbox gives it to).
          cut = true;
          slow.ws.resume();
        }
      }
    }
    // What the sandbox held for it: at most its high water mark and one message.
    assert.ok(cut, 'the slow reader was cut off');
    assert.ok(most <= highWaterBytes + 12_000, `buffered ${most} bytes`);
    const { code } = await slow.closed;
    assert.equal(code, 4001);
    const behind = slow.messages.find((m) => m.kind === 'behind');
    assert.ok(behind, 'told it fell behind');
    const got = slow.changes().map((c) => c.record.default.name);
    assert.ok(got.length < 1_000, `it had ${got.length}`);
    assert.equal(behind.position, slow.changes().at(-1).position);
    const rest = await openStream(t, sandbox, { types: 'contact', after: behind.position });
    await rest.waitFor((m) => m.at(-1)?.record?.default.name === 'n1000', 'the last');
    const all = [...got, ...rest.changes().map((c) => c.record.default.name)];
    assert.deepEqual(
      all,
      Array.from({ length: 1_000 }, (_, i) => `n${i + 1}`),
      'each once, in order',
    );
    assert.deepEqual([...slow.problems, ...rest.problems], []);
    await delay(0);
  });
});
