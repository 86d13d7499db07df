import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { ObjectType } from '../../src/sandbox/object-types.ts';
import {
  importsOf,
  JOB_RETENTION_MS,
  SYNC_LIMIT,
} from '../../src/sandbox/resources/imports/model.ts';
import { propertiesOf } from '../../src/sandbox/resources/properties/model.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/sandbox.ts';
import { mulberry32 } from '../../src/sandbox/seed.ts';
import { SnapshotError, Store } from '../../src/sandbox/store.ts';
import { startTestSandbox } from '../helpers/sandbox.ts';
import { type Answer, call, prism, tempDir } from './helpers.ts';

/** A sandbox whose every answer is checked against the contract when the test ends. */
async function start(t: TestContext, options: SandboxOptions = {}): Promise<RunningSandbox> {
  const test = await startTestSandbox(options);
  t.after(() => test.stop());
  return test.sandbox;
}

type Row = { default?: Record<string, unknown>; list?: unknown };

function contacts(n: number, from = 0): Row[] {
  return Array.from({ length: n }, (_, i) => ({
    default: { name: `Person ${from + i}`, email: `p${from + i}@x.example` },
  }));
}

function importRows(
  sandbox: RunningSandbox,
  objects: Row[],
  options?: Record<string, unknown>,
  extra: { key?: string; type?: string } = {},
): Promise<Answer> {
  return call(sandbox, 'POST', prism(sandbox, `${extra.type ?? 'contact'}/import`), {
    body: options === undefined ? { objects } : { objects, options },
    headers: extra.key === undefined ? {} : { 'idempotency-key': extra.key },
  });
}

/** Poll `location` until the job stops processing; returns every `processed` seen, and the end. */
async function poll(
  sandbox: RunningSandbox,
  location: string,
): Promise<{ seen: number[]; job: Answer['body'] }> {
  const seen: number[] = [];
  for (let i = 0; i < 5000; i++) {
    const answer = await call(sandbox, 'GET', location);
    assert.equal(answer.status, 200, answer.text);
    seen.push(answer.body.processed);
    if (answer.body.status !== 'processing') return { seen, job: answer.body };
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`job ${location} still processing after 5000 polls`);
}

function count(sandbox: RunningSandbox, type: ObjectType = 'contact'): number {
  return recordsOf(sandbox.store).count(type);
}

describe('POST /v2/prism/{teamId}/{objectType}/import, synchronous (fewer than 100 objects)', () => {
  test('99 objects: 200 with the finished job, job_id null and every row result inline', async (t) => {
    const sandbox = await start(t);
    const answer = await importRows(sandbox, contacts(SYNC_LIMIT - 1));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['location'], undefined);
    const job = answer.body;
    assert.equal(job.job_id, null);
    assert.equal(job.status, 'complete');
    assert.deepEqual([job.total, job.processed, job.succeeded, job.failed], [99, 99, 99, 0]);
    assert.equal(job.expires_at, null);
    assert.equal(job.created_at, job.updated_at);
    assert.equal(job.error, undefined);
    assert.equal(job.results.length, 99);
    for (const [i, row] of job.results.entries()) {
      assert.deepEqual(Object.keys(row).sort(), [
        'created',
        'existing',
        'id',
        'input_index',
        'updated',
      ]);
      assert.equal(row.input_index, i);
      assert.equal(row.created, true);
      assert.equal(row.existing, false);
      assert.equal(row.updated, false);
      const record = recordsOf(sandbox.store).get('contact', row.id);
      assert.deepEqual(record?.default, { name: `Person ${i}`, email: `p${i}@x.example` });
    }
    assert.equal(count(sandbox), 99);
  });

  test('an empty import is a finished job with no rows', async (t) => {
    const sandbox = await start(t);
    const answer = await importRows(sandbox, []);
    assert.equal(answer.status, 200);
    assert.deepEqual(
      [answer.body.status, answer.body.total, answer.body.results],
      ['complete', 0, []],
    );
  });

  test('values are stored as a record create stores them (select ids become slugs)', async (t) => {
    const sandbox = await start(t);
    const status = propertiesOf(sandbox.store).bySlug(sandbox.teamId, 'contact', 'status')!;
    const customer = status.options!.find((o) => o.slug === 'customer')!;
    const answer = await importRows(sandbox, [
      { default: { name: 'Ada', status: customer.id, score: 7, birthday: '1815-12-10' } },
    ]);
    const id = answer.body.results[0].id;
    assert.deepEqual(recordsOf(sandbox.store).get('contact', id)?.default, {
      name: 'Ada',
      status: 'customer',
      score: 7,
      birthday: '1815-12-10',
    });
  });
});

