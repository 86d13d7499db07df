// What each step of a run does: a webhook step hands its event (named after the write, with
// the documented data) to the delivery engine through the event spine and is dispatched; an
// agent step is recorded; email and LinkedIn steps read their recipients from the contact
// view at that step (contacts that stopped matching during a wait drop out) and an email
// renders its Liquid subject per recipient; a step that cannot run fails the run.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type AutomationEvent,
  automationEvents,
} from '../../../src/sandbox/resources/automations/events.ts';
import {
  AGENT_ID,
  api,
  createAutomation,
  createRecord,
  ok,
  runs,
  sandboxFor,
  WEBHOOK_ID,
} from './helpers.ts';

const VIEW = '7f9b6a5e-1c8d-4e0f-9a2b-4c5d6e7f8091';
const TEMPLATE = '8a0c7b6f-2d9e-4f1a-8b3c-5d6e7f809102';

async function contactProperty(sandbox: Parameters<typeof api>[0], slug: string): Promise<string> {
  const defs = ok(await api(sandbox).get('contact/properties')).body.contact;
  return (Object.values(defs) as { id: string; slug: string }[]).find((d) => d.slug === slug)!.id;
}

describe('automations: what each step does', () => {
  test('a webhook step dispatches its event with the documented data', async (t) => {
    const sandbox = await sandboxFor(t);
    const heard: AutomationEvent[] = [];
    sandbox.store.events.on(automationEvents, (event) => heard.push(event));
    const automation = await createAutomation(sandbox, 'deal', {
      kind: 'update',
      name: 'Won',
      changeset: { filter: [{ stage: { to: { '=': 'won' } } }] },
      actions: [
        { type: 'webhook', webhook_id: WEBHOOK_ID },
        { type: 'agent', agent_id: AGENT_ID },
      ],
    });
    const org = await createRecord(sandbox, 'organization', { name: 'Acme' });
    const id = await createRecord(sandbox, 'deal', {
      name: 'Big',
      stage: 'lead',
      amount: 5,
      organization: org,
    });
    ok(
      await api(sandbox).patch(`deal/${id}`, {
        default: { stage: 'won', amount: 7, notes: 'signed' },
      }),
    );

    const [run] = await runs(sandbox);
    const data = {
      automation_id: automation.id,
      automation_name: 'Won',
      run_id: run.id,
      object_type: 'deal',
      record_id: id,
      changes: {
        stage: { from: 'lead', to: 'won' },
        amount: { from: 5, to: 7 },
        notes: { from: null, to: 'signed' },
      },
      record: {
        id,
        default: {
          name: 'Big',
          stage: 'won',
          amount: 7,
          organization: { id: org, properties: {} },
          notes: 'signed',
        },
      },
    };
    assert.equal(heard.length, 1);
    assert.deepEqual(
      { ...heard[0], data: heard[0]!.data() },
      {
        type: 'webhook.dispatch',
        teamId: sandbox.teamId,
        webhookIds: [WEBHOOK_ID],
        event: 'deal.updated',
        occurredAt: run.started_at,
        data,
      },
    );
    assert.deepEqual(run.trigger, {
      type: 'updated',
      source: 'patch',
      event: 'deal.updated',
      at: run.started_at,
      changes: data.changes,
    });
    assert.deepEqual(run.steps, [
      {
        index: 0,
        type: 'webhook',
        status: 'dispatched',
        started_at: run.started_at,
        finished_at: run.started_at,
        webhook_id: WEBHOOK_ID,
        event: 'deal.updated',
        data,
      },
      {
        index: 1,
        type: 'agent',
        status: 'recorded',
        started_at: run.started_at,
        finished_at: run.started_at,
        agent_id: AGENT_ID,
        would: `run agent ${AGENT_ID} on the deal record ${id}`,
      },
    ]);

    ok(await api(sandbox).delete(`deal/${id}`), 204);
    await createAutomation(sandbox, 'deal', {
      kind: 'lifecycle',
      name: 'Gone',
      on_delete: true,
      state: { filter: [] },
      actions: [{ type: 'webhook', webhook_id: WEBHOOK_ID }],
    });
    const other = await createRecord(sandbox, 'deal', { name: 'Small' });
    ok(await api(sandbox).delete(`deal/${other}`), 204);
    assert.deepEqual(
      heard.map((e) => [e.event, Object.keys(e.data().changes)]),
      [
        ['deal.updated', ['stage', 'amount', 'notes']],
        ['deal.deleted', []],
      ],
    );
  });

  test('email and LinkedIn steps read the contact view at the step; subjects render per recipient', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const emailProp = await contactProperty(sandbox, 'email');
    const phoneProp = await contactProperty(sandbox, 'phone');
    const view = ok(
      await http.control('PUT', `contact_views/${VIEW}`, {
        name: 'Customers',
        filter: [{ status: { '=': 'customer' } }],
      }),
      201,
    );
    assert.deepEqual(view.body.filter, [{ status: { '=': 'customer' } }]);
    const ada = await createRecord(sandbox, 'contact', {
      name: 'Ada',
      status: 'customer',
      email: 'ada@example.com',
    });
    const bob = await createRecord(sandbox, 'contact', {
      name: 'Bob',
      status: 'customer',
      phone: '+44 1',
    });
    await createRecord(sandbox, 'contact', { name: 'Cy', status: 'lead', email: 'cy@example.com' });
    const send = {
      recipient_view_id: VIEW,
      recipient_view_object_type: 'contact',
      send_as_user_id: 'user_1',
      template_id: TEMPLATE,
    };
    await createAutomation(sandbox, 'deal', {
      kind: 'lifecycle',
      name: 'Announce',
      on_create: true,
      state: { filter: [] },
      actions: [
        {
          type: 'email',
          ...send,
          recipient_email_prop_def_id: emailProp,
          subject: '{{ contact.name | upcase }}: {{ record.name }} by {{ automation.name }}',
        },
        { type: 'wait', delay_seconds: 60 },
        { type: 'linkedin', ...send, recipient_provider_prop_def_id: phoneProp },
      ],
    });
    await createRecord(sandbox, 'deal', { name: 'Big deal' });
    let [run] = await runs(sandbox);
    assert.deepEqual(run.steps[0].recipients, [
      { contact_id: ada, address: 'ada@example.com', subject: 'ADA: Big deal by Announce' },
      { contact_id: bob, address: null, subject: 'BOB: Big deal by Announce' },
    ]);
    assert.equal(run.steps[0].status, 'recorded');
    assert.equal(run.steps[0].template_id, TEMPLATE);

    // Ada stops being a customer during the wait: the LinkedIn step no longer reaches her.
    ok(await http.patch(`contact/${ada}`, { default: { status: 'churned' } }));
    ok(await http.control('POST', 'clock/advance', { seconds: 60 }));
    [run] = await runs(sandbox);
    assert.equal(run.status, 'completed');
    assert.deepEqual(run.steps[2].recipients, [{ contact_id: bob, provider_value: '+44 1' }]);
  });

  test('a step that cannot run fails the run; the steps after it are skipped', async (t) => {
    const sandbox = await sandboxFor(t);
    await createAutomation(sandbox, 'deal', {
      kind: 'lifecycle',
      name: 'No view',
      on_create: true,
      state: { filter: [] },
      actions: [
        { type: 'agent', agent_id: AGENT_ID },
        {
          type: 'linkedin',
          recipient_view_id: VIEW,
          recipient_view_object_type: 'contact',
          recipient_provider_prop_def_id: await contactProperty(sandbox, 'phone'),
          send_as_user_id: 'user_1',
          template_id: TEMPLATE,
        },
        { type: 'webhook', webhook_id: WEBHOOK_ID },
      ],
    });
    await createRecord(sandbox, 'deal', { name: 'x' });
    const [run] = await runs(sandbox, '&status=failed');
    assert.equal(run.status, 'failed');
    assert.deepEqual(
      run.steps.map((s: { status: string }) => s.status),
      ['recorded', 'failed', 'skipped'],
    );
    assert.equal(run.steps[1].error.code, 'not_found');
    assert.match(run.steps[1].error.message, /PUT \/__sandbox\/contact_views\//);
  });
});

