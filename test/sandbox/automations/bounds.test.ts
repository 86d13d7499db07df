// What an automation can make the sandbox do is bounded: automations come from files people
// share, so each field is untrusted input. A template reads no file and renders within
// limits, off the thread that answers requests; a wait ends within a year and every time a
// run keeps is one the data file can hold; an automation has at most 100 steps, and the
// deliveries one write asks for are made a few milliseconds at a time.

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cronProblem, timeZoneProblem } from '../../../src/automation-engine/schedule.ts';
import { startSandbox } from '../../../src/sandbox/index.ts';
import { renderSubjects } from '../../../src/sandbox/resources/automations/renderer.ts';
import { webhooksOf } from '../../../src/sandbox/resources/webhooks/model.ts';
import type { RunningSandbox } from '../../../src/sandbox/sandbox.ts';
import { call, tempDir } from '../helpers.ts';
import { startReceiver as startHookReceiver, verifiedHook } from '../webhook-helpers.ts';
import {
  api,
  assertError,
  createAutomation,
  createRecord,
  ok,
  runs,
  sandboxFor,
} from './helpers.ts';

const VIEW = '7f9b6a5e-1c8d-4e0f-9a2b-4c5d6e7f8091';
const TEMPLATE = '8a0c7b6f-2d9e-4f1a-8b3c-5d6e7f809102';

async function emailProperty(sandbox: RunningSandbox): Promise<string> {
  const defs = ok(await api(sandbox).get('contact/properties')).body.contact;
  return (Object.values(defs) as { id: string; slug: string }[]).find((d) => d.slug === 'email')!
    .id;
}

/** An email step to the contact view VIEW with `subject`. */
async function emailStep(sandbox: RunningSandbox, subject: string) {
  return {
    type: 'email',
    recipient_view_id: VIEW,
    recipient_view_object_type: 'contact',
    recipient_email_prop_def_id: await emailProperty(sandbox),
    send_as_user_id: 'user_1',
    template_id: TEMPLATE,
    subject,
  };
}

/** `count` contacts in the contact view VIEW; returns their ids. */
async function recipients(sandbox: RunningSandbox, names: readonly string[]): Promise<string[]> {
  ok(await api(sandbox).control('PUT', `contact_views/${VIEW}`, { name: 'Everyone' }), 201);
  const ids: string[] = [];
  for (const name of names) {
    ids.push(await createRecord(sandbox, 'contact', { name, email: `${name}@example.com` }));
  }
  return ids;
}

/** A deal automation that runs `actions` when a deal is created. */
function onDealCreated(actions: unknown[], name = 'On create') {
  return { kind: 'lifecycle', name, on_create: true, state: { filter: [] }, actions };
}

