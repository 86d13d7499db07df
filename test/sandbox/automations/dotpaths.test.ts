// Dot paths in a state follow reference properties through the records they name, as they
// are when the write fires: `organization.industry` on a deal, two steps through a contact,
// a multi-reference, and a path whose record is missing.

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

describe('automations: dot paths in state', () => {
  test('follow references to the records they name, as those are at the write', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const lifecycle = (name: string, filter: unknown[]) =>
      createAutomation(sandbox, 'deal', {
        kind: 'lifecycle',
        name,
        on_create: true,
        state: { filter },
      });
    await lifecycle('retail org', [{ 'organization.industry': { '=': 'retail' } }]);
    await lifecycle('contact at a retail org', [
      { 'contact.organization.industry': { '=': 'retail' } },
    ]);
    await lifecycle('org with no industry', [{ 'organization.industry': { is_null: true } }]);
    await lifecycle('big retail org', [
      { 'organization.industry': { '=': 'retail' }, 'organization.employees': { '>': '100' } },
    ]);

    const shop = await createRecord(sandbox, 'organization', {
      name: 'Shop',
      industry: 'retail',
      employees: 50,
    });
    const bank = await createRecord(sandbox, 'organization', { name: 'Bank', industry: 'finance' });
    const ada = await createRecord(sandbox, 'contact', { name: 'Ada', organization: shop });

    let since = await lastSequence(sandbox);
    await createRecord(sandbox, 'deal', { name: 'd1', organization: shop, contact: ada });
    assert.deepEqual(await firedSince(sandbox, since), ['retail org', 'contact at a retail org']);

    since = await lastSequence(sandbox);
    await createRecord(sandbox, 'deal', { name: 'd2', organization: bank });
    assert.deepEqual(await firedSince(sandbox, since), []);

    since = await lastSequence(sandbox);
    await createRecord(sandbox, 'deal', { name: 'd3' });
    assert.deepEqual(
      await firedSince(sandbox, since),
      ['org with no industry'],
      'no reference: no value',
    );

    // The referenced record changes: later writes read it as it is then.
    ok(await http.patch(`organization/${shop}`, { default: { employees: 500 } }));
    ok(await http.patch(`organization/${bank}`, { default: { industry: 'retail' } }));
    since = await lastSequence(sandbox);
    await createRecord(sandbox, 'deal', { name: 'd4', organization: shop });
    await createRecord(sandbox, 'deal', { name: 'd5', organization: bank, contact: ada });
    assert.deepEqual(await firedSince(sandbox, since), [
      'retail org',
      'big retail org',
      'retail org',
      'contact at a retail org',
    ]);
  });

  test('a lifecycle on_delete reads the paths of the record as it was', async (t) => {
    const sandbox = await sandboxFor(t);
    await createAutomation(sandbox, 'contact', {
      kind: 'lifecycle',
      name: 'finance contact gone',
      on_delete: true,
      state: {
        filter: [{ 'organization.industry': { '=': 'finance' } }, { name: { begins_with: 'a' } }],
      },
    });
    const bank = await createRecord(sandbox, 'organization', { name: 'Bank', industry: 'finance' });
    const ada = await createRecord(sandbox, 'contact', { name: 'Ada', organization: bank });
    const bob = await createRecord(sandbox, 'contact', { name: 'Bob' });
    ok(await api(sandbox).delete(`contact/${bob}`), 204);
    const since = await lastSequence(sandbox);
    ok(await api(sandbox).delete(`contact/${ada}`), 204);
    assert.deepEqual(await firedSince(sandbox, since), ['finance contact gone']);
  });
});
