// The event spine (src/sandbox/events.ts), driven over real HTTP with a subscriber on the
// store: every record write path of the API emits exactly one event per record it changed,
// with the record before and after, the object type, the team and the operation; a write
// that changes nothing emits nothing; properties announce their changes; reset, seed and
// snapshot loads emit nothing; a failing listener does not undo the write. Then the bus
// itself: emission order with reactions that write, unsubscribing, checks.

import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { defineCheck, defineEvent, EventBus } from '../../src/sandbox/events.ts';
import {
  type PropertyEvent,
  propertyEvents,
} from '../../src/sandbox/resources/properties/events.ts';
import type {
  PropertyDefinition,
  PropertyOption,
} from '../../src/sandbox/resources/properties/types.ts';
import { type RecordEvent, recordEvents } from '../../src/sandbox/resources/records/events.ts';
import type { StoredRecord } from '../../src/sandbox/resources/records/types.ts';
import { type Answer, call, prism, startFor } from './helpers.ts';
import { type RecordsApi, recordsApi } from './records-api.ts';

/** A records sandbox with a subscriber to record events; take() hands over what it heard. */
async function listened(t: TestContext): Promise<RecordsApi & { take(): RecordEvent[] }> {
  const api = await recordsApi(t);
  const heard: RecordEvent[] = [];
  api.sandbox.store.events.on(recordEvents, (event) => heard.push(event));
  return { ...api, take: () => heard.splice(0) };
}

/** What a test compares of a record in an event. */
function state(record: Readonly<StoredRecord>) {
  return {
    version: record.version,
    default: record.default,
    deleted: record.deleted_at !== null,
  };
}

function brief(event: RecordEvent) {
  return {
    type: event.type,
    objectType: event.objectType,
    id: event.id,
    source: event.source,
    before: event.before === null ? null : state(event.before),
    after: state(event.after),
  };
}

/** How the property tests name a definition (its name) or an option (its value). */
function label(what: PropertyDefinition | PropertyOption | null): string | null {
  if (what === null) return null;
  return 'value' in what ? what.value : what.name;
}

function ok(answer: Answer, status = 200): Answer {
  assert.equal(answer.status, status, answer.text);
  return answer;
}

