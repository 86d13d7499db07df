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
  test(`keeps the latest ${KEPT_DELIVERIES} deliveries, dropping the oldest finished ones`, () => {
    const { model, webhook } = withWebhook();
    const body = (id: string) => `{"id":"${id}"}`;
    const first = model.addDelivery(webhook, {
      type: 'delivery',
      event: 'e',
      body,
      challenge: null,
    });
    const second = model.addDelivery(webhook, {
      type: 'delivery',
      event: 'e',
      body,
      challenge: null,
    });
    // The first stays due (an attempt will follow); the second is finished.
    model.deadLetter(second);
    for (let i = 0; i < KEPT_DELIVERIES; i++) {
      const d = model.addDelivery(webhook, { type: 'delivery', event: 'e', body, challenge: null });
      model.deadLetter(d);
    }
    const kept = [...model.newestFirst()];
    assert.equal(kept.length, KEPT_DELIVERIES);
    assert.equal(model.delivery(first.delivery_id), first, 'a due delivery is never dropped');
    assert.equal(model.delivery(second.delivery_id), undefined);
    assert.equal(kept.at(-1), first);
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