describe('POST …/import, asynchronous (100 objects or more)', () => {
  test('100 objects: 202 processing with Location, then complete with every row in input order', async (t) => {
    const sandbox = await start(t);
    const answer = await importRows(sandbox, contacts(100));
    assert.equal(answer.status, 202);
    const job = answer.body;
    assert.match(job.job_id, /^imp_[0-9a-f]{24}$/);
    assert.equal(answer.headers['location'], prism(sandbox, `imports/${job.job_id}`));
    assert.equal(job.status, 'processing');
    assert.deepEqual([job.total, job.processed, job.succeeded, job.failed], [100, 0, 0, 0]);
    assert.equal(job.results, undefined);
    assert.equal(
      Date.parse(job.expires_at) - Date.parse(job.created_at),
      JOB_RETENTION_MS,
      'expires 7 days after creation',
    );

    const { job: done } = await poll(sandbox, answer.headers['location']!);
    assert.equal(done.job_id, job.job_id);
    assert.equal(done.status, 'complete');
    assert.deepEqual([done.processed, done.succeeded, done.failed], [100, 100, 0]);
    assert.equal(done.created_at, job.created_at);
    assert.equal(done.expires_at, job.expires_at);
    assert.deepEqual(
      done.results.map((r: { input_index: number }) => r.input_index),
      [...Array(100).keys()],
    );
    const names = done.results.map(
      (r: { id: string }) => recordsOf(sandbox.store).get('contact', r.id)?.default['name'],
    );
    assert.deepEqual(
      names,
      contacts(100).map((row) => row.default!['name']),
    );
    assert.equal(count(sandbox), 100);
  });

  test('5,000 objects: polling sees processed grow in steps, then complete with 5,000 results', async (t) => {
    const sandbox = await start(t);
    const answer = await importRows(sandbox, contacts(5000));
    assert.equal(answer.status, 202);
    const { seen, job } = await poll(sandbox, answer.headers['location']!);
    assert.ok(
      seen.some((n) => n > 0 && n < 5000),
      `a poll saw the job part done (seen: ${seen.join(' ')})`,
    );
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! >= seen[i - 1]!, 'never shrinks');
    assert.equal(job.status, 'complete');
    assert.deepEqual([job.processed, job.succeeded, job.failed], [5000, 5000, 0]);
    assert.equal(job.results.length, 5000);
    assert.ok(job.results.every((r: { input_index: number }, i: number) => r.input_index === i));
    assert.equal(new Set(job.results.map((r: { id: string }) => r.id)).size, 5000);
    assert.equal(count(sandbox), 5000);
  });

  test('an unknown job id: 404 saying so', async (t) => {
    const sandbox = await start(t);
    const answer = await call(sandbox, 'GET', prism(sandbox, 'imports/imp_nope'));
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error.code, 'not_found');
    assert.match(answer.body.error.message, /^No import job has the id imp_nope\./);
  });

  test('a reset while a job runs stops its work and forgets it', async (t) => {
    const sandbox = await start(t);
    const answer = await importRows(sandbox, contacts(5000));
    const reset = await call(sandbox, 'POST', '/__sandbox/reset');
    assert.equal(reset.status, 204);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(count(sandbox), 0, 'no row imported after the reset');
    const gone = await call(sandbox, 'GET', answer.headers['location']!);
    assert.equal(gone.status, 404);
  });

  test('the job expires 7 days after creation (sandbox clock): then 404 saying it expired', async (t) => {
    const sandbox = await start(t);
    const answer = await importRows(sandbox, contacts(150));
    const location = answer.headers['location']!;
    await poll(sandbox, location);
    const advance = (seconds: number) =>
      call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { seconds } });
    await advance(JOB_RETENTION_MS / 1000 - 60);
    assert.equal((await call(sandbox, 'GET', location)).status, 200, 'a minute before expiry');
    await advance(60);
    const expired = await call(sandbox, 'GET', location);
    assert.equal(expired.status, 404);
    assert.equal(expired.body.error.code, 'not_found');
    assert.equal(
      expired.body.error.message,
      `The import job ${answer.body.job_id} expired at ${answer.body.expires_at}: jobs are kept for 7 days after their creation. Its records stay; import again to get a new job.`,
    );
    assert.equal(count(sandbox), 150, 'the records stay');
    // The expired job's rows are gone from the store; only its id is remembered.
    assert.deepEqual(importsOf(sandbox.store).toJSON().jobs, []);
  });
});

