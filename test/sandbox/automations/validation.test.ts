// Every 400 of automation create and replace names its field as a path into the body, one
// errors[] entry per fault: the shape rules of the contract (checked at the door) and the
// rules the contract cannot express (slugs and dot paths that exist on the object type,
// operands read in each property's type, cron expressions, time zones, Liquid subjects,
// contact properties of recipients).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, LIST_A, sandboxFor, WEBHOOK_ID } from './helpers.ts';

const VIEW = '5d7f4e3c-9a6b-4c8d-9e0f-2a3b4c5d6e7f';
const TEMPLATE = '6e8a5f4d-0b7c-4d9e-8f1a-3b4c5d6e7f80';
/** The shared default `email` property of contacts (ids are stable, see docs/sandbox-reference.md). */
let EMAIL_PROP = '';

/** field → code of each error of a 400. */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
function faults(answer: any): Record<string, string> {
  assert.equal(answer.status, 400, answer.text);
  assert.equal(answer.body.error.code, 'invalid_request');
  return Object.fromEntries(
    answer.body.error.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
  );
}

const update = (changeset: unknown, extra: Record<string, unknown> = {}) => ({
  kind: 'update',
  name: 'x',
  changeset,
  ...extra,
});
const lifecycle = (state: unknown, extra: Record<string, unknown> = {}) => ({
  kind: 'lifecycle',
  name: 'x',
  on_create: true,
  state,
  ...extra,
});
const email = (overrides: Record<string, unknown> = {}) => ({
  type: 'email',
  recipient_view_id: VIEW,
  recipient_view_object_type: 'contact',
  recipient_email_prop_def_id: EMAIL_PROP,
  send_as_user_id: 'user_1',
  template_id: TEMPLATE,
  subject: 'Hello {{ contact.name }}',
  ...overrides,
});