describe('record events: one per changed record, on every write path', () => {
  test('create: record.created, before null, after the new record', async (t) => {
    const api = await listened(t);
    const ada = ok(
      await api.req('POST', 'contact', { body: { default: { name: 'Ada', score: 3 } } }),
      201,
    ).body;
    const events = api.take();
    assert.deepEqual(events.map(brief), [
      {
        type: 'record.created',
        objectType: 'contact',
        id: ada.id,
        source: 'create',
        before: null,
        after: { version: 1, default: { name: 'Ada', score: 3 }, deleted: false },
      },
    ]);
    assert.equal(events[0]!.teamId, api.teamId);
  });

  test('patch: record.updated with before and after; a patch that changes nothing emits nothing', async (t) => {
    const api = await listened(t);
    const ada = await api.create('contact', { name: 'Ada' });
    api.take();
    ok(await api.req('PATCH', `contact/${ada.id}`, { body: { default: { name: 'Ada L' } } }));
    const [patched, ...more] = api.take();
    assert.deepEqual(more, []);
    assert.deepEqual(brief(patched!), {
      type: 'record.updated',
      objectType: 'contact',
      id: ada.id,
      source: 'patch',
      before: { version: 1, default: { name: 'Ada' }, deleted: false },
      after: { version: 2, default: { name: 'Ada L' }, deleted: false },
    });

    const same = ok(
      await api.req('PATCH', `contact/${ada.id}`, { body: { default: { name: 'Ada L' } } }),
    );
    assert.equal(same.headers['etag'], '"v2"', 'nothing changed');
    assert.deepEqual(api.take(), []);

    // The event holds copies: a later write does not change what it said.
    ok(await api.req('PATCH', `contact/${ada.id}`, { body: { default: { name: 'Later' } } }));
    assert.deepEqual(patched!.after.default, { name: 'Ada L' });
    assert.deepEqual([patched!.before.version, patched!.after.version], [1, 2]);
  });

  test('upsert by value: record.created when none matches, record.updated when one does', async (t) => {
    const api = await listened(t);
    const created = ok(
      await api.req('PUT', 'contact/by/email/ada@x.example', {
        body: { default: { name: 'Ada' } },
      }),
      201,
    ).body;
    const patched = ok(
      await api.req('PUT', 'contact/by/email/ada@x.example', {
        body: { default: { name: 'Ada L' } },
      }),
    ).body;
    assert.equal(patched.id, created.id);
    assert.deepEqual(api.take().map(brief), [
      {
        type: 'record.created',
        objectType: 'contact',
        id: created.id,
        source: 'upsert',
        before: null,
        after: { version: 1, default: { name: 'Ada', email: 'ada@x.example' }, deleted: false },
      },
      {
        type: 'record.updated',
        objectType: 'contact',
        id: created.id,
        source: 'upsert',
        before: { version: 1, default: { name: 'Ada', email: 'ada@x.example' }, deleted: false },
        after: { version: 2, default: { name: 'Ada L', email: 'ada@x.example' }, deleted: false },
      },
    ]);
  });

  test('duplicate: record.created for the copy only', async (t) => {
    const api = await listened(t);
    const deal = await api.create('deal', { name: 'Big one', amount: 10 });
    api.take();
    const copy = ok(await api.req('POST', `deal/${deal.id}/duplicate`), 201).body;
    assert.notEqual(copy.id, deal.id);
    assert.deepEqual(api.take().map(brief), [
      {
        type: 'record.created',
        objectType: 'deal',
        id: copy.id,
        source: 'duplicate',
        before: null,
        after: { version: 1, default: { name: 'Big one', amount: 10 }, deleted: false },
      },
    ]);
  });

  test('delete and restore: one event each; deleting a deleted record, or restoring an active one, emits nothing', async (t) => {
    const api = await listened(t);
    const ada = await api.create('contact', { name: 'Ada' });
    api.take();
    ok(await api.req('DELETE', `contact/${ada.id}`), 204);
    ok(await api.req('DELETE', `contact/${ada.id}`), 204);
    ok(await api.req('POST', `contact/${ada.id}/restore`));
    ok(await api.req('POST', `contact/${ada.id}/restore`));
    const values = { name: 'Ada' };
    assert.deepEqual(api.take().map(brief), [
      {
        type: 'record.deleted',
        objectType: 'contact',
        id: ada.id,
        source: 'delete',
        before: { version: 1, default: values, deleted: false },
        after: { version: 2, default: values, deleted: true },
      },
      {
        type: 'record.restored',
        objectType: 'contact',
        id: ada.id,
        source: 'restore',
        before: { version: 2, default: values, deleted: true },
        after: { version: 3, default: values, deleted: false },
      },
    ]);
  });

  test('batch update and batch delete: one event per item that changed a record', async (t) => {
    const api = await listened(t);
    const [a, b, c] = [
      await api.create('contact', { name: 'A' }),
      await api.create('contact', { name: 'B' }),
      await api.create('contact', { name: 'C' }),
    ];
    ok(await api.req('DELETE', `contact/${c.id}`), 204);
    api.take();
    const missing = '99999999-9999-4999-8999-999999999999';
    const updated = ok(
      await api.req('POST', 'contact/batch/update', {
        body: {
          items: [
            { id: a.id, default: { name: 'A2' } },
            { id: b.id, default: { name: 'B' } },
            { id: missing, default: { name: 'X' } },
          ],
        },
      }),
    ).body;
    assert.deepEqual(updated.summary, { total: 3, succeeded: 2, failed: 1 });
    assert.deepEqual(api.take().map(brief), [
      {
        type: 'record.updated',
        objectType: 'contact',
        id: a.id,
        source: 'batch_update',
        before: { version: 1, default: { name: 'A' }, deleted: false },
        after: { version: 2, default: { name: 'A2' }, deleted: false },
      },
    ]);

    const deleted = ok(
      await api.req('POST', 'contact/batch/delete', { body: { ids: [a.id, c.id, missing] } }),
    ).body;
    assert.deepEqual(deleted.summary, { total: 3, succeeded: 2, failed: 1 });
    assert.deepEqual(api.take().map(brief), [
      {
        type: 'record.deleted',
        objectType: 'contact',
        id: a.id,
        source: 'batch_delete',
        before: { version: 2, default: { name: 'A2' }, deleted: false },
        after: { version: 3, default: { name: 'A2' }, deleted: true },
      },
    ]);
  });

  test('synchronous import: record.created per new row, record.updated per row that changed its dedupe match', async (t) => {
    const api = await listened(t);
    const ada = await api.create('contact', { name: 'Ada', email: 'ada@x.example' });
    const bob = await api.create('contact', { name: 'Bob', email: 'bob@x.example' });
    api.take();
    const job = ok(
      await api.req('POST', 'contact/import', {
        body: {
          objects: [
            { default: { name: 'Ada Lovelace', email: 'ada@x.example' } },
            { default: { name: 'Bob', email: 'bob@x.example' } },
            { default: { name: 'Cleo', email: 'cleo@x.example' } },
            { default: { name: 'Dan', score: 'high' } },
          ],
          options: { dedupe_by: 'email' },
        },
      }),
    ).body;
    assert.deepEqual(
      job.results.map((r: { existing: boolean; updated: boolean; created: boolean }) => [
        r.existing,
        r.updated,
        r.created,
      ]),
      [
        [true, true, false],
        [true, false, false],
        [false, false, true],
        [false, false, false],
      ],
    );
    assert.equal(job.results[1].id, bob.id);
    assert.deepEqual(api.take().map(brief), [
      {
        type: 'record.updated',
        objectType: 'contact',
        id: ada.id,
        source: 'import',
        before: { version: 1, default: { name: 'Ada', email: 'ada@x.example' }, deleted: false },
        after: {
          version: 2,
          default: { name: 'Ada Lovelace', email: 'ada@x.example' },
          deleted: false,
        },
      },
      {
        type: 'record.created',
        objectType: 'contact',
        id: job.results[2].id,
        source: 'import',
        before: null,
        after: { version: 1, default: { name: 'Cleo', email: 'cleo@x.example' }, deleted: false },
      },
    ]);
  });

  test('import job: one record.created per row, in row order, as the job runs', async (t) => {
    const api = await listened(t);
    const objects = Array.from({ length: 150 }, (_, i) => ({ default: { name: `P${i}` } }));
    const started = ok(await api.req('POST', 'contact/import', { body: { objects } }), 202);
    let job = started.body;
    while (job.status === 'processing') {
      await new Promise((resolve) => setImmediate(resolve));
      job = ok(await call(api.sandbox, 'GET', started.headers['location']!)).body;
    }
    assert.equal(job.status, 'complete');
    const events = api.take();
    assert.deepEqual(
      events.map((e) => [e.type, e.source, e.before, e.after.default['name']]),
      objects.map((o) => ['record.created', 'import', null, o.default.name]),
    );
    assert.deepEqual(
      events.map((e) => e.id),
      job.results.map((r: { id: string }) => r.id),
    );
    assert.ok(events.every((e) => e.teamId === api.teamId && e.objectType === 'contact'));
  });

  test('reset (with the demo seed) and loading a snapshot emit no record event', async (t) => {
    const api = await listened(t);
    await api.create('contact', { name: 'Ada' });
    api.take();
    ok(await call(api.sandbox, 'POST', '/__sandbox/reset', { body: { seed: 'demo' } }), 204);
    api.sandbox.store.fromJSON(api.sandbox.store.toJSON());
    assert.deepEqual(api.take(), []);
  });
});

