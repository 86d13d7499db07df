// Every kind of state survives a kill: after writes through the API to every resource
// (records by each write operation, grants, definitions and options, views and their pins,
// lists, imports,
// automations with a waiting run, contact views, webhooks with a delivery waiting for its
// retry, idempotency entries, the clock), a second sandbox started on the data file while
// the first still runs (nothing flushed or closed: as after kill -9) holds the same state.
// Runs, deliveries, import jobs and grants are journaled one entry at a time: a write appends
// the entries it changed (not the whole slice), deletions and expiries survive a restart,
// and a data file that kept those slices whole (earlier versions) loads and is rewritten.

import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.ts';
import { api, createAutomation, createRecord } from './automations/helpers.ts';
import { call, tempDir } from './helpers.ts';
import {
  acceptAll,
  handshakeThen,
  hooks,
  startReceiver,
  until,
  verifiedHook,
} from './webhook-helpers.ts';

function ok(answer: { status: number; text: string }, status = 200): void {
  assert.equal(answer.status, status, answer.text);
}

/** Every slice of `loaded` equals that slice of `original`, and the clock too. */
function assertSameState(loaded: RunningSandbox, original: RunningSandbox): void {
  const before = original.store.toJSON();
  const after = loaded.store.toJSON();
  assert.deepEqual(Object.keys(after.slices).sort(), Object.keys(before.slices).sort());
  for (const name of Object.keys(before.slices)) {
    assert.deepEqual(after.slices[name], before.slices[name], `slice ${name}`);
  }
  assert.equal(after.clock_offset_ms, before.clock_offset_ms);
}

interface Line {
  s?: string;
  k?: string;
  v?: unknown;
  w?: unknown;
}

/** The journal lines appended to `file` since it had `from` bytes. */
function linesSince(file: string, from: number): Line[] {
  const text = readFileSync(file, 'utf8').slice(from);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);
}

/** The `slice key` pairs of the entries among `lines` (whole slices fail the test). */
function keysOf(lines: Line[], slices: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const line of lines) {
    if (line.s === undefined || !slices.includes(line.s)) continue;
    assert.equal(line.w, undefined, `slice ${line.s} is journaled whole`);
    keys.add(`${line.s} ${line.k}`);
  }
  return keys;
}

