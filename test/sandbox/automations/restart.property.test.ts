// Whatever automation the API accepts, a sandbox that ran it can be killed and started again:
// random automation bodies (waits of any length, cron expressions in any zone, hostile
// subjects, webhook and agent steps) are sent to a real `ws sandbox start --data` process,
// the accepted ones are fired (a create, an update, a deletion and the clock moved on), the
// process is killed with SIGKILL, and the restarted sandbox must load its data file and
// answer the runs it keeps, each with dates that JSON can hold.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { kill9, type SandboxProcess, startSandboxProcess } from '../crash-writers.ts';
import { tempDir } from '../helpers.ts';

const VIEW = '7f9b6a5e-1c8d-4e0f-9a2b-4c5d6e7f8091';
const TEMPLATE = '8a0c7b6f-2d9e-4f1a-8b3c-5d6e7f809102';
const EMAIL_PROP = '21e6bc17-76b6-5db2-8b55-f5ad5833d379';

const cronField = (max: number) =>
  fc.oneof(
    fc.constant('*'),
    fc.integer({ min: 0, max }).map(String),
    fc
      .tuple(fc.integer({ min: 0, max }), fc.integer({ min: 1, max: 15 }))
      .map(([a, b]) => `${a}/${b}`),
    fc
      .array(fc.integer({ min: 0, max }), { minLength: 1, maxLength: 80 })
      .map((xs) => xs.join(',')),
  );

const wait = fc.oneof(
  fc.record({
    type: fc.constant('wait'),
    delay_seconds: fc.oneof(
      fc.integer({ min: 0, max: 31_622_400 }),
      fc.double({ min: 0, max: 1e308, noNaN: true }),
      fc.constantFrom(0.0004, 31_622_400, 31_622_400.4, 1e13, 1e308),
    ),
  }),
  fc.record(
    {
      type: fc.constant('wait'),
      cron_expression: fc.oneof(
        fc.constantFrom('0 9 * * 1', '0 0 29 2 *', '0 0 30 2 *', '* * * * *', '0 0 1 1 *'),
        fc
          .tuple(cronField(59), cronField(23), cronField(31), cronField(12), cronField(7))
          .map((fields) => fields.join(' ')),
      ),
      timezone: fc.constantFrom(
        'UTC',
        'Europe/Paris',
        'America/New_York',
        'Asia/Kathmandu',
        'Australia/Lord_Howe',
        'EST5EDT',
        'Mars/Olympus',
      ),
    },
    { requiredKeys: ['type', 'cron_expression'] },
  ),
);

const email = fc.record({
  type: fc.constant('email'),
  recipient_view_id: fc.constant(VIEW),
  recipient_view_object_type: fc.constant('contact'),
  recipient_email_prop_def_id: fc.constant(EMAIL_PROP),
  send_as_user_id: fc.constant('user_1'),
  template_id: fc.constant(TEMPLATE),
  subject: fc.oneof(
    fc.constantFrom(
      'Hi {{ contact.name }}',
      '{% for i in (1..100000000) %}x{% endfor %}',
      '{% for i in (1..999) %}x{% endfor %}',
      "{% include '.env' %}",
      '{{ record.name | upcase }} {{ "now" | date: "%Y" }}',
    ),
    fc.string({ maxLength: 40 }),
  ),
});

const action = fc.oneof(
  wait,
  email,
  fc.record({ type: fc.constant('webhook'), webhook_id: fc.uuid() }),
  fc.record({ type: fc.constant('agent'), agent_id: fc.uuid() }),
);

const automation = fc.oneof(
  fc.record({
    kind: fc.constant('lifecycle'),
    name: fc.string({ minLength: 1, maxLength: 20 }),
    on_create: fc.boolean(),
    on_delete: fc.boolean(),
    state: fc.constant({ filter: [] }),
    actions: fc.array(action, { maxLength: 6 }),
  }),
  fc.record({
    kind: fc.constant('update'),
    name: fc.string({ minLength: 1, maxLength: 20 }),
    changeset: fc.constant({ filter: [{ name: {} }] }),
    actions: fc.array(action, { maxLength: 6 }),
  }),
);

async function call(
  sandbox: SandboxProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('automations: any accepted automation survives kill -9', () => {
  test('random accepted bodies, fired, killed, restarted: every restart loads', async (t) => {
    const dir = await tempDir(t);
    let round = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(automation, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 400 * 86_400 }),
        async (bodies, advance) => {
          const file = join(dir, `round-${round++}.data`);
          const first = await startSandboxProcess(file);
          try {
            const prism = `/v2/prism/${first.teamId}`;
            await call(first, 'PUT', `/__sandbox/contact_views/${VIEW}`, { name: 'All' });
            await call(first, 'POST', `${prism}/contact`, {
              default: { name: 'Ann', email: 'ann@example.com' },
            });
            for (const body of bodies) {
              const answer = await call(first, 'POST', `${prism}/deal/triggered_automations`, body);
              assert.ok([201, 400].includes(answer.status), JSON.stringify(answer.body));
              if (answer.status === 201) accepted++;
            }
            const created = await call(first, 'POST', `${prism}/deal`, {
              default: { name: 'Big' },
            });
            assert.equal(created.status, 201);
            const id = (created.body as { id: string }).id;
            assert.equal(
              (await call(first, 'PATCH', `${prism}/deal/${id}`, { default: { name: 'Bigger' } }))
                .status,
              200,
            );
            assert.equal(
              (await call(first, 'POST', '/__sandbox/clock/advance', { seconds: advance })).status,
              200,
            );
            assert.equal((await call(first, 'DELETE', `${prism}/deal/${id}`)).status, 204);
            assert.equal(
              (await call(first, 'GET', '/__sandbox/automation_runs?limit=1000')).status,
              200,
            );
          } finally {
            await kill9(first);
          }
          const again = await startSandboxProcess(file);
          try {
            const runs = await call(again, 'GET', '/__sandbox/automation_runs?limit=1000');
            assert.equal(runs.status, 200, JSON.stringify(runs.body));
            for (const run of (runs.body as { data: Record<string, unknown>[] }).data) {
              for (const field of ['started_at', 'updated_at', 'finished_at', 'resume_at']) {
                const value = run[field];
                if (value !== null) assert.ok(!Number.isNaN(Date.parse(String(value))), field);
              }
            }
          } finally {
            await kill9(again);
          }
        },
      ),
      { numRuns: 6 },
    );
    assert.ok(accepted > 0, 'some bodies were accepted');
  });
});
