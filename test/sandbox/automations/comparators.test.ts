// Every comparator of record queries, in a changeset's `from` (the value before the write),
// its `to` (the value after) and a `state` (the record after the write), on each property
// type: one automation per (property, operator, side), one write per property, and the runs
// show exactly which held. The expectations are written out by hand, value by value.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  api,
  createAutomation,
  createRecord,
  firedSince,
  lastSequence,
  ok,
  sandboxFor,
} from './helpers.ts';

/** [operator, operand, holds on the value before, holds on the value after] */
type Case = [string, unknown, boolean, boolean];

interface Row {
  slug: string;
  before: unknown;
  after: unknown;
  cases: Case[];
}

const presence = (before: boolean, after: boolean): Case[] => [
  ['is_null', true, !before, !after],
  ['is_not_null', true, before, after],
  ['exists', true, before, after],
  ['not_exists', true, !before, !after],
  ['is_null', false, before, after],
];

const DATETIME_ROLE = 'f99fd6b2-6b08-5cd2-b88b-b3bf7b0a4f58';
const ORG_1 = { name: 'Acme' };
const ORG_2 = { name: 'Globex' };

function rows(org1: string, org2: string): Row[] {
  return [
    {
      slug: 'score', // num
      before: 5,
      after: 50,
      cases: [
        ['=', '5', true, false],
        ['!=', '5', false, true],
        ['<', '10', true, false],
        ['>', '10', false, true],
        ['<=', '50', true, true],
        ['>=', '50', false, true],
        ['between', ['1', '10'], true, false],
        ['between', '40,60', false, true],
        ['in', ['5', '6'], true, false],
        ['not_in', ['5', '6'], false, true],
        ['contains', '0', false, true],
        ['not_contains', '0', true, false],
        ['begins_with', '50', false, true],
        ['ends_with', '5', true, false],
        ...presence(true, true),
      ],
    },
    {
      slug: 'name', // str
      before: 'Ada Lovelace',
      after: 'Grace Hopper',
      cases: [
        ['=', 'Ada Lovelace', true, false],
        ['=', 'ada lovelace', false, false],
        ['!=', 'Ada Lovelace', false, true],
        ['<', 'b', true, false],
        ['>', 'b', false, true],
        ['<=', 'Ada Lovelace', true, false],
        ['>=', 'grace', false, true],
        ['between', ['a', 'c'], true, false],
        ['in', ['Grace Hopper', 'x'], false, true],
        ['not_in', ['Grace Hopper'], true, false],
        ['contains', 'HOP', false, true],
        ['not_contains', 'love', false, true],
        ['begins_with', 'ada', true, false],
        ['ends_with', 'hopper', false, true],
        ...presence(true, true),
      ],
    },
    {
      slug: 'notes', // text, from no value to a value
      before: null,
      after: 'Call back Monday',
      cases: [
        ['=', 'Call back Monday', false, true],
        ['!=', 'x', true, true],
        ['<', 'D', false, true],
        ['>', 'A', false, true],
        ['<=', 'Call back Monday', false, true],
        ['>=', 'Z', false, false],
        ['between', ['a', 'd'], false, true],
        ['in', ['Call back Monday'], false, true],
        ['not_in', ['Call back Monday'], true, false],
        ['contains', 'MONDAY', false, true],
        ['not_contains', 'monday', true, false],
        ['begins_with', 'call', false, true],
        ['ends_with', 'day', false, true],
        ...presence(false, true),
      ],
    },
    {
      slug: 'subscribed', // bool
      before: false,
      after: true,
      cases: [
        ['=', true, false, true],
        ['=', 'false', true, false],
        ['!=', true, true, false],
        ['<', 'true', true, false],
        ['>', 'false', false, true],
        ['<=', 'false', true, false],
        ['>=', 'false', true, true],
        ['between', ['false', 'true'], true, true],
        ['in', ['true'], false, true],
        ['not_in', ['true'], true, false],
        ['contains', 'tru', false, true],
        ['not_contains', 'tru', true, false],
        ['begins_with', 'f', true, false],
        ['ends_with', 'e', true, true],
        ...presence(true, true),
      ],
    },
    {
      slug: 'birthday', // date
      before: '1990-05-01',
      after: '1991-12-24',
      cases: [
        ['=', '1990-05-01', true, false],
        ['!=', '1990-05-01', false, true],
        ['<', '1991-01-01', true, false],
        ['>', '1991-01-01', false, true],
        ['<=', '1991-12-24', true, true],
        ['>=', '1991-12-24', false, true],
        ['between', ['1990-01-01', '1990-12-31'], true, false],
        ['in', ['1991-12-24'], false, true],
        ['not_in', ['1991-12-24'], true, false],
        ['contains', '-12-', false, true],
        ['not_contains', '1990', false, true],
        ['begins_with', '1990', true, false],
        ['ends_with', '24', false, true],
        ['<', '1990-05-01T12:00:00Z', true, false],
        ...presence(true, true),
      ],
    },
    {
      slug: 'last_seen', // date with a time (role datetime)
      before: '2025-03-30T00:30:00Z',
      after: '2025-03-30T23:30:00+02:00',
      cases: [
        ['=', '2025-03-30', true, true],
        ['=', '2025-03-30T21:30:00Z', false, true],
        ['!=', '2025-03-30', false, false],
        ['<', '2025-03-30T12:00:00+01:00', true, false],
        ['>', '2025-03-30T12:00:00Z', false, true],
        ['<=', '2025-03-30', true, true],
        ['>=', '2025-03-31', false, false],
        ['between', ['2025-03-30T00:00:00Z', '2025-03-30T01:00:00Z'], true, false],
        ['in', ['2025-03-30T21:30:00Z'], false, true],
        ['not_in', ['2025-03-30T21:30:00Z'], true, false],
        ['contains', 'T21:30', false, true],
        ['not_contains', 'T00:', false, true],
        ['begins_with', '2025-03-30T00', true, false],
        ['ends_with', '30:00.000Z', true, true],
        ...presence(true, true),
      ],
    },
    {
      slug: 'status', // select: lead, customer, churned in this order
      before: 'lead',
      after: 'customer',
      cases: [
        ['=', 'lead', true, false],
        ['=', 'Customer', false, true],
        ['!=', 'lead', false, true],
        ['<', 'customer', true, false],
        ['>', 'lead', false, true],
        ['<=', 'customer', true, true],
        ['>=', 'churned', false, false],
        ['between', ['lead', 'customer'], true, true],
        ['in', ['CUSTOMER', 'churned'], false, true],
        ['not_in', ['customer'], true, false],
        ['contains', 'cust', false, true],
        ['not_contains', 'ead', false, true],
        ['begins_with', 'L', true, false],
        ['ends_with', 'er', false, true],
        ...presence(true, true),
      ],
    },
    {
      slug: 'tags', // multiselect: vip, newsletter, partner in this order
      before: ['vip'],
      after: ['vip', 'newsletter'],
      cases: [
        ['=', 'newsletter', false, true],
        ['!=', 'vip', false, false],
        ['<', 'newsletter', true, true],
        ['>', 'vip', false, true],
        ['<=', 'vip', true, true],
        ['>=', 'partner', false, false],
        ['between', ['newsletter', 'partner'], false, true],
        ['in', ['partner', 'newsletter'], false, true],
        ['not_in', ['newsletter'], true, false],
        ['contains', 'vip', true, true],
        ['contains', ['vip', 'newsletter'], false, true],
        ['not_contains', 'newsletter', true, false],
        ['begins_with', 'news', false, true],
        ['ends_with', 'ip', true, true],
        ...presence(true, true),
      ],
    },
    {
      slug: 'organization', // ref_organization
      before: org1,
      after: org2,
      cases: [
        ['=', org1, true, false],
        ['!=', org1, false, true],
        ['in', [org2], false, true],
        ['not_in', [org2], true, false],
        ['contains', org2.slice(0, 8), false, true],
        ['begins_with', org1.slice(0, 8), true, false],
        ...presence(true, true),
      ],
    },
  ];
}

