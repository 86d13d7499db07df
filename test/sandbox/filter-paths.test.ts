// A path reads the same in a record query's filter and in an automation's state filter: the
// record's own value (of its list, for a list's property), or the values reached through
// references, one reference or many, to records deleted since. Each condition runs
// both ways over the same records (the query over HTTP, the automation evaluator over the
// sandbox's workspace) and the records each lets through must be the same.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileAutomation } from '../../src/automation-engine/evaluate.ts';
import { recordsOf } from '../../src/sandbox/index.ts';
import { workspaceOf } from '../../src/sandbox/resources/automations/workspace.ts';
import { ids, recordsApi } from './records-api.ts';

test('record filters and automation state filters read a path alike', async (t) => {
  const api = await recordsApi(t);
  const list = crypto.randomUUID();
  api.define('deal', { name: 'Partners', type: 'multiref_organization' });
  api.define('deal', { name: 'Priority', type: 'num', list_id: list });
  const acme = await api.create('organization', { name: 'Acme', industry: 'software' });
  const bolt = await api.create('organization', { name: 'Bolt', industry: 'finance' });
  const gone = await api.create('organization', { name: 'Gone', industry: 'software' });
  const ann = await api.create('contact', { name: 'Ann', organization: acme.id });
  const deals = [
    await api.create(
      'deal',
      { name: 'A', organization: acme.id, contact: ann.id, partners: [acme.id, bolt.id] },
      { [list]: { priority: 2 } },
    ),
    await api.create('deal', { name: 'B', organization: bolt.id, partners: [bolt.id] }),
    await api.create('deal', { name: 'C', organization: gone.id }, { [list]: {} }),
    await api.create('deal', { name: 'D' }, { [list]: { priority: 7 } }),
  ];
  assert.equal((await api.req('DELETE', `organization/${gone.id}`)).status, 204);

  const conditions: [listId: string | null, entry: Record<string, Record<string, unknown>>][] = [
    [null, { name: { '=': 'A' } }],
    [null, { 'organization.industry': { '=': 'Software' } }],
    [null, { 'organization.name': { is_null: true } }],
    [null, { 'organization.name': { '!=': 'Bolt' } }],
    [null, { 'contact.organization.name': { begins_with: 'ac' } }],
    [null, { 'partners.industry': { '=': 'finance' } }],
    [null, { 'partners.industry': { '!=': 'finance' } }],
    [null, { 'partners.name': { in: ['Acme'] } }],
    [null, { 'partners.name': { exists: true } }],
    [list, { priority: { '>=': '2' } }],
    [list, { priority: { is_null: true } }],
    [list, { 'organization.industry': { not_in: ['software'] } }],
  ];
  const workspace = workspaceOf(api.sandbox.store, api.teamId);
  const records = recordsOf(api.sandbox.store);
  const sizes = new Set<number>();
  for (const [listId, entry] of conditions) {
    const answer = await api.req('POST', 'deal/query', {
      body: { query: { select: [], filter: [entry], ...(listId ? { list_id: listId } : {}) } },
    });
    assert.equal(answer.status, 200, answer.text);
    const queried = ids(answer);

    const automation = compileAutomation(
      { kind: 'lifecycle', on_create: true, list_id: listId, state: { filter: [entry] } },
      'deal',
      workspace,
    );
    assert.deepEqual(automation.problems, [], JSON.stringify(entry));
    const evaluated = deals
      .map((d) => records.get('deal', d.id)!)
      .filter((record) => listId === null || record.lists[listId] !== undefined)
      .filter((record) => automation.fires({ trigger: 'created', before: null, after: record }))
      .map((record) => record.id);

    assert.deepEqual(
      evaluated,
      queried,
      `${JSON.stringify(entry)} on ${listId ?? 'the workspace'}`,
    );
    sizes.add(queried.length);
  }
  assert.ok(sizes.size >= 3, `the conditions let different records through (${[...sizes]})`);
});
