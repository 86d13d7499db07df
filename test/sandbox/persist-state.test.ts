// Every kind of state survives a kill: after writes through the API to every resource
// (records by each write operation, grants, definitions and options, views, imports,
// automations with a waiting run, contact views, webhooks with a delivery waiting for its
// retry, idempotency entries, the clock), a second sandbox started on the data file while
// the first still runs (nothing flushed or closed: as after kill -9) holds the same state.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import { api, createAutomation, createRecord } from './automations/helpers.ts';
import { call, tempDir } from './helpers.ts';
import { handshakeThen, hooks, startReceiver, until, verifiedHook } from './webhook-helpers.ts';

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
  const ok = (answer: { status: number; text: string }, status = 200) =>
    assert.equal(answer.status, status, answer.text);

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
  // Views
  ok(await http.post('deal/views', { name: 'Gold deals', view_type: 'grid' }), 201);
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
  const before = sandbox.store.toJSON();
  const after = loaded.store.toJSON();
  assert.deepEqual(Object.keys(after.slices).sort(), Object.keys(before.slices).sort());
  for (const name of Object.keys(before.slices)) {
    assert.deepEqual(after.slices[name], before.slices[name], `slice ${name}`);
  }
  assert.equal(after.clock_offset_ms, before.clock_offset_ms);
});
