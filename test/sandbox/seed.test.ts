import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import { OBJECT_TYPES } from '../../src/sandbox/object-types.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { call, prism, startFor, tempDir } from './helpers.ts';

describe("seed: 'demo'", () => {
  test('fills an empty store with a realistic workspace', async (t) => {
    const sandbox = await startFor(t, { seed: 'demo' });
    const totals: Record<string, number> = {};
    for (const type of OBJECT_TYPES) {
      totals[type] = (await call(sandbox, 'GET', prism(sandbox, `${type}/count`))).body.total;
    }
    assert.deepEqual(totals, {
      contact: 25,
      organization: 10,
      identity: 4,
      deal: 12,
      action: 4,
      document: 3,
      // The demo seeds none of the types beyond api.md's six.
      event: 0,
      engagement: 0,
    });

    const records = recordsOf(sandbox.store);
    for (const contact of records.records('contact')) {
      const v = contact.default;
      assert.deepEqual(Object.keys(v).sort(), ['company', 'email', 'name', 'phone', 'title']);
      assert.match(String(v['email']), /^[a-z.]+@[a-z-]+\.example$/);
      assert.match(String(v['phone']), /^\+1 415 555 01\d\d$/);
    }
    const orgNames = new Set([...records.records('organization')].map((o) => o.default['name']));
    for (const org of records.records('organization')) {
      assert.deepEqual(Object.keys(org.default).sort(), [
        'domain',
        'employees',
        'industry',
        'name',
      ]);
      assert.equal(typeof org.default['employees'], 'number');
    }
    for (const contact of records.records('contact'))
      assert.ok(orgNames.has(contact.default['company']));
    const stages = new Set<unknown>();
    for (const deal of records.records('deal')) {
      assert.equal(typeof deal.default['amount'], 'number');
      assert.match(String(deal.default['close_date']), /^2025-\d\d-\d\d$/);
      assert.ok(!Number.isNaN(Date.parse(String(deal.default['close_date']))));
      stages.add(deal.default['stage']);
    }
    assert.deepEqual([...stages].sort(), ['lead', 'lost', 'proposal', 'qualified', 'won']);
  });

  test('is deterministic: two sandboxes hold the same records', async (t) => {
    const a = await startFor(t, { seed: 'demo' });
    const b = await startFor(t, { seed: 'demo' });
    assert.deepEqual(recordsOf(a.store).toJSON(), recordsOf(b.store).toJSON());
    const ids = OBJECT_TYPES.flatMap((type) =>
      [...recordsOf(a.store).records(type)].map((r) => r.id),
    );
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
    for (const id of ids)
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('leaves a store that already holds records alone', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const first = await startSandbox({ dataFile: file });
    recordsOf(first.store).create('contact', { default: { name: 'Mine' } });
    await first.close();
    const second = await startFor(t, { dataFile: file, seed: 'demo' });
    assert.equal(recordsOf(second.store).count('contact'), 1);
    assert.equal(recordsOf(second.store).count('deal'), 0);
  });

  test('is not refilled by reset()', async (t) => {
    const sandbox = await startFor(t, { seed: 'demo' });
    sandbox.reset();
    assert.equal(recordsOf(sandbox.store).isEmpty(), true);
  });
});