test('the state after writes to every resource equals the state loaded from the data file', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'sandbox.data');
  const receiver = await startReceiver(
    t,
    handshakeThen(() => ({ status: 500 })),
  );
  const sandbox = await startSandbox({
    dataFile: file,
    webhooks: { retryDelaysMs: [3_600_000, 3_600_000] },
  });
  t.after(() => sandbox.close());
  const http = api(sandbox);

  // Definitions and options
  ok(await http.post('deal/properties', { name: 'Tier', slug: 'tier', type: 'str' }), 201);
  // Records, by each write operation
  const a = await createRecord(sandbox, 'deal', { name: 'A' });
  const b = await createRecord(sandbox, 'deal', { name: 'B' });
  ok(await http.patch(`deal/${a}`, { default: { tier: 'gold' } }));
  ok(
    await call(sandbox, 'PUT', `/v2/prism/${sandbox.teamId}/deal/by/name/C`, {
      body: { default: {} },
    }),
    201,
  );
  ok(await http.post(`deal/${a}/duplicate`, {}), 201);
  ok(await http.post('deal/batch/update', { items: [{ id: b, default: { tier: 'silver' } }] }));
  ok(await http.delete(`deal/${b}`), 204);
  ok(await http.post(`deal/${b}/restore`, {}));
  ok(await http.delete(`deal/${a}`), 204);
  ok(
    await call(sandbox, 'PUT', `/v2/prism/${sandbox.teamId}/deal/${b}/grant`, {
      body: { share_level: 'full' },
    }),
  );
  // Views, and a view's pins
  const gold = await http.post('deal/views', { name: 'Gold deals', view_type: 'grid' });
  ok(gold, 201);
  ok(await http.post(`deal/views/${gold.body.id}/records/${b}`, {}));
  // Lists (a template's stage property and views)
  ok(await http.post('lists', { template_id: 'sales_deals', name: 'Q3 pipeline' }), 201);
  // Imports
  const objects = Array.from({ length: 100 }, (_, i) => ({ default: { name: `Imported ${i}` } }));
  const job = await http.post('contact/import', { objects });
  ok(job, 202);
  await until('the import job finished', async () => {
    const read = await call(sandbox, 'GET', job.headers['location']!);
    return read.body.status === 'processing' ? undefined : true;
  });
  // Automations: a run waiting an hour; a webhook step to a hook whose receiver fails
  const hook = await verifiedHook(sandbox, `${receiver.origin}/hook`);
  await createAutomation(sandbox, 'contact', {
    kind: 'lifecycle',
    name: 'wait then tell',
    on_create: true,
    state: { filter: [] },
    actions: [
      { type: 'webhook', webhook_id: hook.id },
      { type: 'wait', delay_seconds: 3600 },
    ],
  });
  ok(
    await call(sandbox, 'PUT', '/__sandbox/contact_views/5e5e5e5e-0000-4000-8000-00000000005e', {
      body: { name: 'All' },
    }),
    201,
  );
  ok(
    await http.post('contact', { default: { name: 'Fires' } }, { 'idempotency-key': 'once' }),
    201,
  );
  await until('the delivery failed once', () => (receiver.posts().length >= 1 ? true : undefined));
  ok(await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds: 60 } }));

  const runs = await call(sandbox, 'GET', '/__sandbox/automation_runs?status=waiting');
  assert.equal(runs.body.data.length, 1, 'a run waits');
  const deliveries = await hooks(sandbox, 'GET', `/${hook.id}/deliveries`);
  assert.ok(deliveries.status === 200, deliveries.text);

  const loaded = await startSandbox({ dataFile: file, port: 0 });
  t.after(() => loaded.close());
  assertSameState(loaded, sandbox);
});