describe('row failures fail only their row', () => {
  async function withRequired(t: TestContext) {
    const sandbox = await start(t);
    propertiesOf(sandbox.store).create(sandbox.teamId, 'organization', {
      name: 'Registry number',
      slug: 'registry',
      type: 'str',
      required: true,
    });
    return sandbox;
  }

  const bad: Row[] = [
    { default: { registry: 'R1', name: 'Good' } },
    { default: { registry: 'R2', employees: 'many' } },
    { default: { name: 'No registry' } },
    { default: { registry: 'R4', colour: 'teal' } },
    { default: { registry: '   ' } },
    { default: { registry: 'R6', founded: '2024-02-30' } },
    { default: { registry: 'R7', industry: 'Mining' } },
  ];
  const expected = [
    undefined,
    ['type', /default\.employees: must be a number, got the string "many"/],
    ['required', /default\.registry: registry is required/],
    ['unknown_property', /default\.colour: organization has no property 'colour'/],
    ['required', /default\.registry/],
    ['format', /'2024-02-30' is not an ISO-8601 date/],
    ['unknown_option', /'Mining' is not an option of industry/],
  ] as const;

  function check(results: { error?: { code: string; message: string }; id: string | null }[]) {
    assert.equal(results.length, bad.length);
    for (const [i, want] of expected.entries()) {
      const row = results[i]!;
      if (want === undefined) {
        assert.equal(row.error, undefined, `row ${i} imported`);
        assert.equal(typeof row.id, 'string');
        continue;
      }
      assert.equal(row.error?.code, want[0], `row ${i}: ${row.error?.message}`);
      assert.match(row.error!.message, want[1]);
      assert.equal(row.id, null);
    }
  }

  test('synchronous: type, required, unknown property, date format and option errors', async (t) => {
    const sandbox = await withRequired(t);
    const answer = await importRows(sandbox, bad, undefined, { type: 'organization' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'complete');
    assert.deepEqual([answer.body.succeeded, answer.body.failed], [1, 6]);
    check(answer.body.results);
    assert.equal(count(sandbox, 'organization'), 1);
  });

  test('asynchronous: the same rows among 200 fail alone; the job still completes', async (t) => {
    const sandbox = await withRequired(t);
    const filler: Row[] = Array.from({ length: 193 }, (_, i) => ({
      default: { registry: `F${i}` },
    }));
    const answer = await importRows(sandbox, [...bad, ...filler], undefined, {
      type: 'organization',
    });
    assert.equal(answer.status, 202);
    const { job } = await poll(sandbox, answer.headers['location']!);
    assert.equal(job.status, 'complete');
    assert.deepEqual([job.processed, job.succeeded, job.failed], [200, 194, 6]);
    check(job.results.slice(0, bad.length));
    assert.equal(count(sandbox, 'organization'), 194);
  });
});

describe('dedupe_by', () => {
  test('a matching row patches the record: existing, updated only when a value changed', async (t) => {
    const sandbox = await start(t);
    const records = recordsOf(sandbox.store);
    const ada = records.create('contact', { default: { name: 'Ada', email: 'ada@x.example' } });
    const bob = records.create('contact', { default: { name: 'Bob', email: 'bob@x.example' } });
    const answer = await importRows(
      sandbox,
      [
        { default: { email: 'ada@x.example', name: 'Ada' } },
        { default: { email: 'bob@x.example', name: 'Robert' } },
        { default: { email: 'cy@x.example', name: 'Cy' } },
        { default: { email: 'cy@x.example', city: 'Paris' } },
        { default: { email: 'ADA@x.example', name: 'Other Ada' } },
        { default: { name: 'No email' } },
      ],
      { dedupe_by: 'email' },
    );
    assert.equal(answer.status, 200);
    const results = answer.body.results;
    const flags = results.map((r: Record<string, unknown>) => [r.created, r.existing, r.updated]);
    assert.deepEqual(flags, [
      [false, true, false],
      [false, true, true],
      [true, false, false],
      [false, true, true],
      [true, false, false],
      [true, false, false],
    ]);
    assert.equal(results[0].id, ada.id);
    assert.equal(results[1].id, bob.id);
    assert.equal(
      results[3].id,
      results[2].id,
      'a later row matches a record an earlier row created',
    );
    assert.equal(records.get('contact', ada.id)?.version, 1, 'an unchanged row does not touch it');
    assert.deepEqual(records.get('contact', bob.id)?.default, {
      name: 'Robert',
      email: 'bob@x.example',
    });
    assert.deepEqual(records.get('contact', results[2].id)?.default, {
      name: 'Cy',
      email: 'cy@x.example',
      city: 'Paris',
    });
    assert.equal(count(sandbox), 5);
  });

  test('caseInsensitive: values match ignoring case, and the record keeps its spelling', async (t) => {
    const sandbox = await start(t);
    const records = recordsOf(sandbox.store);
    const ada = records.create('contact', { default: { name: 'Ada', email: 'ada@x.example' } });
    const answer = await importRows(
      sandbox,
      [
        { default: { email: 'ADA@X.example', name: 'Ada' } },
        { default: { email: 'Ada@x.Example', title: 'Countess' } },
        { default: { email: 'new@x.example' } },
        { default: { email: 'NEW@X.EXAMPLE' } },
      ],
      { dedupe_by: 'email', caseInsensitive: true },
    );
    const results = answer.body.results;
    assert.deepEqual(
      results.map((r: Record<string, unknown>) => [r.id === ada.id, r.existing, r.updated]),
      [
        [true, true, false],
        [true, true, true],
        [false, false, false],
        [false, true, false],
      ],
    );
    assert.deepEqual(records.get('contact', ada.id)?.default, {
      name: 'Ada',
      email: 'ada@x.example',
      title: 'Countess',
    });
    assert.equal(count(sandbox), 2);
  });

  test('a value that matches several records fails its row with dedupe_conflict', async (t) => {
    const sandbox = await start(t);
    const records = recordsOf(sandbox.store);
    const one = records.create('contact', { default: { email: 'twin@x.example' } });
    const two = records.create('contact', { default: { email: 'twin@x.example' } });
    const gone = records.create('contact', { default: { email: 'gone@x.example' } });
    records.softDelete('contact', gone.id);
    const answer = await importRows(
      sandbox,
      [
        { default: { email: 'twin@x.example', name: 'T' } },
        { default: { email: 'gone@x.example' } },
      ],
      { dedupe_by: 'email' },
    );
    const [twin, revived] = answer.body.results;
    assert.equal(twin.error.code, 'dedupe_conflict');
    assert.equal(
      twin.error.message,
      `2 contact records have email = "twin@x.example" (${one.id}, ${two.id}), so the row cannot tell which to update. Merge or delete the duplicates, or dedupe by another property.`,
    );
    assert.equal(twin.id, null);
    assert.equal(revived.created, true, 'soft-deleted records are not matched');
  });

  test('asynchronous dedupe over 1,000 rows re-imported: every row existing, none created', async (t) => {
    const sandbox = await start(t);
    const first = await importRows(sandbox, contacts(1000), { dedupe_by: 'email' });
    await poll(sandbox, first.headers['location']!);
    const again = await importRows(sandbox, contacts(1000), { dedupe_by: 'email' });
    const { job } = await poll(sandbox, again.headers['location']!);
    assert.ok(job.results.every((r: Record<string, unknown>) => r.existing && !r.updated));
    assert.equal(count(sandbox), 1000);
  });

  test('consecutive imports see records written between them by others', async (t) => {
    const sandbox = await start(t);
    const records = recordsOf(sandbox.store);
    const options = { dedupe_by: 'email' };
    const first = await importRows(sandbox, contacts(150), options);
    const before = await poll(sandbox, first.headers['location']!);
    // Written outside the imports: a new record with a key; the record of p0 deleted.
    const other = records.create('contact', { default: { email: 'other@x.example' } });
    records.softDelete('contact', before.job.results[0].id);
    const rows = [
      { default: { email: 'other@x.example', name: 'Other' } },
      { default: { email: 'p0@x.example', name: 'Again' } },
      ...contacts(100, 1),
    ];
    const second = await importRows(sandbox, rows, options);
    const { job } = await poll(sandbox, second.headers['location']!);
    assert.deepEqual(
      job.results
        .slice(0, 3)
        .map((r: Record<string, unknown>) => [r.id === other.id, r.created, r.existing]),
      [
        [true, false, true],
        [false, true, false],
        [false, false, true],
      ],
    );
    // A synchronous import right after: matches what the asynchronous one created.
    const third = await importRows(sandbox, [{ default: { email: 'p0@x.example' } }], options);
    assert.equal(third.body.results[0].id, job.results[1].id);
    assert.equal(third.body.results[0].existing, true);
    assert.equal(count(sandbox), 151);
  });

  test('with list_id: records join the list, and the list’s own properties go to the list', async (t) => {
    const sandbox = await start(t);
    const list = crypto.randomUUID();
    propertiesOf(sandbox.store).create(sandbox.teamId, 'contact', {
      name: 'Ticket',
      slug: 'ticket',
      type: 'str',
      list_id: list,
    });
    const existing = recordsOf(sandbox.store).create('contact', {
      default: { email: 'old@x.example' },
    });
    const answer = await importRows(
      sandbox,
      [
        { default: { email: 'old@x.example', ticket: 'T-1' } },
        { default: { email: 'new@x.example', ticket: 'T-2' } },
      ],
      { dedupe_by: 'email', list_id: list },
    );
    const [old, created] = answer.body.results;
    assert.deepEqual([old.id, old.existing, old.updated], [existing.id, true, true]);
    assert.deepEqual(recordsOf(sandbox.store).get('contact', existing.id)?.lists, {
      [list]: { ticket: 'T-1' },
    });
    assert.deepEqual(recordsOf(sandbox.store).get('contact', created.id)?.lists, {
      [list]: { ticket: 'T-2' },
    });
    assert.equal(recordsOf(sandbox.store).count('contact', { listId: list }), 2);
  });
});

describe('job-level failure: dedupe_by names no property', () => {
  test('asynchronous: the job moves from processing to failed with unknown_dedupe_property', async (t) => {
    const sandbox = await start(t);
    const answer = await importRows(sandbox, contacts(120), { dedupe_by: 'mail' });
    assert.equal(answer.status, 202);
    assert.equal(answer.body.status, 'processing');
    const { job } = await poll(sandbox, answer.headers['location']!);
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'unknown_dedupe_property');
    assert.match(
      job.error.message,
      /^options\.dedupe_by names 'mail', but contact has no such property: no row was imported\./,
    );
    assert.deepEqual([job.processed, job.succeeded, job.failed, job.results], [0, 0, 0, []]);
    assert.equal(count(sandbox), 0);
  });

  test('synchronous: 200 with status failed, the error, and no row attempted', async (t) => {
    const sandbox = await start(t);
    const answer = await importRows(sandbox, contacts(3), { dedupe_by: 'mail' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'failed');
    assert.equal(answer.body.error.code, 'unknown_dedupe_property');
    assert.deepEqual(answer.body.results, []);
    assert.equal(count(sandbox), 0);
  });
});

describe('an internal error in the middle of an import', () => {
  /** Make the records model fail on its `n`th create from now (restored after the test). */
  function breakCreate(t: TestContext, sandbox: RunningSandbox, n: number): void {
    const records = recordsOf(sandbox.store);
    const create = records.create.bind(records);
    let calls = 0;
    records.create = (...args) => {
      if (++calls === n) throw new Error('disk on fire');
      return create(...args);
    };
    t.after(() => {
      records.create = create;
    });
  }

  test('synchronous: 200 failed with internal_error; the rows before it stay and are reported', async (t) => {
    const sandbox = await start(t);
    breakCreate(t, sandbox, 4);
    const answer = await importRows(sandbox, contacts(10));
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'failed');
    assert.equal(answer.body.error.code, 'internal_error');
    assert.match(
      answer.body.error.message,
      /^The import stopped at row 3 because of an internal error/,
    );
    assert.deepEqual(
      [answer.body.processed, answer.body.succeeded, answer.body.results.length],
      [3, 3, 3],
    );
    assert.equal(count(sandbox), 3);
  });

  test('asynchronous: the job fails with internal_error and its runner goes quiet', async (t) => {
    const sandbox = await start(t);
    breakCreate(t, sandbox, 701);
    const answer = await importRows(sandbox, contacts(1000));
    const { job } = await poll(sandbox, answer.headers['location']!);
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'internal_error');
    assert.deepEqual([job.processed, job.results.length], [700, 700]);
    assert.equal(count(sandbox), 700);
    assert.deepEqual(importsOf(sandbox.store).processing(), []);
  });
});

