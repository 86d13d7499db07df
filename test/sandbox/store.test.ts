import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Clock } from '../../src/sandbox/clock.ts';
import { idempotencySlice } from '../../src/sandbox/idempotency.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { defineSlice, type Slice, SnapshotError, Store } from '../../src/sandbox/store.ts';

describe('Clock', () => {
  test('is real time plus an offset that only moves forward', () => {
    let real = 1_000_000;
    let changes = 0;
    const clock = new Clock({ realNow: () => real, onChange: () => changes++ });
    assert.equal(clock.nowMs(), 1_000_000);
    clock.advance(1.5);
    assert.equal(clock.nowMs(), 1_001_500);
    real += 10;
    assert.equal(clock.nowMs(), 1_001_510);
    assert.equal(clock.iso(), new Date(1_001_510).toISOString());
    assert.equal(changes, 1);
    assert.throws(() => clock.advance(-1), /only moves forward/);
    assert.throws(() => clock.advance(Number.NaN), /only moves forward/);
  });
});

describe('Store', () => {
  test('reset empties every slice, sets the clock back and bumps the generation', () => {
    const store = new Store();
    recordsOf(store).create('contact');
    store.clock.advance(60);
    const generation = store.generation;
    assert.equal(store.isEmpty(), false);
    store.reset();
    assert.equal(store.isEmpty(), true);
    assert.equal(store.clock.offsetMs, 0);
    assert.equal(store.generation, generation + 1);
  });

  test('tells listeners about every change', () => {
    const store = new Store();
    let changes = 0;
    const stop = store.onChange(() => changes++);
    recordsOf(store).create('contact');
    store.clock.advance(1);
    store.reset();
    assert.equal(changes, 3);
    stop();
    recordsOf(store).create('contact');
    assert.equal(changes, 3);
  });

  test('toJSON / fromJSON round-trip through JSON text, clock offset included', () => {
    const store = new Store();
    recordsOf(store).create('deal', { default: { amount: 5 } });
    store.slice(idempotencySlice).put('k', {
      created_ms: store.clock.nowMs(),
      fingerprint: 'f',
      status: 201,
      headers: {},
      body: { ok: true },
    });
    store.clock.advance(90);
    const copy = new Store();
    copy.fromJSON(JSON.parse(JSON.stringify(store)));
    assert.deepEqual(copy.toJSON(), store.toJSON());
    assert.equal(recordsOf(copy).count('deal'), 1);
    assert.equal(copy.clock.offsetMs, 90_000);
  });

  test('keeps the data of slices not created yet, and hands it over on first use', () => {
    const store = new Store();
    store.fromJSON({ clock_offset_ms: 0, slices: { later: { n: 3 } } });
    assert.deepEqual(store.toJSON().slices['later'], { n: 3 });
    class Counter implements Slice {
      n = 0;
      reset() {
        this.n = 0;
      }
      isEmpty() {
        return this.n === 0;
      }
      toJSON() {
        return { n: this.n };
      }
      load(data: unknown) {
        this.n = (data as { n: number }).n;
      }
    }
    const later = defineSlice('later', () => new Counter());
    assert.equal(store.slice(later).n, 3);
  });

  test('fromJSON with a broken slice throws and keeps the current state', () => {
    const store = new Store();
    recordsOf(store).create('contact');
    const before = store.toJSON();
    assert.throws(
      () => store.fromJSON({ clock_offset_ms: 0, slices: { records: { contact: 'nope' } } }),
      SnapshotError,
    );
    assert.deepEqual(store.toJSON(), before);
    assert.throws(() => store.fromJSON({ slices: {} }), /clock_offset_ms/);
  });

  test('two slice definitions with the same name are a programming error', () => {
    const store = new Store();
    recordsOf(store);
    const clash = defineSlice('records', () => recordsOf(new Store()));
    assert.throws(() => store.slice(clash), /share the name 'records'/);
  });
});