test('runs, deliveries, import job steps and grants are journaled entry by entry, deletions too', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'sandbox.data');
  const receiver = await startReceiver(t, acceptAll);
  const sandbox = await startSandbox({ dataFile: file });
  t.after(() => sandbox.close());
  const http = api(sandbox);
  const journaled = ['automation_runs', 'webhooks', 'imports', 'grants'];

  const hook = await verifiedHook(sandbox, `${receiver.origin}/hook`);
  await createAutomation(sandbox, 'contact', {
    kind: 'lifecycle',
    name: 'tell',
    on_create: true,
    state: { filter: [] },
    actions: [{ type: 'webhook', webhook_id: hook.id }],
  });
  for (let i = 0; i < 20; i++) await createRecord(sandbox, 'contact', { name: `C${i}` });
  // Every attempt recorded (not only received), so none is journaled during the next write.
  await until('20 deliveries recorded', async () => {
    const page = await hooks(
      sandbox,
      'GET',
      `/${hook.id}/deliveries?type=delivery&status=success&limit=100`,
    );
    return page.body.data.length >= 20 ? true : undefined;
  });

  // A write that fires the automation appends its record, its run and its delivery.
  let from = statSync(file).size;
  const id = await createRecord(sandbox, 'contact', { name: 'One more' });
  const run = (await call(sandbox, 'GET', '/__sandbox/automation_runs?limit=1000')).body.data.at(
    -1,
  );
  const delivery = (await hooks(sandbox, 'GET', `/${hook.id}/deliveries?limit=1`)).body.data[0];
  assert.deepEqual(
    keysOf(linesSince(file, from), ['records', ...journaled]),
    new Set([
      `records contact/${id}`,
      'automation_runs meta',
      `automation_runs ${run.sequence}`,
      `webhooks delivery/${delivery.delivery_id}`,
    ]),
  );

  // A grant appends that grant.
  const deal = await createRecord(sandbox, 'deal', { name: 'D' });
  from = statSync(file).size;
  ok(
    await call(sandbox, 'PUT', `/v2/prism/${sandbox.teamId}/deal/${deal}/grant`, {
      body: { share_level: 'full' },
    }),
  );
  assert.deepEqual(keysOf(linesSince(file, from), journaled), new Set([`grants deal/${deal}`]));

  // An import job: its rows once, then per step its state and that step's results.
  from = statSync(file).size;
  const objects = Array.from({ length: 1_200 }, (_, i) => ({ default: { name: `Row ${i}` } }));
  const started = await http.post('deal/import', { objects });
  ok(started, 202);
  const jobId = started.body.job_id;
  await until('the import job finished', async () => {
    const read = await call(sandbox, 'GET', started.headers['location']!);
    return read.body.status === 'processing' ? undefined : true;
  });
  const lines = linesSince(file, from).filter((line) => line.s === 'imports');
  // Steps are sized by their time (at most 500 rows): each step's results are one entry,
  // keyed by its first row, and the entries follow each other from row 0 to the last.
  const steps = new Map<number, unknown>();
  for (const line of lines) {
    const first = line.k?.startsWith(`results/${jobId}/`) ? Number(line.k.split('/')[2]) : NaN;
    if (!Number.isNaN(first)) steps.set(first, line.v);
  }
  const firsts = [...steps.keys()].sort((a, b) => a - b);
  assert.ok(firsts.length >= 3, `1,200 rows take 3 steps or more (${firsts})`);
  let next = 0;
  for (const first of firsts) {
    assert.equal(first, next, `the step after row ${next} starts there`);
    const rows = steps.get(first) as unknown[];
    assert.ok(rows.length >= 1 && rows.length <= 500, `a step of ${rows.length} rows`);
    next += rows.length;
  }
  assert.equal(next, 1_200, 'the steps hold every row once');
  assert.deepEqual(
    keysOf(lines, journaled),
    new Set(
      [`job/${jobId}`, `input/${jobId}`, ...firsts.map((n) => `results/${jobId}/${n}`)].map(
        (k) => `imports ${k}`,
      ),
    ),
  );
  const inputs = lines.filter((line) => line.k === `input/${jobId}`);
  assert.deepEqual(
    inputs.map((line) => line.v === undefined),
    [false, true],
    'the rows are written once, and dropped when the job ends',
  );

  // Deletions and expiries: the webhook and its deliveries, the job (a tombstone).
  ok(await hooks(sandbox, 'DELETE', `/${hook.id}`), 204);
  ok(await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds: 8 * 86_400 } }));
  const expired = await call(sandbox, 'GET', started.headers['location']!);
  assert.notEqual(expired.status, 200, expired.text);

  const loaded = await startSandbox({ dataFile: file, port: 0 });
  t.after(() => loaded.close());
  assertSameState(loaded, sandbox);
  const again = await call(loaded, 'GET', started.headers['location']!);
  assert.deepEqual(
    [again.status, again.body.code, again.body.message],
    [expired.status, expired.body.code, expired.body.message],
  );

  // A file that kept these slices whole (earlier versions) loads, and is rewritten as entries.
  const old = join(dir, 'old.data');
  const snapshot = sandbox.store.toJSON();
  const header = {
    format: 'ws-sandbox-data',
    version: 2,
    api_key: sandbox.apiKey,
    team_id: sandbox.teamId,
    saved_at: new Date().toISOString(),
  };
  writeFileSync(
    old,
    [
      header,
      { c: snapshot.clock_offset_ms },
      ...Object.entries(snapshot.slices).map(([name, w]) => ({ s: name, w })),
    ]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join(''),
  );
  const upgraded = await startSandbox({ dataFile: old, port: 0 });
  t.after(() => upgraded.close());
  assertSameState(upgraded, sandbox);
  keysOf(linesSince(old, 0), [...journaled, 'records', 'idempotency']);
});