describe('automations: templates read no file and render within limits', () => {
  test('a subject using include, render or layout is refused at create and replace, naming the tag', async (t) => {
    const sandbox = await sandboxFor(t);
    for (const [tag, subject] of [
      ['include', "{% include '.env' %}"],
      ['render', "Hello {%- render 'state.json' -%}"],
      ['layout', "{% liquid\n  layout 'base'\n%}"],
    ] as const) {
      const refused = await api(sandbox).post(
        'deal/triggered_automations',
        onDealCreated([await emailStep(sandbox, subject)]),
      );
      assertError(refused, 400, 'invalid_request', 'body.actions[0].subject');
      assert.match(refused.body.error.message, new RegExp(`uses \\{% ${tag} %\\}`));
      assert.match(refused.body.error.message, /may not read files/);
    }
    const fine = await createAutomation(
      sandbox,
      'deal',
      onDealCreated([await emailStep(sandbox, 'Hi {{ contact.name }}')]),
    );
    const replaced = await api(sandbox).put(
      `deal/triggered_automations/${fine.id}`,
      onDealCreated([await emailStep(sandbox, "{% include 'package.json' %}")]),
    );
    assertError(replaced, 400, 'invalid_request', 'body.actions[0].subject');
    assert.match(replaced.body.error.message, /\{% include %\}/);
  });

  test('a render never reaches a file, even for a template the checks did not see', async () => {
    // (An automation kept in a data file written before the tags were refused.)
    const [rendered] = await renderSubjects("{% include 'package.json' %}", {}, [{ id: 'c1' }]);
    assert.ok(rendered !== undefined && 'error' in rendered);
    assert.equal(rendered.error.code, 'template');
    assert.doesNotMatch(JSON.stringify(rendered), /wsadmin|devDependencies|\/work\//);
  });

  test('a subject longer than 10,000 characters is refused at the door', async (t) => {
    const sandbox = await sandboxFor(t);
    const refused = await api(sandbox).post(
      'deal/triggered_automations',
      onDealCreated([await emailStep(sandbox, 'x'.repeat(4 * 1024 * 1024))]),
    );
    assertError(refused, 400, 'invalid_request', 'body.actions[0].subject');
    assert.match(refused.body.error.message, /at most 10,?000 characters/);
  });

  test('a looping subject fails each recipient with the reason; the write answers', async (t) => {
    const sandbox = await sandboxFor(t);
    const contacts = await recipients(sandbox, ['ann', 'bob']);
    await createAutomation(
      sandbox,
      'deal',
      onDealCreated([
        await emailStep(sandbox, '{% for i in (1..100000000) %}x{% endfor %}'),
        await emailStep(
          sandbox,
          '{% for i in (1..5000) %}{% for j in (1..5000) %}{% endfor %}{% endfor %}',
        ),
        { type: 'agent', agent_id: TEMPLATE },
      ]),
    );
    await createRecord(sandbox, 'deal', { name: 'Big' });
    const [run] = await runs(sandbox);
    assert.equal(run.status, 'completed');
    assert.deepEqual(
      run.steps.map((s: { status: string }) => s.status),
      ['recorded', 'recorded', 'recorded'],
    );
    for (const step of run.steps.slice(0, 2)) {
      assert.deepEqual(
        step.recipients.map((r: { contact_id: string }) => r.contact_id),
        contacts,
      );
      for (const recipient of step.recipients) {
        assert.equal(recipient.subject, undefined);
        assert.equal(recipient.error.code, 'limit', JSON.stringify(recipient));
        assert.match(recipient.error.message, /limit exceeded/);
      }
    }
    assert.match(run.steps[0].recipients[0].error.message, /memory/);
    assert.match(run.steps[1].recipients[0].error.message, /render limit/);
  });

  test('a rendered subject longer than 998 characters fails that recipient only', async (t) => {
    const sandbox = await sandboxFor(t);
    const [ann, bob] = await recipients(sandbox, ['ann', 'bob']);
    await createAutomation(
      sandbox,
      'deal',
      onDealCreated([
        await emailStep(
          sandbox,
          // (Written out, not looped: a loop may reach the render limit first on a busy machine.)
          `{% if contact.name == 'bob' %}${'x'.repeat(999)}{% else %}Hi {{ contact.name }}{% endif %}`,
        ),
      ]),
    );
    await createRecord(sandbox, 'deal', { name: 'Big' });
    const [run] = await runs(sandbox);
    assert.equal(run.status, 'completed');
    const [first, second] = run.steps[0].recipients;
    assert.deepEqual(first, { contact_id: ann, address: 'ann@example.com', subject: 'Hi ann' });
    assert.equal(second.contact_id, bob);
    assert.equal(second.subject, undefined);
    assert.equal(second.error.code, 'too_long');
    assert.match(second.error.message, /999 characters; a subject may have at most 998/);
  });

  test('while subjects render, the sandbox answers other requests', async (t) => {
    const sandbox = await sandboxFor(t);
    // Each render runs to its time limit: 60 recipients take three seconds of the worker,
    // long enough for the reads below even on a busy machine.
    await recipients(
      sandbox,
      Array.from({ length: 60 }, (_, i) => `c${i}`),
    );
    await createAutomation(
      sandbox,
      'deal',
      onDealCreated([
        await emailStep(
          sandbox,
          '{% for i in (1..5000) %}{% for j in (1..5000) %}{% endfor %}{% endfor %}',
        ),
      ]),
    );
    let answered = false;
    const write = api(sandbox)
      .post('deal', { default: { name: 'Big' } })
      .then((answer) => {
        answered = true;
        return answer;
      });
    // The run shows its email step running, read while the write has not answered.
    const seen = await (async () => {
      for (;;) {
        const [run] = await runs(sandbox);
        if (run !== undefined) return { run, answered };
        assert.equal(answered, false, 'the run is seen before the write answers');
      }
    })();
    assert.equal(seen.answered, false);
    assert.equal(seen.run.status, 'running');
    assert.equal(seen.run.steps[0].status, 'running');
    const health = await call(sandbox, 'GET', '/__sandbox/health', { key: null });
    assert.equal(health.status, 200);
    assert.equal(answered, false, 'health answered while the subjects render');
    assert.equal((await write).status, 201);
    const [run] = await runs(sandbox);
    assert.equal(run.status, 'completed');
    assert.equal(run.steps[0].recipients.length, 60);
  });
});

describe('automations: waits end within a year', () => {
  test('a delay over a year is refused; a year is accepted', async (t) => {
    const sandbox = await sandboxFor(t);
    for (const delay of [1e13, 1e308, 31_622_401]) {
      const refused = await api(sandbox).post(
        'deal/triggered_automations',
        onDealCreated([{ type: 'wait', delay_seconds: delay }]),
      );
      assertError(refused, 400, 'invalid_request', 'body.actions[0].delay_seconds');
      assert.match(refused.body.error.message, /at most 31622400 \(366 days\)/);
    }
    await createAutomation(
      sandbox,
      'deal',
      onDealCreated([{ type: 'wait', delay_seconds: 31_622_400 }]),
    );
    await createRecord(sandbox, 'deal', { name: 'Big' });
    const [run] = await runs(sandbox);
    assert.equal(run.status, 'waiting');
    assert.equal(Date.parse(run.resume_at) - Date.parse(run.started_at), 31_622_400_000);
  });

  test('a cron expression past 256 characters, a legacy zone and a match over a year away are refused', async (t) => {
    const sandbox = await sandboxFor(t);
    const minutes = Array.from({ length: 60 }, (_, i) => i).join(',');
    const long = `${minutes},${minutes} * * * *`;
    const tooLong = await api(sandbox).post(
      'deal/triggered_automations',
      onDealCreated([{ type: 'wait', cron_expression: long }]),
    );
    assertError(tooLong, 400, 'invalid_request', 'body.actions[0].cron_expression');
    for (const zone of ['EST5EDT', 'CET', '+05:00']) {
      const refused = await api(sandbox).post(
        'deal/triggered_automations',
        onDealCreated([{ type: 'wait', cron_expression: '0 9 * * *', timezone: zone }]),
      );
      assertError(refused, 400, 'invalid_request', 'body.actions[0].timezone');
    }
    for (const zone of ['America/New_York', 'UTC', 'Etc/GMT+5']) {
      await createAutomation(
        sandbox,
        'deal',
        onDealCreated([{ type: 'wait', cron_expression: '0 9 * * *', timezone: zone }]),
      );
    }
    assert.match(timeZoneProblem('EST5EDT')!, /not the name of a region/);
    const march2026 = Date.parse('2026-03-01T00:00:00Z');
    assert.match(cronProblem('0 0 29 2 *', 'UTC', march2026)!, /2028-02-29.*more than a year/);
    assert.equal(cronProblem('0 0 29 2 *', 'UTC', Date.parse('2027-06-01T00:00:00Z')), undefined);
  });

  test('a data file holding a wait no date can hold loads: the run fails with the reason', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.data');
    const first = await startSandbox({ dataFile: file });
    await createAutomation(first, 'deal', onDealCreated([{ type: 'wait', delay_seconds: 60 }]));
    const kept = await createRecord(first, 'deal', { name: 'Kept' });
    await createRecord(first, 'deal', { name: 'Second' });
    await first.close();
    // As an earlier version wrote them: an end of Infinity (JSON null), one past year 275760.
    const lines = (await readFile(file, 'utf8')).split('\n');
    let waits = 0;
    const edited = lines.map((line) => {
      if (!line.includes('"resume_at_ms":')) return line;
      const value = waits++ === 0 ? 'null' : '316224000000000000';
      return line.replace(/"resume_at_ms":\d+/, `"resume_at_ms":${value}`);
    });
    assert.equal(waits, 2);
    await writeFile(file, edited.join('\n'));

    const again = await startSandbox({ dataFile: file });
    t.after(() => again.close());
    assert.equal(ok(await api(again).get(`deal/${kept}`)).body.id, kept);
    const loaded = await runs(again);
    assert.equal(loaded.length, 2);
    for (const run of loaded) {
      assert.equal(run.status, 'failed');
      assert.equal(run.steps[0].status, 'failed');
      assert.equal(run.steps[0].error.code, 'schedule');
      assert.match(run.steps[0].error.message, /at most a year/);
    }
  });
});