describe('requests refused at the door', () => {
  test('unknown options, misplaced row fields and more than 100,000 objects: 400', async (t) => {
    const sandbox = await start(t);
    const misspelt = await importRows(sandbox, contacts(1), { dedupeBy: 'email' });
    assert.equal(misspelt.status, 400);
    assert.equal(misspelt.body.error.errors[0].field, 'body.options.dedupeBy');
    const misplaced = await call(sandbox, 'POST', prism(sandbox, 'contact/import'), {
      body: { objects: [{ name: 'Ada' }] },
    });
    assert.equal(misplaced.status, 400);
    const tooMany = await call(sandbox, 'POST', prism(sandbox, 'contact/import'), {
      body: { objects: Array.from({ length: 100_001 }, () => ({})) },
    });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.error.errors[0].field, 'body.objects');
    const unknownType = await importRows(sandbox, contacts(1), undefined, { type: 'widget' });
    assert.equal(unknownType.status, 404);
    assert.equal(count(sandbox), 0);
  });
});

describe('Idempotency-Key', () => {
  test('a synchronous import replayed: the same answer, no second record', async (t) => {
    const sandbox = await start(t);
    const first = await importRows(sandbox, contacts(10), undefined, { key: 'sync-1' });
    const again = await importRows(sandbox, contacts(10), undefined, { key: 'sync-1' });
    assert.equal(again.status, 200);
    assert.equal(again.headers['idempotent-replay'], 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(count(sandbox), 10);
  });

  test('an asynchronous import replayed while processing and after: the same job, never a second', async (t) => {
    const sandbox = await start(t);
    const first = await importRows(sandbox, contacts(3000), undefined, { key: 'async-1' });
    assert.equal(first.status, 202);
    const during = await importRows(sandbox, contacts(3000), undefined, { key: 'async-1' });
    assert.equal(during.status, 202);
    assert.equal(during.headers['idempotent-replay'], 'true');
    assert.equal(during.body.job_id, first.body.job_id);
    assert.equal(during.headers['location'], first.headers['location']);
    assert.equal(importsOf(sandbox.store).processing().length, 1, 'replayed while processing');
    const { job } = await poll(sandbox, first.headers['location']!);
    assert.equal(job.status, 'complete');
    const after = await importRows(sandbox, contacts(3000), undefined, { key: 'async-1' });
    assert.equal(after.body.job_id, first.body.job_id);
    assert.equal(importsOf(sandbox.store).toJSON().jobs.length, 1);
    assert.equal(count(sandbox), 3000);
  });

  test('the same key with other rows: 409 idempotency_key_mismatch, nothing imported', async (t) => {
    const sandbox = await start(t);
    await importRows(sandbox, contacts(200), undefined, { key: 'k' });
    const other = await importRows(sandbox, contacts(200, 1), undefined, { key: 'k' });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'idempotency_key_mismatch');
    assert.equal(importsOf(sandbox.store).toJSON().jobs.length, 1);
  });

  /**
   * Import `rows` in chunks as a careful client does through faults: one key per chunk, and
   * every call sent again with the same key until it is answered (a dropped connection or a
   * 5xx); async chunks polled to their end. Returns how many answers were replays.
   */
  async function importThroughFaults(
    sandbox: RunningSandbox,
    rows: Row[],
    chunkSize: number,
  ): Promise<{ replays: number; retries: number }> {
    let retries = 0;
    let replays = 0;
    async function untilAnswered(send: () => Promise<Answer>): Promise<Answer> {
      for (let attempt = 0; attempt < 100; attempt++) {
        const answer = await send().catch(() => undefined);
        if (answer !== undefined && answer.status < 500) return answer;
        retries++;
      }
      throw new Error('no answer after 100 attempts');
    }
    for (let from = 0; from < rows.length; from += chunkSize) {
      const chunk = rows.slice(from, from + chunkSize);
      const started = await untilAnswered(() =>
        importRows(sandbox, chunk, undefined, { key: `file-rows-${from}` }),
      );
      if (started.headers['idempotent-replay'] === 'true') replays++;
      assert.equal(started.status, chunk.length < SYNC_LIMIT ? 200 : 202, started.text);
      let job = started.body;
      while (job.status === 'processing') {
        await new Promise((resolve) => setTimeout(resolve, 5));
        job = (await untilAnswered(() => call(sandbox, 'GET', started.headers['location']!))).body;
      }
      assert.equal(job.status, 'complete');
      assert.equal(job.succeeded, chunk.length);
    }
    return { replays, retries };
  }

  function assertEachOnce(sandbox: RunningSandbox, rows: Row[]): void {
    assert.equal(count(sandbox), rows.length);
    const emails = [...recordsOf(sandbox.store).records('contact')].map((r) => r.default['email']);
    assert.equal(new Set(emails).size, rows.length, 'no duplicates');
  }

  test('fail_after_commit 0.3: retrying with the same key imports 2,000 rows exactly once', async (t) => {
    const sandbox = await start(t, { failAfterCommit: 0.3, random: mulberry32(20251122) });
    const rows = contacts(2000);
    const { replays } = await importThroughFaults(sandbox, rows, 500);
    assert.ok(replays > 0, 'an import committed, lost its answer, and was replayed on retry');
    assert.equal(importsOf(sandbox.store).toJSON().jobs.length, 4, 'one job per chunk');
    assertEachOnce(sandbox, rows);
  });

  test('fail_rate 0.1 and fail_after_commit 0.05: 20,000 rows become exactly 20,000 records', async (t) => {
    const sandbox = await start(t, {
      failRate: 0.1,
      failAfterCommit: 0.05,
      random: mulberry32(7),
    });
    const rows = contacts(20_000);
    // 8 asynchronous chunks of 2,490 rows and a synchronous one of 80.
    const { retries } = await importThroughFaults(sandbox, rows, 2490);
    assert.ok(retries > 0, 'some calls failed and were retried');
    assertEachOnce(sandbox, rows);
  });
});

