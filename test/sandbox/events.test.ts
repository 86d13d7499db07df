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
interface State {
  version: number;
  default: Record<string, unknown>;
  deleted: boolean;
}

function state(record: Readonly<StoredRecord>): State {
  return { version: record.version, default: record.default, deleted: record.deleted_at !== null };
}

/** A record's expected state in an event. */
function at(version: number, values: Record<string, unknown>, deleted = false): State {
  return { version, default: values, deleted };
}

/** An event as the tests compare it: `[type, objectType, id, source, before, after]`. */
type Brief = [RecordEvent['type'], string, string, RecordEvent['source'], State | null, State];

function brief(event: RecordEvent): Brief {
  const before = event.before === null ? null : state(event.before);
  return [event.type, event.objectType, event.id, event.source, before, state(event.after)];
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
      ['record.created', 'contact', ada.id, 'create', null, at(1, { name: 'Ada', score: 3 })],
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
    assert.deepEqual(brief(patched!), [
      'record.updated',
      'contact',
      ada.id,
      'patch',
      at(1, { name: 'Ada' }),
      at(2, { name: 'Ada L' }),
    ]);

    const same = ok(
      await api.req('PATCH', `contact/${ada.id}`, { body: { default: { name: 'Ada L' } } }),
    );
    assert.equal(same.headers['etag'], '"v2"', 'nothing changed');
    assert.deepEqual(api.take(), []);

    // The event holds copies: a later write does not change what it said.
    ok(await api.req('PATCH', `contact/${ada.id}`, { body: { default: { name: 'Later' } } }));
    assert.deepEqual(patched!.after.default, { name: 'Ada L' });
    assert.deepEqual([patched!.before?.version, patched!.after.version], [1, 2]);
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
      [
        'record.created',
        'contact',
        created.id,
        'upsert',
        null,
        at(1, { name: 'Ada', email: 'ada@x.example' }),
      ],
      [
        'record.updated',
        'contact',
        created.id,
        'upsert',
        at(1, { name: 'Ada', email: 'ada@x.example' }),
        at(2, { name: 'Ada L', email: 'ada@x.example' }),
      ],
    ]);
  });

  test('duplicate: record.created for the copy only', async (t) => {
    const api = await listened(t);
    const deal = await api.create('deal', { name: 'Big one', amount: 10 });
    api.take();
    const copy = ok(await api.req('POST', `deal/${deal.id}/duplicate`), 201).body;
    assert.notEqual(copy.id, deal.id);
    assert.deepEqual(api.take().map(brief), [
      [
        'record.created',
        'deal',
        copy.id,
        'duplicate',
        null,
        at(1, { name: 'Big one', amount: 10 }),
      ],
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
      ['record.deleted', 'contact', ada.id, 'delete', at(1, values), at(2, values, true)],
      ['record.restored', 'contact', ada.id, 'restore', at(2, values, true), at(3, values)],
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
      [
        'record.updated',
        'contact',
        a.id,
        'batch_update',
        at(1, { name: 'A' }),
        at(2, { name: 'A2' }),
      ],
    ]);

    const deleted = ok(
      await api.req('POST', 'contact/batch/delete', { body: { ids: [a.id, c.id, missing] } }),
    ).body;
    assert.deepEqual(deleted.summary, { total: 3, succeeded: 2, failed: 1 });
    assert.deepEqual(api.take().map(brief), [
      [
        'record.deleted',
        'contact',
        a.id,
        'batch_delete',
        at(2, { name: 'A2' }),
        at(3, { name: 'A2' }, true),
      ],
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
      [
        'record.updated',
        'contact',
        ada.id,
        'import',
        at(1, { name: 'Ada', email: 'ada@x.example' }),
        at(2, { name: 'Ada Lovelace', email: 'ada@x.example' }),
      ],
      [
        'record.created',
        'contact',
        job.results[2].id,
        'import',
        null,
        at(1, { name: 'Cleo', email: 'cleo@x.example' }),
      ],
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
