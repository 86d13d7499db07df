// An automation's webhook step, end to end in the sandbox: a deal moving to "won" fires an
// update automation whose webhook action names a verified webhook, and the event reaches
// the webhook's receiver signed, with the documented body, listed as a delivery; a webhook
// that is not verified receives nothing, though the run's step is dispatched.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, createAutomation, createRecord, runs, sandboxFor } from './automations/helpers.ts';
import {
  createHook,
  expectedSignature,
  hooks,
  startReceiver,
  until,
  verifiedHook,
} from './webhook-helpers.ts';

describe('automations deliver their webhook steps', () => {
  test('a deal moving to won reaches the webhook, signed, with the run as its data', async (t) => {
    const sandbox = await sandboxFor(t);
    const receiver = await startReceiver(t);
    const hook = await verifiedHook(sandbox, `${receiver.origin}/deals`);
    const automation = await createAutomation(sandbox, 'deal', {
      kind: 'update',
      name: 'Deal won',
      changeset: { filter: [{ stage: { to: { '=': 'won' } } }] },
      actions: [{ type: 'webhook', webhook_id: hook.id }],
    });
    const id = await createRecord(sandbox, 'deal', { name: 'Big', stage: 'lead' });
    const patched = await api(sandbox).patch(`deal/${id}`, { default: { stage: 'won' } });
    assert.equal(patched.status, 200, patched.text);

    const post = await until('the delivery', () => receiver.posts()[0]);
    const body = JSON.parse(post.body);
    assert.equal(post.path, '/deals');
    assert.equal(body.event, 'deal.updated');
    assert.equal(body.webhook_id, hook.id);
    assert.equal(post.headers['x-service-event'], 'deal.updated');
    assert.equal(post.headers['x-service-delivery-id'], body.id);
    const [run] = await runs(sandbox);
    assert.deepEqual(
      { ...body.data, record: undefined },
      {
        automation_id: automation.id,
        automation_name: 'Deal won',
        run_id: run.id,
        object_type: 'deal',
        record_id: id,
        changes: { stage: { from: 'lead', to: 'won' } },
        record: undefined,
      },
    );
    assert.equal(body.data.record.id, id);
    assert.equal(body.data.record.default.stage, 'won');
    const [, stamp, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(
      String(post.headers['x-service-signature']),
    )!;
    assert.equal(v1, expectedSignature(hook.secret, stamp!, post.body));

    // The delivery is listed under the webhook, successful.
    const listed = await until('the delivery listed as a success', async () => {
      const page = await hooks(sandbox, 'GET', `/${hook.id}/deliveries?type=delivery`);
      const found = page.body.data.find((d: { delivery_id: string }) => d.delivery_id === body.id);
      return found?.status === 'success' ? found : undefined;
    });
    assert.equal(listed.event, 'deal.updated');
    // Another write that does not move the deal to won sends nothing more.
    await api(sandbox).patch(`deal/${id}`, { default: { name: 'Bigger' } });
    assert.equal((await runs(sandbox)).length, 1);
  });

  test('a webhook that is not verified receives nothing; the step is still dispatched', async (t) => {
    const sandbox = await sandboxFor(t);
    const receiver = await startReceiver(t, () => ({ status: 404, body: 'no' }));
    const hook = await createHook(sandbox, `${receiver.origin}/deals`);
    await createAutomation(sandbox, 'deal', {
      kind: 'lifecycle',
      name: 'New deal',
      on_create: true,
      state: { filter: [{ name: { exists: true } }] },
      actions: [{ type: 'webhook', webhook_id: hook.id }],
    });
    await createRecord(sandbox, 'deal', { name: 'Small' });
    const [run] = await runs(sandbox);
    assert.equal(run.steps[0].status, 'dispatched');
    // Only the failed handshake reached the receiver, never the event.
    await until('the handshake', () => receiver.handshakes()[0]);
    assert.deepEqual(receiver.posts(), []);
    const page = await hooks(sandbox, 'GET', `/${hook.id}/deliveries?type=delivery`);
    assert.deepEqual(page.body.data, []);
  });
});
