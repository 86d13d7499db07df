// The webhooks slice on its own: how many deliveries it keeps, and the checks of a data
// file's webhooks and deliveries (which never quote a value: it may be a signing secret).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KEPT_DELIVERIES, webhooksOf } from '../../src/sandbox/resources/webhooks/model.ts';
import { SnapshotError, Store } from '../../src/sandbox/store.ts';

const TEAM = '7c9e6679-7425-40de-944b-e07fc1f0d479';

/** A store whose webhooks slice exists, so a snapshot's webhooks are checked on load. */
function storeWithSlice(): Store {
  const store = new Store();
  webhooksOf(store);
  return store;
}

function withWebhook() {
  const store = new Store();
  const model = webhooksOf(store);
  const webhook = model.create(TEAM, { name: 'w', url: 'http://127.0.0.1:9/h' });
  return { store, model, webhook };
}

describe('the webhooks slice', () => {
  test(`keeps the latest ${KEPT_DELIVERIES} deliveries that ended, in the order they ended, and every one still due`, () => {
    const { model, webhook } = withWebhook();
    const body = (id: string) => `{"id":"${id}"}`;
    const add = () =>
      model.addDelivery(webhook, { type: 'delivery', event: 'e', body, challenge: null });
    const due = add();
    const older = add();
    const newer = add();
    // The first stays due (an attempt will follow); the newer one ends before the older one.
    model.deadLetter(newer);
    model.deadLetter(older);
    for (let i = 0; i < KEPT_DELIVERIES - 2; i++) model.deadLetter(add());
    assert.equal([...model.newestFirst()].length, KEPT_DELIVERIES + 1);
    model.deadLetter(add());
    assert.equal(model.delivery(newer.delivery_id), undefined, 'the first to end goes first');
    assert.equal(model.delivery(older.delivery_id), older);
    model.deadLetter(add());
    assert.equal(model.delivery(older.delivery_id), undefined);
    const kept = [...model.newestFirst()];
    assert.equal(kept.length, KEPT_DELIVERIES + 1);
    assert.equal(model.delivery(due.delivery_id), due, 'a due delivery is never dropped');
    assert.equal(kept.at(-1), due);
    // Deliveries still due are kept, however many.
    const more = Array.from({ length: KEPT_DELIVERIES + 5 }, add);
    assert.equal([...model.newestFirst()].length, 2 * KEPT_DELIVERIES + 6);
    assert.ok(more.every((d) => model.delivery(d.delivery_id) === d));
  });

  test('a snapshot round-trips, and a corrupt one is refused without quoting the secret', () => {
    const { store, model, webhook } = withWebhook();
    model.beginHandshake(webhook);
    const snapshot = store.toJSON();
    const copy = storeWithSlice();
    copy.fromJSON(snapshot);
    assert.deepEqual(webhooksOf(copy).toJSON(), model.toJSON());

    const broken = structuredClone(snapshot) as unknown as {
      slices: { webhooks: { webhooks: { secret: string }[] } };
    };
    broken.slices.webhooks.webhooks[0]!.secret = 'sk_live_not_a_whsec';
    assert.throws(
      () => storeWithSlice().fromJSON(broken),
      (err: unknown) =>
        err instanceof SnapshotError &&
        err.path === 'store.slices.webhooks.webhooks[0].secret' &&
        !err.message.includes('sk_live_not_a_whsec'),
    );
    const orphan = structuredClone(snapshot) as unknown as {
      slices: { webhooks: { webhooks: unknown[] } };
    };
    orphan.slices.webhooks.webhooks = [];
    assert.throws(() => storeWithSlice().fromJSON(orphan), /no webhook has the id/);
  });
});