describe('automations: the runs control endpoint', () => {
  test('filters runs, pages them with after, and explains its own faults', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const a = await createAutomation(sandbox, 'deal', {
      kind: 'lifecycle',
      name: 'A',
      on_create: true,
      state: { filter: [] },
    });
    await createAutomation(sandbox, 'deal', {
      kind: 'lifecycle',
      name: 'B',
      on_create: true,
      state: { filter: [] },
    });
    const first = await createRecord(sandbox, 'deal', { name: 'one' });
    await createRecord(sandbox, 'deal', { name: 'two' });
    const all = ok(await http.control('GET', 'automation_runs')).body;
    assert.deepEqual([all.data.length, all.has_more, all.next_after], [4, false, 4]);
    const byAutomation = ok(
      await http.control('GET', `automation_runs?automation_id=${a.id}`),
    ).body;
    assert.deepEqual(byAutomation.data.map((r: { record_id: string }) => r.record_id).length, 2);
    const byRecord = ok(await http.control('GET', `automation_runs?record_id=${first}`)).body;
    assert.deepEqual(
      byRecord.data.map((r: { automation_name: string }) => r.automation_name),
      ['A', 'B'],
    );
    const page = ok(await http.control('GET', 'automation_runs?limit=3')).body;
    assert.deepEqual([page.data.length, page.has_more, page.next_after], [3, true, 3]);
    const rest = ok(await http.control('GET', `automation_runs?after=${page.next_after}`)).body;
    assert.deepEqual(
      rest.data.map((r: { sequence: number }) => r.sequence),
      [4],
    );
    const one = ok(await http.control('GET', `automation_runs/${rest.data[0].id}`)).body;
    assert.deepEqual(one, rest.data[0]);
    assert.equal((await http.control('GET', 'automation_runs/run_nope_1')).status, 404);
    const bad = await http.control('GET', 'automation_runs?state=done');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.errors[0].field, 'query.state');
    assert.equal((await http.control('GET', 'automation_runs?status=done')).status, 400);
    assert.equal((await http.control('GET', 'automation_runs?limit=0')).status, 400);
  });
});

