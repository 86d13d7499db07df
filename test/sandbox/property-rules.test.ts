// Property and option rules the hosted service enforces (facts.md, "What the official client
// sends"): a definition that records still hold values for cannot be deleted (409
// property_in_use), and an option patch takes every field the official client sends.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { propertiesOf } from '../../src/sandbox/resources/properties/model.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { api, assertError, LIST_A, sandboxFor } from './properties-http.ts';

describe('property delete while records hold values', () => {
  test('409 property_in_use naming the records and the query that finds them; 204 once cleared', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = propertiesOf(sandbox.store).create(sandbox.teamId, 'contact', {
      name: 'Tier',
      slug: 'tier',
      type: 'str',
    });
    const records = recordsOf(sandbox.store);
    const held = [1, 2, 3, 4].map(
      (i) => records.create('contact', { default: { name: `P${i}`, tier: `t${i}` } }).id,
    );
    records.create('contact', { default: { name: 'Empty', tier: '' } });
    records.create('contact', { default: { name: 'None' } });
    const path = `contact/properties/${def.id}?type=str`;
    const refused = await http.delete(path);
    assertError(refused, 409, 'property_in_use');
    assert.deepEqual(refused.body.error.details, {
      property_id: def.id,
      slug: 'tier',
      records: 4,
      record_ids: held.slice(0, 3),
    });
    assert.equal(
      refused.body.error.message,
      `The contact property 'Tier' (slug tier, id ${def.id}) cannot be deleted: 4 contact records hold a value for it (${held.slice(0, 3).join(', ')} and 1 more). Clear those values first (POST /v2/prism/${sandbox.teamId}/contact/query with the filter {"tier": {"is_not_null": true}} finds them), then delete the property.`,
    );
    assert.ok(propertiesOf(sandbox.store).get(sandbox.teamId, 'contact', def.id), 'still there');
    assert.equal(records.get('contact', held[0]!)?.default['tier'], 't1', 'values kept');

    // The query the message names finds exactly those records.
    const found = await http.post('contact/query', {
      query: { select: ['name'], filter: [{ tier: { is_not_null: true } }] },
    });
    assert.equal(found.body.data.length, 4, found.text);

    // Cleared (or soft-deleted): the delete goes through.
    for (const id of held.slice(0, 3)) {
      assert.equal((await http.patch(`contact/${id}`, { default: { tier: null } })).status, 200);
    }
    records.softDelete('contact', held[3]!);
    assert.equal((await http.delete(path)).status, 204);
  });

  test('a list’s own definition: values on that list count, 409 names the list', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = propertiesOf(sandbox.store).create(sandbox.teamId, 'deal', {
      name: 'Ticket',
      slug: 'ticket',
      type: 'multiselect_str',
      list_id: LIST_A,
      options: [{ value: 'Open' }],
    });
    const record = recordsOf(sandbox.store).create('deal', {
      default: { name: 'D' },
      lists: { [LIST_A]: { ticket: ['open'] } },
    });
    const refused = await http.delete(`deal/properties/${def.id}?type=multiselect_str`);
    assertError(refused, 409, 'property_in_use');
    assert.match(
      refused.body.error.message,
      new RegExp(`1 deal record holds a value for it on list ${LIST_A} \\(${record.id}\\)`),
    );
    recordsOf(sandbox.store).update('deal', record.id, { lists: { [LIST_A]: { ticket: [] } } });
    assert.equal((await http.delete(`deal/properties/${def.id}?type=multiselect_str`)).status, 204);
  });
});

describe('option patch: the fields of the official client', () => {
  test('value, slug, color_scheme, description, icon, option_group, sort_index, enabled, list_id', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const created = await http.post('deal/properties', {
      name: 'Tier',
      type: 'select_str',
      options: [{ value: 'Gold' }, { value: 'Silver' }],
    });
    assert.equal(created.status, 201, created.text);
    const [gold, silver] = created.body.options;
    assert.equal(gold.enabled, true, 'options are enabled by default');
    const patched = await http.patch(`deal/properties/${created.body.id}/options/${silver.id}`, {
      type: 'select_str',
      value: 'Silver star',
      slug: 'silver_star',
      color_scheme: 'gray',
      description: 'Second best',
      icon: 'star',
      option_group: 'metals',
      sort_index: -1,
      enabled: false,
      list_id: LIST_A,
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body, {
      id: silver.id,
      slug: 'silver_star',
      value: 'Silver star',
      color_scheme: 'gray',
      description: 'Second best',
      icon: 'star',
      option_group: 'metals',
      sort_index: -1,
      enabled: false,
      list_id: LIST_A,
      crm_id: LIST_A,
    });
    // Fields left out keep their value; enabled comes back.
    const again = await http.patch(`deal/properties/${created.body.id}/options/${silver.id}`, {
      type: 'select_str',
      enabled: true,
    });
    assert.deepEqual(again.body, { ...patched.body, enabled: true });
    // A disabled option is a display setting: writes still name it.
    await http.patch(`deal/properties/${created.body.id}/options/${gold.id}`, {
      type: 'select_str',
      enabled: false,
    });
    const deal = await http.post('deal', { default: { name: 'D', tier: 'Gold' } });
    assert.equal(deal.status, 201, deal.text);
    assertError(
      await http.patch(`deal/properties/${created.body.id}/options/${gold.id}`, {
        type: 'select_str',
        enabled: 'no',
      }),
      400,
      'invalid_request',
      'body.enabled',
    );
  });
});