describe('automations: the record-query comparators in from, to and state', () => {
  test('every operator on every property type holds as in a record query', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    ok(
      await http.post('contact/properties', {
        name: 'Last seen',
        type: 'date',
        role_id: DATETIME_ROLE,
      }),
      201,
    );
    const org1 = await createRecord(sandbox, 'organization', ORG_1);
    const org2 = await createRecord(sandbox, 'organization', ORG_2);
    for (const row of rows(org1, org2)) {
      const expected: string[] = [];
      for (const [i, [operator, operand, before, after]] of row.cases.entries()) {
        const comparison = { [operator]: operand };
        const label = `${row.slug} ${operator} ${JSON.stringify(operand)} (case ${i})`;
        const sides: [string, Record<string, unknown>, boolean][] = [
          ['from', { changeset: { filter: [{ [row.slug]: { from: comparison } }] } }, before],
          ['to', { changeset: { filter: [{ [row.slug]: { to: comparison } }] } }, after],
          [
            'state',
            {
              changeset: { filter: [{ [row.slug]: {} }] },
              state: { filter: [{ [row.slug]: comparison }] },
            },
            after,
          ],
        ];
        for (const [side, body, holds] of sides) {
          const name = `${label} ${side}`;
          await createAutomation(sandbox, 'contact', { kind: 'update', name, ...body });
          if (holds) expected.push(name);
        }
      }
      const values = row.before === null ? {} : { [row.slug]: row.before };
      const id = await createRecord(sandbox, 'contact', values);
      const since = await lastSequence(sandbox);
      ok(await http.patch(`contact/${id}`, { default: { [row.slug]: row.after } }));
      const fired = await firedSince(sandbox, since);
      assert.deepEqual(fired, expected, row.slug);
    }
  });

  test('entries combine by combinator; the slugs of one entry must all change', async (t) => {
    const sandbox = await sandboxFor(t);
    const changeset = (combinator: string, filter: unknown[]) => ({
      kind: 'update',
      name: `${combinator} ${JSON.stringify(filter)}`,
      changeset: { combinator, filter },
    });
    const made = [
      changeset('AND', []),
      changeset('AND', [{ name: {}, score: {} }]),
      changeset('AND', [{ name: {} }, { score: {} }]),
      changeset('OR', [{ name: {} }, { score: {} }]),
      changeset('OR', [{ score: {} }, { city: {} }]),
      changeset('AND', [{ name: { from: { '=': 'Ada' }, to: { '=': 'Ada L.' } } }]),
      {
        ...changeset('OR', [{ name: {} }]),
        name: 'state OR',
        state: { combinator: 'OR', filter: [{ city: { '=': 'Paris' } }, { score: { '>': '1' } }] },
      },
      {
        ...changeset('AND', [{ name: {} }]),
        name: 'state AND',
        state: { filter: [{ city: { '=': 'Paris' } }, { score: { '>': '1' } }] },
      },
    ];
    for (const body of made) await createAutomation(sandbox, 'contact', body);
    const id = await createRecord(sandbox, 'contact', { name: 'Ada', score: 1, city: 'London' });
    const since = await lastSequence(sandbox);
    ok(await api(sandbox).patch(`contact/${id}`, { default: { name: 'Ada L.' } }));
    assert.deepEqual(await firedSince(sandbox, since), [
      'AND []',
      'OR [{"name":{}},{"score":{}}]',
      'AND [{"name":{"from":{"=":"Ada"},"to":{"=":"Ada L."}}}]',
    ]);
    const next = await lastSequence(sandbox);
    ok(await api(sandbox).patch(`contact/${id}`, { default: { name: 'Ada', city: 'Paris' } }));
    assert.deepEqual(await firedSince(sandbox, next), [
      'AND []',
      'OR [{"name":{}},{"score":{}}]',
      'OR [{"score":{}},{"city":{}}]',
      'state OR',
    ]);
  });
});