describe('automations: how many runs are kept', () => {
  test('the latest 10,000 finished runs, and every run under way', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    await createAutomation(sandbox, 'contact', {
      kind: 'lifecycle',
      name: 'first of all',
      on_create: true,
      state: { filter: [{ name: { '=': 'row 0' } }] },
      actions: [{ type: 'wait', delay_seconds: 3600 }],
    });
    await createAutomation(sandbox, 'contact', {
      kind: 'lifecycle',
      name: 'every row',
      on_create: true,
      state: { filter: [] },
      actions: [{ type: 'webhook', webhook_id: WEBHOOK_ID }],
    });
    const objects = Array.from({ length: 10_050 }, (_, i) => ({ default: { name: `row ${i}` } }));
    let job = ok(await http.post('contact/import', { objects }), 202).body;
    while (job.status === 'processing') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = ok(await http.get(`imports/${job.job_id}`)).body;
    }
    const first = ok(await http.control('GET', 'automation_runs?limit=3')).body.data;
    // 10,051 runs: run 1 waits (kept); of the 10,050 finished ones (2 to 10,051), the oldest
    // 50 went.
    assert.deepEqual(
      first.map((r: { sequence: number; status: string }) => [r.sequence, r.status]),
      [
        [1, 'waiting'],
        [52, 'completed'],
        [53, 'completed'],
      ],
    );
    const last = ok(await http.control('GET', 'automation_runs?after=10050&limit=10')).body;
    assert.deepEqual(
      last.data.map((r: { sequence: number }) => r.sequence),
      [10051],
    );
  });
});
