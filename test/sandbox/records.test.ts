import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  OBJECT_TYPES,
  RecordsModel,
  recordsOf,
} from '../../src/sandbox/resources/records/model.ts';
import { SnapshotError, Store } from '../../src/sandbox/store.ts';
import { call, prism, startFor } from './helpers.ts';

describe('GET /v2/prism/{teamId}/{objectType}/count', () => {
  test('counts the records of the type that are not soft-deleted', async (t) => {
    const sandbox = await startFor(t);
    const records = recordsOf(sandbox.store);
    for (const type of OBJECT_TYPES) {
      const answer = await call(sandbox, 'GET', prism(sandbox, `${type}/count`));
      assert.equal(answer.status, 200, type);
      assert.deepEqual(answer.body, { total: 0 });
    }
    const ids = [1, 2, 3].map((n) => records.create('contact', { default: { name: `c${n}` } }).id);
    records.create('deal', { default: { name: 'd' } });
    records.softDelete('contact', ids[0]!);
    assert.deepEqual((await call(sandbox, 'GET', prism(sandbox, 'contact/count'))).body, {
      total: 2,
    });
    assert.deepEqual((await call(sandbox, 'GET', prism(sandbox, 'deal/count'))).body, { total: 1 });
    records.restore('contact', ids[0]!);
    assert.deepEqual((await call(sandbox, 'GET', prism(sandbox, 'contact/count'))).body, {
      total: 3,
    });
  });

  test('with list_id, counts the members of that list', async (t) => {
    const sandbox = await startFor(t);
    const records = recordsOf(sandbox.store);
    const list = crypto.randomUUID();
    records.create('deal', { lists: { [list]: { stage: 'lead' } } });
    const second = records.create('deal', { lists: { [list]: {} } });
    records.create('deal');
    const counted = await call(sandbox, 'GET', prism(sandbox, `deal/count?list_id=${list}`));
    assert.deepEqual(counted.body, { total: 2 });
    records.softDelete('deal', second.id);
    const after = await call(sandbox, 'GET', prism(sandbox, `deal/count?list_id=${list}`));
    assert.deepEqual(after.body, { total: 1 });
    const other = await call(
      sandbox,
      'GET',
      prism(sandbox, `deal/count?list_id=${crypto.randomUUID()}`),
    );
    assert.deepEqual(other.body, { total: 0 });
  });

  test('an object type outside the six: 404 naming the decoded type and listing the known ones', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(sandbox, 'GET', prism(sandbox, 'caf%C3%A9%20s/count'));
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, {
      error: {
        code: 'not_found',
        message:
          "Unknown object type 'café s'. Known object types: contact, organization, identity, deal, action, document.",
        request_id: answer.headers['x-request-id'],
      },
    });
  });

  test('list_id given twice: 400', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(sandbox, 'GET', prism(sandbox, 'deal/count?list_id=a&list_id=b'));
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, 'invalid_request');
    assert.equal(answer.body.error.errors[0].field, 'query.list_id');
  });
});

describe('RecordsModel', () => {
  test('create, update, soft delete and restore keep timestamps and versions', () => {
    const store = new Store();
    const records = recordsOf(store);
    const created = records.create('contact', { default: { name: 'Ada', email: 'ada@x.example' } });
    assert.equal(created.version, 1);
    assert.equal(created.deleted_at, null);
    assert.equal(created.created_at, created.updated_at);
    assert.deepEqual(created.lists, {});

    store.clock.advance(60);
    const updated = records.update('contact', created.id, { default: { email: 'ada@y.example' } });
    assert.equal(updated.version, 2);
    assert.deepEqual(updated.default, { name: 'Ada', email: 'ada@y.example' });
    assert.equal(Date.parse(updated.updated_at) - Date.parse(updated.created_at) >= 60_000, true);

    const deleted = records.softDelete('contact', created.id);
    assert.equal(deleted.version, 3);
    assert.equal(typeof deleted.deleted_at, 'string');
    assert.equal(records.count('contact'), 0);
    assert.equal([...records.records('contact')].length, 0);
    assert.equal([...records.records('contact', { includeDeleted: true })].length, 1);

    const restored = records.restore('contact', created.id);
    assert.equal(restored.deleted_at, null);
    assert.equal(restored.version, 4);
    assert.equal(records.count('contact'), 1);
  });

  test('list memberships added by update are counted', () => {
    const records = recordsOf(new Store());
    const record = records.create('deal');
    assert.equal(records.count('deal', { listId: 'l1' }), 0);
    records.update('deal', record.id, { lists: { l1: { stage: 'won' } } });
    assert.equal(records.count('deal', { listId: 'l1' }), 1);
    records.softDelete('deal', record.id);
    assert.equal(records.count('deal', { listId: 'l1' }), 0);
  });

  test('unknown ids are a 404 SandboxError; duplicate ids a programming error', () => {
    const records = recordsOf(new Store());
    assert.throws(
      () => records.update('deal', 'missing', {}),
      (err: unknown) => (err as { status?: number }).status === 404,
    );
    const record = records.create('deal');
    assert.throws(() => records.create('deal', { id: record.id }), /already exists/);
  });

  test('values are copied in, not shared with the caller', () => {
    const records = recordsOf(new Store());
    const values = { tags: ['a'] };
    const record = records.create('contact', { default: values });
    values.tags.push('b');
    assert.deepEqual(record.default, { tags: ['a'] });
  });

  test('toJSON and load round-trip, with counts rebuilt', () => {
    const store = new Store();
    const records = recordsOf(store);
    records.create('contact', { lists: { l1: {} } });
    const gone = records.create('contact');
    records.softDelete('contact', gone.id);
    const copy = recordsOf(new Store());
    copy.load(JSON.parse(JSON.stringify(records.toJSON())));
    assert.deepEqual(copy.toJSON(), records.toJSON());
    assert.equal(copy.count('contact'), 1);
    assert.equal(copy.count('contact', { listId: 'l1' }), 1);
  });

  test('load rejects a broken snapshot, naming where, and keeps the state', () => {
    const records = recordsOf(new Store());
    records.create('deal');
    assert.throws(
      () =>
        records.load({
          contact: [
            {
              id: 'x',
              default: {},
              created_at: 'a',
              updated_at: 'a',
              deleted_at: null,
              version: 0,
            },
          ],
        }),
      (err: unknown) =>
        err instanceof SnapshotError && err.path === 'store.slices.records.contact[0].version',
    );
    assert.throws(
      () => records.load({ widget: [] }),
      (err: unknown) => err instanceof SnapshotError && /unknown object type/.test(err.message),
    );
    assert.equal(records.count('deal'), 1);
  });

  test('is a slice of the store: reset empties it', () => {
    const store = new Store();
    const records = recordsOf(store);
    assert.ok(records instanceof RecordsModel);
    assert.equal(recordsOf(store), records, 'one model per store');
    records.create('action');
    assert.equal(records.isEmpty(), false);
    store.reset();
    assert.equal(records.isEmpty(), true);
  });
});