describe('automations: fan-out is bounded', () => {
  test('an automation has at most 100 actions', async (t) => {
    const sandbox = await sandboxFor(t);
    const agent = { type: 'agent', agent_id: TEMPLATE };
    const refused = await api(sandbox).post(
      'deal/triggered_automations',
      onDealCreated(Array.from({ length: 101 }, () => agent)),
    );
    assertError(refused, 400, 'invalid_request', 'body.actions');
    assert.match(refused.body.error.message, /at most 100 items/);
    await createAutomation(
      sandbox,
      'deal',
      onDealCreated(Array.from({ length: 100 }, () => agent)),
    );
  });

  test('one write asking for 20,000 deliveries: other requests are answered while they are made', async (t) => {
    const sandbox = await startSandbox({ port: 0 });
    t.after(() => sandbox.close());
    // The receiver takes nothing: every delivery stays pending (16 of them in flight).
    const receiver = await startHookReceiver(t, (req) =>
      req.method === 'GET'
        ? { status: 200, body: req.query.get('service_hook_challenge') ?? '' }
        : 'hang',
    );
    const hook = await verifiedHook(sandbox, `${receiver.origin}/hook`);
    const webhook = { type: 'webhook', webhook_id: hook.id };
    for (let i = 0; i < 200; i++) {
      await createAutomation(
        sandbox,
        'deal',
        onDealCreated(
          Array.from({ length: 100 }, () => webhook),
          `Fan-out ${i}`,
        ),
      );
    }
    let answered = false;
    const write = api(sandbox)
      .post('deal', { default: { name: 'Big' } })
      .then((answer) => {
        answered = true;
        return answer;
      });
    // Sent once the write is under way (its first delivery is made: in the store, as a
    // delivery no attempt of which has ended is not listed).
    const made = () => {
      for (const d of webhooksOf(sandbox.store).newestFirst())
        if (d.type === 'delivery') return true;
      return false;
    };
    while (!made()) {
      const page = await call(sandbox, 'GET', `/v2/webhooks/${sandbox.teamId}/deliveries?limit=1`);
      assert.equal(page.status, 200);
      assert.equal(answered, false);
    }
    const health = await call(sandbox, 'GET', '/__sandbox/health', { key: null });
    assert.equal(health.status, 200);
    assert.equal(answered, false, 'health answered while the deliveries are made');
    assert.equal((await write).status, 201);
    // Every delivery was made before the write answered.
    let count = 0;
    for (const d of webhooksOf(sandbox.store).newestFirst()) if (d.type === 'delivery') count++;
    assert.equal(count, 20_000);
  });
});