describe('jobs in the data file', () => {
  test('a job processing at close resumes after a restart and imports every row once', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const first = await startSandbox({ dataFile: file });
    t.after(() => first.close());
    const answer = await importRows(first, contacts(3000));
    assert.equal(answer.status, 202);
    await first.close();

    const second = await start(t, { dataFile: file });
    const stored = importsOf(second.store).toJSON().jobs[0]!;
    assert.equal(stored.status, 'processing', 'saved while processing');
    const before = count(second);
    assert.equal(before, stored.processed, 'the saved records and the saved progress agree');
    const { job } = await poll(second, answer.headers['location']!);
    assert.equal(job.status, 'complete');
    assert.equal(job.results.length, 3000);
    assert.equal(count(second), 3000);
  });

  test('finished jobs, their results and tombstones survive a restart', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const first = await startSandbox({ dataFile: file });
    t.after(() => first.close());
    const answer = await importRows(first, contacts(100));
    const { job } = await poll(first, answer.headers['location']!);
    await first.close();
    const second = await start(t, { dataFile: file });
    const again = await call(second, 'GET', answer.headers['location']!);
    assert.deepEqual(again.body, job);
  });
});

describe('the imports slice', () => {
  test('refuses a snapshot whose counters do not match its results', () => {
    const model = importsOf(new Store());
    const job = {
      job_id: 'imp_1',
      team_id: crypto.randomUUID(),
      object_type: 'contact',
      status: 'complete',
      total: 1,
      processed: 1,
      succeeded: 1,
      failed: 0,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
      expires_at: '2999-01-08T00:00:00.000Z',
      error: null,
      results: [{ id: null, created: false, existing: false, updated: false, input_index: 0 }],
      input: null,
    };
    model.load({ jobs: [job], expired: [] });
    assert.throws(
      () => model.load({ jobs: [{ ...job, succeeded: 0, failed: 1 }], expired: [] }),
      (err: unknown) =>
        err instanceof SnapshotError && err.path === 'store.slices.imports.jobs[0].failed',
    );
    assert.throws(
      () => model.load({ jobs: [{ ...job, status: 'processing' }], expired: [] }),
      (err: unknown) =>
        err instanceof SnapshotError && err.path === 'store.slices.imports.jobs[0].input',
    );
    assert.equal(model.toJSON().jobs.length, 1, 'a refused snapshot leaves the state as it was');
  });
});
