// The automation evaluator from plain data, without a sandbox: what `ws automations test`
// will print. Each condition's verdict comes with the values it compared; gates (disabled,
// trigger, list) explain why an automation cannot fire; dot paths read records through the
// workspace it is given; definitions that changed since make a condition hold for nothing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changesOf, compileAutomation, eventName } from '../../src/automation-engine/evaluate.ts';
import type { DefinitionData, RecordData, Workspace } from '../../src/automation-engine/types.ts';

const options = ['lead', 'won', 'lost'].map((slug) => ({
  id: `${slug}-id`,
  slug,
  value: slug.toUpperCase(),
}));
const DEFS: Record<string, DefinitionData[]> = {
  deal: [
    { slug: 'stage', type: 'select_str', options },
    { slug: 'amount', type: 'num' },
    { slug: 'organization', type: 'ref_organization' },
  ],
  organization: [{ slug: 'industry', type: 'str' }],
};
const ORG: RecordData = { id: 'org-1', default: { industry: 'retail' } };
const workspace: Workspace = {
  definitions: (type) => DEFS[type],
  record: (type, id) => (type === 'organization' && id === ORG.id ? ORG : undefined),
};

const before: RecordData = {
  id: 'd1',
  default: { stage: 'lead', amount: 5, organization: 'org-1' },
};
const after: RecordData = { id: 'd1', default: { stage: 'won', amount: 5, organization: 'org-1' } };

describe('compileAutomation', () => {
  it('explains each condition with the values it compared', () => {
    const compiled = compileAutomation(
      {
        kind: 'update',
        changeset: {
          filter: [{ stage: { from: { '=': 'lead' }, to: { in: ['WON'] } } }, { amount: {} }],
        },
        state: { filter: [{ 'organization.industry': { begins_with: 'ret' } }] },
      },
      'deal',
      workspace,
    );
    assert.deepEqual(compiled.problems, []);
    const change = { trigger: 'updated' as const, before, after };
    assert.equal(compiled.fires(change), false);
    assert.deepEqual(compiled.explain(change), {
      fires: false,
      trigger: 'updated',
      changeset: {
        combinator: 'AND',
        holds: false,
        entries: [
          {
            field: 'changeset.filter[0]',
            holds: true,
            conditions: [
              {
                field: 'changeset.filter[0].stage',
                path: 'stage',
                test: 'changed',
                values: ['lead', 'won'],
                holds: true,
              },
              {
                field: 'changeset.filter[0].stage.from.=',
                path: 'stage',
                test: 'from',
                operator: '=',
                operand: 'lead',
                values: ['lead'],
                holds: true,
              },
              {
                field: 'changeset.filter[0].stage.to.in',
                path: 'stage',
                test: 'to',
                operator: 'in',
                operand: ['WON'],
                values: ['won'],
                holds: true,
              },
            ],
          },
          {
            field: 'changeset.filter[1]',
            holds: false,
            conditions: [
              {
                field: 'changeset.filter[1].amount',
                path: 'amount',
                test: 'changed',
                values: [5, 5],
                holds: false,
              },
            ],
          },
        ],
      },
      state: {
        combinator: 'AND',
        holds: true,
        entries: [
          {
            field: 'state.filter[0]',
            holds: true,
            conditions: [
              {
                field: 'state.filter[0].organization.industry.begins_with',
                path: 'organization.industry',
                test: 'state',
                operator: 'begins_with',
                operand: 'ret',
                values: ['retail'],
                holds: true,
              },
            ],
          },
        ],
      },
    });
  });

  it('names the gate that stops an automation whatever its conditions', () => {
    const spec = { kind: 'lifecycle' as const, state: { filter: [] }, on_create: true };
    const created = { trigger: 'created' as const, before: null, after };
    assert.equal(compileAutomation(spec, 'deal', workspace).fires(created), true);
    const gates = [
      [{ ...spec, enabled: false }, created, 'disabled'],
      [spec, { trigger: 'deleted' as const, before: after, after }, 'trigger'],
      [{ ...spec, list_id: 'list-1' }, created, 'list'],
    ] as const;
    for (const [automation, change, code] of gates) {
      const explained = compileAutomation(automation, 'deal', workspace).explain(change);
      assert.equal(explained.fires, false);
      assert.equal(explained.gate?.code, code);
    }
    const member = { ...after, lists: { 'list-1': {} } };
    assert.equal(
      compileAutomation({ ...spec, list_id: 'list-1' }, 'deal', workspace).fires({
        ...created,
        after: member,
      }),
      true,
    );
  });

  it('collects problems against the definitions, and such a condition holds for nothing', () => {
    const compiled = compileAutomation(
      {
        kind: 'lifecycle',
        on_create: true,
        state: {
          combinator: 'OR',
          filter: [{ stage: { '=': 'closed' } }, { 'amount.x': { exists: true } }],
        },
      },
      'deal',
      workspace,
    );
    assert.deepEqual(
      compiled.problems.map((p) => [p.field, p.code]),
      [
        ['state.filter[0].stage.=', 'unknown_option'],
        ['state.filter[1].amount.x', 'invalid_path'],
      ],
    );
    assert.equal(compiled.fires({ trigger: 'created', before: null, after }), false);
  });

  it('names events and lists the changes of a write', () => {
    assert.equal(eventName('deal', 'updated'), 'deal.updated');
    assert.deepEqual(changesOf({ trigger: 'updated', before, after }), {
      stage: { from: 'lead', to: 'won' },
    });
    assert.deepEqual(
      changesOf({ trigger: 'created', before: null, after: { id: 'x', default: { a: 1 } } }),
      {
        a: { from: null, to: 1 },
      },
    );
    assert.deepEqual(changesOf({ trigger: 'deleted', before, after }), {});
  });
});