describe('a listener that fails', () => {
  test('does not undo the write nor stop the other listeners; its error goes to the log', async (t) => {
    const lines: string[] = [];
    const sandbox = await startFor(t, { log: (line) => lines.push(line) });
    const heard: string[] = [];
    sandbox.store.events.on(recordEvents, () => {
      throw new Error('listener broke');
    });
    sandbox.store.events.on(recordEvents, (event) => heard.push(event.id));
    const created = await call(sandbox, 'POST', prism(sandbox, 'contact'), {
      body: { default: { name: 'Ada' } },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(heard, [created.body.id]);
    assert.equal(
      (await call(sandbox, 'GET', prism(sandbox, `contact/${created.body.id}`))).status,
      200,
    );
    const failures = lines.filter((line) => line.includes('a listener of record events failed'));
    assert.equal(failures.length, 1, lines.join('\n'));
    assert.match(failures[0]!, /the change stands.*listener broke/s);
  });
});

describe('property events', () => {
  test('definitions and options announce create, update and delete with copies before and after', async (t) => {
    const api = await recordsApi(t);
    const heard: PropertyEvent[] = [];
    api.sandbox.store.events.on(propertyEvents, (event) => heard.push(event));
    const def = ok(
      await api.req('POST', 'deal/properties', { body: { name: 'Region', type: 'select_str' } }),
      201,
    ).body;
    ok(
      await api.req('PATCH', `deal/properties/${def.id}`, {
        body: { type: 'select_str', name: 'Area' },
      }),
    );
    const north = ok(
      await api.req('POST', `deal/properties/${def.id}/options`, {
        body: { type: 'select_str', value: 'North' },
      }),
      201,
    ).body;
    ok(
      await api.req('PATCH', `deal/properties/${def.id}/options/${north.id}`, {
        body: { type: 'select_str', value: 'Nord' },
      }),
    );
    ok(
      await api.req('DELETE', `deal/properties/${def.id}/options/${north.id}?type=select_str`),
      204,
    );
    ok(await api.req('DELETE', `deal/properties/${def.id}?type=select_str`), 204);

    assert.deepEqual(
      heard.map((e) => [
        e.type,
        e.teamId === api.teamId && e.objectType === 'deal',
        label(e.before),
        label(e.after),
      ]),
      [
        ['property.created', true, null, 'Region'],
        ['property.updated', true, 'Region', 'Area'],
        ['option.created', true, null, 'North'],
        ['option.updated', true, 'North', 'Nord'],
        ['option.deleted', true, 'Nord', null],
        ['property.deleted', true, 'Area', null],
      ],
    );
    const optionCreated = heard[2]!;
    assert.ok(optionCreated.type === 'option.created');
    assert.deepEqual(
      optionCreated.property.options?.map((o) => o.value),
      ['North'],
      'the definition as it was right after the change, not as it is now',
    );
  });

  test('a definition a view uses: views refuse its deletion (409) before anything changed', async (t) => {
    const api = await recordsApi(t);
    const heard: PropertyEvent[] = [];
    api.sandbox.store.events.on(propertyEvents, (event) => heard.push(event));
    const def = ok(
      await api.req('POST', 'deal/properties', { body: { name: 'Region', type: 'str' } }),
      201,
    ).body;
    ok(
      await api.req('POST', 'deal/views', {
        body: { name: 'By region', view_type: 'grid', select: ['name', 'region'] },
      }),
      201,
    );
    heard.length = 0;
    const refused = await api.req('DELETE', `deal/properties/${def.id}?type=str`);
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.body.error.message, /cannot be deleted: the view 'By region'/);
    assert.deepEqual(heard, []);
    assert.ok(ok(await api.req('GET', 'deal/properties')).body.deal[def.id]);
  });
});

describe('the bus', () => {
  const told = defineEvent<string>('told');
  const asked = defineCheck<string>('asked');

  test('delivers events in emission order: an event a listener emits waits for the one being delivered', () => {
    const bus = new EventBus();
    const log: string[] = [];
    bus.on(told, (what) => {
      log.push(`first heard ${what}`);
      if (what === 'write') bus.emit(told, 'reaction');
    });
    bus.on(told, (what) => log.push(`second heard ${what}`));
    bus.emit(told, 'write');
    assert.deepEqual(log, [
      'first heard write',
      'second heard write',
      'first heard reaction',
      'second heard reaction',
    ]);
  });

  test('listening() says whether anyone listens; an unsubscribed listener hears nothing', () => {
    const bus = new EventBus();
    const heard: string[] = [];
    assert.equal(bus.listening(told), false);
    const off = bus.on(told, (what) => heard.push(what));
    assert.equal(bus.listening(told), true);
    bus.emit(told, 'one');
    off();
    bus.emit(told, 'two');
    assert.equal(bus.listening(told), false);
    assert.deepEqual(heard, ['one']);
  });

  test("a listener's error goes to the handler; a check's error refuses", () => {
    const errors: string[] = [];
    const bus = new EventBus({
      onListenerError: (error, topic) => errors.push(`${topic}: ${(error as Error).message}`),
    });
    const heard: string[] = [];
    bus.on(told, () => {
      throw new Error('broken');
    });
    bus.on(told, (what) => heard.push(what));
    bus.emit(told, 'news');
    assert.deepEqual([errors, heard], [['told: broken'], ['news']]);

    bus.on(asked, (what) => {
      if (what === 'no') throw new Error('refused');
    });
    bus.check(asked, 'yes');
    assert.throws(() => bus.check(asked, 'no'), /refused/);
  });
});