describe('automations: each fault is a 400 naming its field', () => {
  test('shape faults, found at the door', async (t) => {
    const sandbox = await sandboxFor(t);
    const post = (body: unknown) => api(sandbox).post('deal/triggered_automations', body);
    const cases: [unknown, Record<string, string>][] = [
      [{ name: 'x' }, { 'body.kind': 'required' }],
      [{ kind: 'update' }, { 'body.name': 'required', 'body.changeset': 'required' }],
      [{ kind: 'lifecycle', name: 'x' }, { 'body.state': 'required' }],
      [
        { kind: 'lifecycle', name: 'x', state: { filter: [] }, changeset: { filter: [] } },
        { 'body.changeset': 'type' },
      ],
      [
        update({ filter: [{ 'organization.name': {} }] }),
        { 'body.changeset.filter[0].organization.name': 'pattern' },
      ],
      [
        update({ filter: [{ stage: { to: 'won' } }] }),
        { 'body.changeset.filter[0].stage.to': 'type' },
      ],
      [
        update({ filter: [{ stage: { to: { is: 'won' } } }] }),
        { 'body.changeset.filter[0].stage.to.is': 'enum' },
      ],
      [
        update(
          { filter: [] },
          {
            actions: [
              { type: 'webhook', webhook_id: WEBHOOK_ID },
              { type: 'agent', agent_id: 'not-a-uuid' },
              { type: 'wait', delay_seconds: -5 },
              { type: 'wait' },
              { type: 'sms' },
            ],
          },
        ),
        {
          'body.actions[1].agent_id': 'format',
          'body.actions[2].delay_seconds': 'minimum',
          'body.actions[3]': 'one_of',
          'body.actions[4].type': 'enum',
        },
      ],
    ];
    for (const [body, expected] of cases) {
      assert.deepEqual(faults(await post(body)), expected, JSON.stringify(body));
    }
  });

  test('faults against the definitions, each with its own entry', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const props = (await http.get('contact/properties')).body.contact;
    EMAIL_PROP = (Object.values(props) as { id: string; slug: string }[]).find(
      (d) => d.slug === 'email',
    )!.id;
    const dealProps = (await http.get('deal/properties')).body.deal;
    const amountId = (Object.values(dealProps) as { id: string; slug: string }[]).find(
      (d) => d.slug === 'amount',
    )!.id;
    const post = (body: unknown) => http.post('deal/triggered_automations', body);
    const cases: [unknown, Record<string, string>][] = [
      [update({ filter: [{ stag: {} }] }), { 'body.changeset.filter[0].stag': 'unknown_property' }],
      [
        update({
          filter: [{ amount: {} }, { stage: { from: { '=': 'lead' }, to: { '=': 'closed' } } }],
        }),
        { 'body.changeset.filter[1].stage.to.=': 'unknown_option' },
      ],
      [
        update({ filter: [{ amount: { to: { '>': 'lots' } } }] }),
        { 'body.changeset.filter[0].amount.to.>': 'type' },
      ],
      [
        update({ filter: [{ close_date: { to: { '<': '2025-13-01' } } }] }),
        { 'body.changeset.filter[0].close_date.to.<': 'format' },
      ],
      [
        update(
          { filter: [{ amount: {} }] },
          { state: { filter: [{ 'organization.industr': { '=': 'retail' } }] } },
        ),
        { 'body.state.filter[0].organization.industr': 'unknown_property' },
      ],
      [
        lifecycle({ filter: [{ 'amount.value': { '=': '1' } }] }),
        { 'body.state.filter[0].amount.value': 'invalid_path' },
      ],
      [
        lifecycle({ filter: [{ 'organization.industry': { in: ['retail', 'space'] } }] }),
        { 'body.state.filter[0].organization.industry.in[1]': 'unknown_option' },
      ],
      [
        lifecycle({ filter: [{ amount: { between: ['1'] } }] }),
        { 'body.state.filter[0].amount.between': 'type' },
      ],
      [
        lifecycle(
          { filter: [] },
          {
            list_id: LIST_A,
            state: { filter: [{ stage: { '=': 'won' } }, { notes: { exists: true } }] },
          },
        ),
        {},
      ],
      [
        update({ filter: [{ amount: {} }] }, { on_create: true }),
        { 'body.on_create': 'not_allowed' },
      ],
      [
        lifecycle(
          { filter: [] },
          {
            actions: [
              { type: 'wait', cron_expression: '0 9 * *' },
              { type: 'wait', cron_expression: '0 25 * * *' },
              { type: 'wait', cron_expression: '0 9 30 2 *' },
              { type: 'wait', cron_expression: '0 9 * * 1', timezone: 'Mars/Olympus_Mons' },
              { type: 'wait', delay_seconds: 60, timezone: 'Europe/Paris' },
              email({ subject: 'Hi {{ contact.name ' }),
              email({ recipient_email_prop_def_id: amountId }),
              {
                type: 'linkedin',
                recipient_view_id: VIEW,
                recipient_view_object_type: 'contact',
                recipient_provider_prop_def_id: TEMPLATE,
                send_as_user_id: 'user_1',
                template_id: TEMPLATE,
              },
              email(),
            ],
          },
        ),
        {
          'body.actions[0].cron_expression': 'format',
          'body.actions[1].cron_expression': 'format',
          'body.actions[2].cron_expression': 'format',
          'body.actions[3].timezone': 'format',
          'body.actions[5].subject': 'format',
          'body.actions[6].recipient_email_prop_def_id': 'unknown_property',
          'body.actions[7].recipient_provider_prop_def_id': 'unknown_property',
        },
      ],
    ];
    for (const [body, expected] of cases) {
      const answer = await post(body);
      if (Object.keys(expected).length === 0) {
        assert.equal(answer.status, 201, answer.text);
        continue;
      }
      assert.deepEqual(faults(answer), expected, JSON.stringify(body));
    }

    const many = await post(
      update(
        { filter: [{ stag: {} }, { amount: { to: { '>': 'x' } } }] },
        {
          state: { filter: [{ 'contact.nam': { '=': 'Ada' } }] },
          actions: [{ type: 'wait', cron_expression: 'every day' }],
        },
      ),
    );
    assert.equal(many.body.error.errors.length, 4, many.text);
    assert.match(
      many.body.error.message,
      /^body\.changeset\.filter\[0\]\.stag: deal has no property 'stag'\..* \(and 3 more: see errors\)$/,
    );
    assert.equal(
      (await http.get('deal/triggered_automations')).body.data.length,
      1,
      'nothing is saved on a 400 (one body above was valid)',
    );
  });

  test('a replacement is checked as a create is, and a 400 leaves the automation as it was', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const created = (
      await http.post('deal/triggered_automations', update({ filter: [{ amount: {} }] }))
    ).body;
    const path = `deal/triggered_automations/${created.id}`;
    const answer = await http.put(path, update({ filter: [{ amount: { from: { '<': 'ten' } } }] }));
    assert.deepEqual(faults(answer), { 'body.changeset.filter[0].amount.from.<': 'type' });
    assert.deepEqual((await http.get(path)).body, created);
  });
});
