import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OBJECT_TYPES } from '../../src/sandbox/object-types.ts';
import { RecordsModel, recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { SnapshotError, Store } from '../../src/sandbox/store.ts';
import { call, prism, startFor } from './helpers.ts';
import { fields, ids, recordsApi } from './records-api.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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

  test('an object type without records: 404 naming the decoded type and listing the known ones', async (t) => {
    const sandbox = await startFor(t);
    const answer = await call(sandbox, 'GET', prism(sandbox, 'caf%C3%A9%20s/count'));
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, {
      error: {
        code: 'not_found',
        message:
          "Unknown object type 'café s'. Known object types: contact, organization, identity, deal, action, document, event, engagement.",
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

  test('the copy keeps every value but nulls; objects are cloned; the caller may change its own', () => {
    const records = recordsOf(new Store());
    const values: Record<string, unknown> = { name: 'a', gone: null, meta: { n: 1 }, score: 2 };
    const record = records.create('contact', { default: values });
    values['name'] = 'b';
    (values['meta'] as { n: number }).n = 9;
    assert.deepEqual(record.default, { name: 'a', meta: { n: 1 }, score: 2 });
    assert.notEqual(record.default, values);
  });

  test('records in no list: joining a list changes that record only', () => {
    const records = recordsOf(new Store());
    const first = records.create('deal', { default: { name: 'a' } });
    const second = records.create('deal', { default: { name: 'b' } });
    records.update('deal', first.id, { lists: { l1: { stage: 'won' } } });
    assert.deepEqual(first.lists, { l1: { stage: 'won' } });
    assert.deepEqual(second.lists, {});
    const copy = records.create('deal', { default: second.default, lists: second.lists });
    records.update('deal', copy.id, { lists: { l2: {} } });
    assert.deepEqual(second.lists, {});
    assert.equal(records.count('deal', { listId: 'l2' }), 1);
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

describe('RecordsModel: clearing and change detection', () => {
  test('a null clears a value and a null list leaves the list', () => {
    const records = recordsOf(new Store());
    const list = crypto.randomUUID();
    const record = records.create('deal', {
      default: { name: 'd', amount: 1 },
      lists: { [list]: {} },
    });
    const updated = records.update('deal', record.id, {
      default: { amount: null },
      lists: { [list]: null },
    });
    assert.deepEqual(updated.default, { name: 'd' });
    assert.deepEqual(updated.lists, {});
    assert.equal(records.count('deal', { listId: list }), 0);
  });

  test('setting what is already there changes nothing: same version, same generation', () => {
    const records = recordsOf(new Store());
    const record = records.create('deal', { default: { name: 'd', tags: ['a'] } });
    const generation = records.generation;
    const same = records.update('deal', record.id, { default: { name: 'd', tags: ['a'] } });
    assert.equal(same.version, 1);
    assert.equal(records.generation, generation);
    records.update('deal', record.id, { default: { name: 'e' } });
    assert.equal(records.generation, generation + 1);
  });
});

describe('record create', () => {
  test('201 with the record, a strong etag and a Location; values normalised', async (t) => {
    const api = await recordsApi(t);
    const org = await api.create('organization', { name: 'Acme', industry: 'Software' });
    const answer = await api.req('POST', 'contact', {
      body: {
        default: {
          name: 'Ada',
          score: 12.5,
          subscribed: true,
          status: 'Customer',
          tags: ['vip', 'Newsletter', 'vip'],
          birthday: '1990-02-03',
          notes: 'likes tea',
          organization: org.id,
        },
      },
    });
    assert.equal(answer.status, 201);
    assert.match(answer.body.id, UUID);
    assert.equal(answer.headers.etag, '"v1"');
    assert.equal(answer.headers.location, `/v2/prism/${api.teamId}/contact/${answer.body.id}`);
    assert.deepEqual(answer.body, {
      id: answer.body.id,
      default: {
        name: 'Ada',
        score: 12.5,
        subscribed: true,
        status: 'customer',
        tags: ['vip', 'newsletter'],
        birthday: '1990-02-03',
        notes: 'likes tea',
        organization: { id: org.id, properties: {} },
      },
    });
    assert.equal(org.default.industry, 'software', 'select by display value, stored as its slug');
  });

  test('a date-time is stored as UTC ISO-8601; a select by option id reads back as the slug', async (t) => {
    const api = await recordsApi(t);
    const statuses = (await api.req('GET', 'contact/properties?include_options=true')).body;
    const status = Object.values(
      statuses.contact as Record<string, { slug: string; options: { id: string; slug: string }[] }>,
    ).find((d) => d.slug === 'status')!;
    const churned = status.options.find((o) => o.slug === 'churned')!;
    const record = await api.create('contact', {
      status: churned.id,
      birthday: '1990-02-03T10:30:00+02:00',
    });
    assert.equal(record.default.status, 'churned');
    assert.equal(record.default.birthday, '1990-02-03T08:30:00.000Z');
    const read = await api.req('GET', `contact/${record.id}`);
    assert.equal(read.body.default.status, 'churned');
  });

  test('bad values: 400 invalid_request naming every field and why; nothing is created', async (t) => {
    const api = await recordsApi(t);
    const answer = await api.req('POST', 'contact', {
      body: {
        default: {
          score: '5',
          subscribed: 'yes',
          status: 'vip',
          tags: 'vip',
          birthday: '1990-02-30',
          name: 42,
          organization: crypto.randomUUID(),
          colour: 'red',
        },
      },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, 'invalid_request');
    const byField = Object.fromEntries(
      (answer.body.error.errors as { field: string; code: string; message: string }[]).map((e) => [
        e.field,
        e,
      ]),
    );
    assert.deepEqual(Object.keys(byField).sort(), [
      'default.birthday',
      'default.colour',
      'default.name',
      'default.organization',
      'default.score',
      'default.status',
      'default.subscribed',
      'default.tags',
    ]);
    assert.equal(byField['default.score'].code, 'type');
    assert.equal(byField['default.score'].message, 'must be a number, got the string "5"');
    assert.equal(
      byField['default.subscribed'].message,
      'must be true or false, got the string "yes"',
    );
    assert.equal(
      byField['default.status'].message,
      "'vip' is not an option of status (options: lead, customer, churned)",
    );
    assert.equal(
      byField['default.tags'].message,
      'must be an array (multiselect_str), got the string "vip"',
    );
    assert.equal(byField['default.birthday'].code, 'format');
    assert.equal(byField['default.name'].message, 'must be a string, got the number 42');
    assert.equal(byField['default.organization'].code, 'not_found');
    assert.equal(byField['default.colour'].code, 'unknown_property');
    assert.match(
      byField['default.colour'].message,
      /^contact has no property 'colour' \(known: name, email, /,
    );
    assert.match(
      answer.body.error.message,
      /^The contact record is not valid: default\.\w+: .*; and 5 more \(see errors\)\.$/,
    );
    assert.equal((await api.req('GET', 'contact/count')).body.total, 0);
  });

  test('multi_str, jsonb, multiref and references to types the API does not serve', async (t) => {
    const api = await recordsApi(t);
    api.define('contact', { name: 'Aliases', type: 'multi_str' });
    api.define('contact', { name: 'Extra', type: 'jsonb' });
    api.define('contact', { name: 'Owner', type: 'ref_user' });
    api.define('contact', { name: 'Docs', type: 'multiref_document' });
    const doc = await api.create('document', { title: 'MSA' });
    const record = await api.create('contact', {
      aliases: ['Ada', 'A. L.'],
      extra: { nested: [1, { deep: true }] },
      owner: 'user-42',
      docs: [{ id: doc.id, properties: { title: 'ignored' } }],
    });
    assert.deepEqual(record.default, {
      aliases: ['Ada', 'A. L.'],
      extra: { nested: [1, { deep: true }] },
      owner: { id: 'user-42', properties: {} },
      docs: [{ id: doc.id, properties: {} }],
    });
    const read = await api.req('GET', `contact/${record.id}?select=docs.title,aliases`);
    assert.deepEqual(read.body.default, {
      docs: [{ id: doc.id, properties: { title: 'MSA' } }],
      aliases: ['Ada', 'A. L.'],
    });
    const bad = await api.req('POST', 'contact', {
      body: { default: { aliases: ['ok', 3], docs: doc.id, owner: '' } },
    });
    assert.equal(bad.status, 400);
    const messages = Object.fromEntries(
      bad.body.error.errors.map((e: { field: string; message: string }) => [e.field, e.message]),
    );
    assert.deepEqual(messages, {
      'default.aliases': 'item 1: must be a string, got the number 3',
      'default.docs': 'must be an array (multiref_document), got the string "' + doc.id + '"',
      'default.owner': 'must be the id of a user record (a string), got the string ""',
    });
  });

  test('a top-level field other than default and list is refused at the door', async (t) => {
    const api = await recordsApi(t);
    const answer = await api.req('POST', 'contact', { body: { name: 'Ada' } });
    assert.equal(answer.status, 400);
    assert.deepEqual(fields(answer), ['body.name']);
  });

  test('required: create without it is 422 naming the field; a patch cannot clear it', async (t) => {
    const api = await recordsApi(t);
    api.define('contact', { name: 'Region', type: 'str', required: true });
    const missing = await api.req('POST', 'contact', { body: { default: { name: 'Ada' } } });
    assert.equal(missing.status, 422);
    assert.equal(missing.body.error.code, 'unprocessable');
    assert.deepEqual(missing.body.error.errors, [
      {
        field: 'default.region',
        code: 'required',
        message: 'region is required: give it a non-empty value',
      },
    ]);
    const blank = await api.req('POST', 'contact', { body: { default: { region: '  ' } } });
    assert.equal(blank.status, 422);

    const record = await api.create('contact', { name: 'Ada', region: 'EMEA' });
    const other = await api.req('PATCH', `contact/${record.id}`, {
      body: { default: { name: 'Ada L' } },
    });
    assert.equal(other.status, 200, 'a patch that leaves it alone is fine');
    for (const cleared of [null, '']) {
      const answer = await api.req('PATCH', `contact/${record.id}`, {
        body: { default: { region: cleared } },
      });
      assert.equal(answer.status, 422);
      assert.deepEqual(answer.body.error.errors, [
        {
          field: 'default.region',
          code: 'required',
          message: 'region is required and cannot be cleared',
        },
      ]);
    }
    assert.equal((await api.req('GET', `contact/${record.id}`)).body.default.region, 'EMEA');
  });

  test('list values are checked against the list’s own definitions', async (t) => {
    const api = await recordsApi(t);
    const list = crypto.randomUUID();
    api.define('deal', {
      name: 'Pipeline stage',
      slug: 'pipeline_stage',
      type: 'select_str',
      list_id: list,
      options: [{ value: 'New' }, { value: 'Closed' }],
    });
    const record = await api.create('deal', { name: 'D' }, { [list]: { pipeline_stage: 'New' } });
    assert.deepEqual(record.list, { [list]: { pipeline_stage: 'new' } });
    const wrong = await api.req('POST', 'deal', {
      body: { default: { pipeline_stage: 'new' }, list: { [list]: { amount: 5 } } },
    });
    assert.equal(wrong.status, 400);
    assert.deepEqual(fields(wrong), ['default.pipeline_stage', `list.${list}.amount`]);
    const count = await api.req('GET', `deal/count?list_id=${list}`);
    assert.equal(count.body.total, 1);
  });
});

describe('record get', () => {
  test('etag, select, and dot paths into a reference return { id, properties }', async (t) => {
    const api = await recordsApi(t);
    const org = await api.create('organization', {
      name: 'Acme',
      industry: 'software',
      employees: 40,
    });
    const contact = await api.create('contact', {
      name: 'Ada',
      email: 'a@x.example',
      organization: org.id,
    });
    const deal = await api.create('deal', { name: 'D', organization: org.id, contact: contact.id });
    const full = await api.req('GET', `deal/${deal.id}`);
    assert.equal(full.status, 200);
    assert.equal(full.headers.etag, '"v1"');
    assert.deepEqual(full.body.default.contact, { id: contact.id, properties: {} });

    const selected = await api.req(
      'GET',
      `deal/${deal.id}?select=name,organization.name,organization.employees,contact.organization.name,amount`,
    );
    assert.deepEqual(selected.body, {
      id: deal.id,
      default: {
        name: 'D',
        organization: { id: org.id, properties: { name: 'Acme', employees: 40 } },
        contact: {
          id: contact.id,
          properties: { organization: { id: org.id, properties: { name: 'Acme' } } },
        },
        amount: null,
      },
    });
  });

  test('a bad select: 400 naming query.select', async (t) => {
    const api = await recordsApi(t);
    const deal = await api.create('deal', { name: 'D' });
    const unknown = await api.req('GET', `deal/${deal.id}?select=name,colour`);
    assert.equal(unknown.status, 400);
    assert.deepEqual(fields(unknown), ['query.select']);
    const notRef = await api.req('GET', `deal/${deal.id}?select=name.first`);
    assert.equal(notRef.status, 400);
    assert.match(notRef.body.error.message, /cannot follow 'name' of deal: it has type str/);
  });

  test('an unknown id: 404 naming the type and the id', async (t) => {
    const api = await recordsApi(t);
    const id = crypto.randomUUID();
    const answer = await api.req('GET', `organization/${id}`);
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error.code, 'not_found');
    assert.equal(answer.body.error.message, `No organization record has the id ${id}.`);
    for (const [method, path] of [
      ['PATCH', `organization/${id}`],
      ['DELETE', `organization/${id}`],
      ['POST', `organization/${id}/duplicate`],
      ['POST', `organization/${id}/restore`],
    ] as const) {
      const other = await api.req(method, path, method === 'PATCH' ? { body: {} } : {});
      assert.equal(other.status, 404, `${method} ${path}`);
      assert.equal(other.body.error.message, `No organization record has the id ${id}.`);
    }
  });

  test('an unknown object type: 404 listing the known ones', async (t) => {
    const api = await recordsApi(t);
    const answer = await api.req('GET', `widget/${crypto.randomUUID()}`);
    assert.equal(answer.status, 404);
    assert.match(
      answer.body.error.message,
      /^Unknown object type 'widget'\. Known object types: contact, /,
    );
  });
});

describe('record patch', () => {
  test('default keys merge, null clears, the etag follows the version', async (t) => {
    const api = await recordsApi(t);
    const record = await api.create('contact', { name: 'Ada', city: 'Paris', score: 3 });
    const answer = await api.req('PATCH', `contact/${record.id}`, {
      body: { default: { city: null, score: 4, title: 'CEO' } },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.etag, '"v2"');
    assert.deepEqual(answer.body.default, { name: 'Ada', score: 4, title: 'CEO' });
  });

  test('a patch that changes nothing keeps the version and etag', async (t) => {
    const api = await recordsApi(t);
    const record = await api.create('contact', { name: 'Ada' });
    const answer = await api.req('PATCH', `contact/${record.id}`, {
      body: { default: { name: 'Ada' } },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.etag, '"v1"');
  });

  test('If-Match: a stale etag is 412 precondition_failed giving the current one; nothing changes', async (t) => {
    const api = await recordsApi(t);
    const record = await api.create('contact', { name: 'Ada' });
    await api.req('PATCH', `contact/${record.id}`, { body: { default: { name: 'Ada B' } } });
    const stale = await api.req('PATCH', `contact/${record.id}`, {
      body: { default: { name: 'Ada C' } },
      headers: { 'if-match': '"v1"' },
    });
    assert.equal(stale.status, 412);
    assert.equal(stale.body.error.code, 'precondition_failed');
    assert.equal(
      stale.body.error.message,
      `The contact record ${record.id} changed since "v1" (If-Match): its current etag is "v2". Read it again, then retry with If-Match: "v2".`,
    );
    assert.deepEqual(stale.body.error.details, { current_etag: '"v2"' });
    assert.equal((await api.req('GET', `contact/${record.id}`)).body.default.name, 'Ada B');

    const current = await api.req('PATCH', `contact/${record.id}`, {
      body: { default: { name: 'Ada C' } },
      headers: { 'if-match': '"v2"' },
    });
    assert.equal(current.status, 200);
    assert.equal(current.headers.etag, '"v3"');
    const listed = await api.req('PATCH', `contact/${record.id}`, {
      body: { default: { name: 'Ada D' } },
      headers: { 'if-match': '"v1", "v3"' },
    });
    assert.equal(listed.status, 200, 'one of a list of etags is enough');
  });

  test('If-Match: * only requires that the record exists', async (t) => {
    const api = await recordsApi(t);
    const record = await api.create('contact', { name: 'Ada' });
    await api.req('PATCH', `contact/${record.id}`, { body: { default: { name: 'B' } } });
    const star = await api.req('PATCH', `contact/${record.id}`, {
      body: { default: { name: 'C' } },
      headers: { 'if-match': '*' },
    });
    assert.equal(star.status, 200);
    const missing = await api.req('PATCH', `contact/${crypto.randomUUID()}`, {
      body: { default: { name: 'C' } },
      headers: { 'if-match': '*' },
    });
    assert.equal(missing.status, 404);
  });

  test('without If-Match the patch is unconditional', async (t) => {
    const api = await recordsApi(t);
    const record = await api.create('contact', { name: 'Ada' });
    await api.req('PATCH', `contact/${record.id}`, { body: { default: { name: 'B' } } });
    const answer = await api.req('PATCH', `contact/${record.id}`, {
      body: { default: { name: 'C' } },
    });
    assert.equal(answer.status, 200);
  });

  test('a soft-deleted record cannot be patched until restored', async (t) => {
    const api = await recordsApi(t);
    const record = await api.create('contact', { name: 'Ada' });
    await api.req('DELETE', `contact/${record.id}`);
    const answer = await api.req('PATCH', `contact/${record.id}`, {
      body: { default: { name: 'B' } },
    });
    assert.equal(answer.status, 404);
    assert.equal(
      answer.body.error.message,
      `The contact record ${record.id} is deleted. Restore it with POST /v2/prism/${api.teamId}/contact/${record.id}/restore.`,
    );
  });
});

describe('record delete, restore and duplicate', () => {
  test('delete: 204 with no body; hidden from get, list and count unless deleted=true', async (t) => {
    const api = await recordsApi(t);
    const kept = await api.create('contact', { name: 'Kept' });
    const gone = await api.create('contact', { name: 'Gone' });
    const answer = await api.req('DELETE', `contact/${gone.id}`);
    assert.equal(answer.status, 204);
    assert.equal(answer.text, '');
    assert.equal((await api.req('GET', `contact/${gone.id}`)).status, 404);
    const withDeleted = await api.req('GET', `contact/${gone.id}?deleted=true`);
    assert.equal(withDeleted.status, 200);
    assert.equal(withDeleted.body.default.name, 'Gone');
    assert.deepEqual(ids(await api.req('GET', 'contact')), [kept.id]);
    assert.deepEqual(ids(await api.req('GET', 'contact?deleted=true')), [kept.id, gone.id]);
    assert.equal((await api.req('GET', 'contact/count')).body.total, 1);
    const again = await api.req('DELETE', `contact/${gone.id}`);
    assert.equal(again.status, 204, 'deleting again changes nothing and succeeds');
  });

  test('delete with If-Match: stale 412, current 204', async (t) => {
    const api = await recordsApi(t);
    const record = await api.create('contact', { name: 'Ada' });
    await api.req('PATCH', `contact/${record.id}`, { body: { default: { name: 'B' } } });
    const stale = await api.req('DELETE', `contact/${record.id}`, {
      headers: { 'if-match': '"v1"' },
    });
    assert.equal(stale.status, 412);
    assert.equal(stale.body.error.code, 'precondition_failed');
    assert.equal((await api.req('GET', `contact/${record.id}`)).status, 200);
    const current = await api.req('DELETE', `contact/${record.id}`, {
      headers: { 'if-match': '"v2"' },
    });
    assert.equal(current.status, 204);
  });

  test('restore: 200 with the record, visible again', async (t) => {
    const api = await recordsApi(t);
    const record = await api.create('contact', { name: 'Ada' });
    await api.req('DELETE', `contact/${record.id}`);
    const answer = await api.req('POST', `contact/${record.id}/restore`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.etag, '"v3"');
    assert.deepEqual(answer.body, { id: record.id, default: { name: 'Ada' } });
    assert.equal((await api.req('GET', `contact/${record.id}`)).status, 200);
    assert.equal((await api.req('GET', 'contact/count')).body.total, 1);
  });

  test('duplicate: 201, a new id with the same values, and a Location', async (t) => {
    const api = await recordsApi(t);
    const list = crypto.randomUUID();
    const record = await api.create('deal', { name: 'D', amount: 5, stage: 'won' }, { [list]: {} });
    const answer = await api.req('POST', `deal/${record.id}/duplicate`);
    assert.equal(answer.status, 201);
    assert.notEqual(answer.body.id, record.id);
    assert.equal(answer.headers.location, `/v2/prism/${api.teamId}/deal/${answer.body.id}`);
    assert.equal(answer.headers.etag, '"v1"');
    assert.deepEqual(answer.body.default, record.default);
    assert.deepEqual(answer.body.list, { [list]: {} });
    assert.equal((await api.req('GET', 'deal/count')).body.total, 2);
  });
});

describe('find and upsert by value', () => {
  test('find: the one match (with etag), 404 for none, 409 for several', async (t) => {
    const api = await recordsApi(t);
    const ada = await api.create('contact', { name: 'Ada', email: 'ada@x.example', score: 7 });
    await api.create('contact', { name: 'Bob', email: 'bob@x.example', city: 'Oslo' });
    await api.create('contact', { name: 'Cy', email: 'cy@x.example', city: 'Oslo' });
    const found = await api.req('GET', 'contact/by/email/ada%40x.example');
    assert.equal(found.status, 200);
    assert.equal(found.body.id, ada.id);
    assert.equal(found.headers.etag, '"v1"');
    const typed = await api.req('GET', 'contact/by/score/7');
    assert.equal(typed.body.id, ada.id, 'the value is read in the property type');

    const none = await api.req('GET', 'contact/by/email/nobody%40x.example');
    assert.equal(none.status, 404);
    assert.equal(none.body.error.message, "No contact record has email = 'nobody@x.example'.");
    const several = await api.req('GET', 'contact/by/city/Oslo');
    assert.equal(several.status, 409);
    assert.equal(several.body.error.code, 'conflict');
    assert.match(several.body.error.message, /^2 contact records have city = 'Oslo' \(/);
    assert.equal(several.body.error.details.ids.length, 2);
  });

  test('find: an unknown slug is 400 on path.slug; a value the type cannot hold 400 on path.value', async (t) => {
    const api = await recordsApi(t);
    const slug = await api.req('GET', 'contact/by/colour/red');
    assert.equal(slug.status, 400);
    assert.deepEqual(fields(slug), ['path.slug']);
    const value = await api.req('GET', 'contact/by/score/high');
    assert.equal(value.status, 400);
    assert.deepEqual(fields(value), ['path.value']);
  });

  test('find ignores soft-deleted records', async (t) => {
    const api = await recordsApi(t);
    const ada = await api.create('contact', { email: 'ada@x.example' });
    await api.req('DELETE', `contact/${ada.id}`);
    assert.equal((await api.req('GET', 'contact/by/email/ada%40x.example')).status, 404);
  });

  test('upsert: one match is patched (200)', async (t) => {
    const api = await recordsApi(t);
    const ada = await api.create('contact', { name: 'Ada', email: 'ada@x.example' });
    const answer = await api.req('PUT', 'contact/by/email/ada%40x.example', {
      body: { default: { city: 'Paris' } },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.etag, '"v2"');
    assert.deepEqual(answer.body, {
      id: ada.id,
      default: { name: 'Ada', email: 'ada@x.example', city: 'Paris' },
    });
  });

  test('upsert: no match creates (201) with the lookup property set, typed', async (t) => {
    const api = await recordsApi(t);
    const answer = await api.req('PUT', 'contact/by/email/new%40x.example', {
      body: { default: { name: 'New' } },
    });
    assert.equal(answer.status, 201);
    assert.equal(answer.headers.location, `/v2/prism/${api.teamId}/contact/${answer.body.id}`);
    assert.deepEqual(answer.body.default, { name: 'New', email: 'new@x.example' });
    const byNumber = await api.req('PUT', 'deal/by/amount/250', { body: {} });
    assert.equal(byNumber.status, 201);
    assert.deepEqual(byNumber.body.default, { amount: 250 });
    const explicit = await api.req('PUT', 'contact/by/email/x%40x.example', {
      body: { default: { email: 'y@x.example' } },
    });
    assert.equal(
      explicit.body.default.email,
      'y@x.example',
      'the body wins when it sets the property',
    );
  });

  test('upsert: several matches are 409 telling to patch by id', async (t) => {
    const api = await recordsApi(t);
    await api.create('contact', { city: 'Oslo' });
    await api.create('contact', { city: 'Oslo' });
    const answer = await api.req('PUT', 'contact/by/city/Oslo', {
      body: { default: { name: 'X' } },
    });
    assert.equal(answer.status, 409);
    assert.match(
      answer.body.error.message,
      new RegExp(
        `Patch the one you mean by id instead: PATCH /v2/prism/${api.teamId}/contact/\\{id\\}\\.$`,
      ),
    );
    assert.equal((await api.req('GET', 'contact/count')).body.total, 2);
  });
});

describe('batch update and delete', () => {
  test('batch update: each item on its own, 200 with results and a summary', async (t) => {
    const api = await recordsApi(t);
    const a = await api.create('contact', { name: 'A' });
    const b = await api.create('contact', { name: 'B' });
    const missing = crypto.randomUUID();
    const answer = await api.req('POST', 'contact/batch/update', {
      body: {
        items: [
          { id: a.id, default: { city: 'Paris' } },
          { id: b.id, default: { score: 'high' } },
          { id: missing, default: { city: 'Oslo' } },
          'not an item',
          { default: { city: 'Oslo' } },
          { id: b.id, name: 'B2' },
        ],
      },
    });
    assert.equal(answer.status, 200);
    const { results, summary } = answer.body;
    assert.deepEqual(summary, { total: 6, succeeded: 1, failed: 5 });
    assert.deepEqual(results[0], {
      id: a.id,
      status: 'ok',
      record: { id: a.id, default: { name: 'A', city: 'Paris' } },
    });
    assert.equal(results[1].id, b.id);
    assert.equal(results[1].status, 'error');
    assert.equal(results[1].error.code, 'invalid_request');
    assert.match(results[1].error.message, /default\.score: must be a number/);
    assert.deepEqual(results[2], {
      id: missing,
      status: 'error',
      error: { code: 'not_found', message: `No contact record has the id ${missing}.` },
    });
    assert.deepEqual(results[3], {
      id: null,
      status: 'error',
      error: { code: 'invalid_request', message: 'items[3] is not an object with a string id.' },
    });
    assert.equal(results[4].id, null);
    assert.equal(results[5].id, b.id);
    assert.match(results[5].error.message, /items\[5\] has 'name'/);
    assert.equal(
      (await api.req('GET', `contact/${b.id}`)).body.default.name,
      'B',
      'failed items change nothing',
    );
  });

  test('batch limits: 1 to 100 items, else 400 at the door', async (t) => {
    const api = await recordsApi(t);
    const many = Array.from({ length: 101 }, () => ({ id: crypto.randomUUID() }));
    const tooMany = await api.req('POST', 'contact/batch/update', { body: { items: many } });
    assert.equal(tooMany.status, 400);
    assert.deepEqual(fields(tooMany), ['body.items']);
    const none = await api.req('POST', 'contact/batch/delete', { body: { ids: [] } });
    assert.equal(none.status, 400);
    const hundred = await api.req('POST', 'contact/batch/delete', {
      body: { ids: many.slice(0, 100).map((m) => m.id) },
    });
    assert.equal(hundred.status, 200);
    assert.deepEqual(hundred.body.summary, { total: 100, succeeded: 0, failed: 100 });
  });

  test('batch delete: soft-deletes each id; unknown ids and non-strings fail alone', async (t) => {
    const api = await recordsApi(t);
    const a = await api.create('contact', { name: 'A' });
    const b = await api.create('contact', { name: 'B' });
    const missing = crypto.randomUUID();
    const answer = await api.req('POST', 'contact/batch/delete', {
      body: { ids: [a.id, missing, 7] },
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {
      results: [
        { id: a.id, status: 'ok' },
        {
          id: missing,
          status: 'error',
          error: { code: 'not_found', message: `No contact record has the id ${missing}.` },
        },
        {
          id: null,
          status: 'error',
          error: { code: 'invalid_request', message: 'ids[2] is not a string record id.' },
        },
      ],
      summary: { total: 3, succeeded: 1, failed: 2 },
    });
    assert.deepEqual(ids(await api.req('GET', 'contact')), [b.id]);
  });
});

describe('idempotency of record writes', () => {
  test('a replayed create answers the same body, Location and etag, with idempotent-replay', async (t) => {
    const api = await recordsApi(t);
    const headers = { 'idempotency-key': 'create-ada' };
    const body = { default: { name: 'Ada' } };
    const first = await api.req('POST', 'contact', { body, headers });
    const second = await api.req('POST', 'contact', { body, headers });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.headers['idempotent-replay'], 'true');
    assert.equal(first.headers['idempotent-replay'], undefined);
    assert.deepEqual(second.body, first.body);
    assert.equal(second.headers.location, first.headers.location);
    assert.equal(second.headers.etag, first.headers.etag);
    assert.equal((await api.req('GET', 'contact/count')).body.total, 1);
  });

  test('the same key with another body: 409 idempotency_key_mismatch', async (t) => {
    const api = await recordsApi(t);
    const headers = { 'idempotency-key': 'k1' };
    await api.req('POST', 'contact', { body: { default: { name: 'Ada' } }, headers });
    const other = await api.req('POST', 'contact', { body: { default: { name: 'Bob' } }, headers });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'idempotency_key_mismatch');
    assert.equal((await api.req('GET', 'contact/count')).body.total, 1);
  });

  test('a patch and an upsert replay with their etag', async (t) => {
    const api = await recordsApi(t);
    const record = await api.create('contact', { name: 'Ada', email: 'a@x.example' });
    const patch = { body: { default: { score: 1 } }, headers: { 'idempotency-key': 'p' } };
    const first = await api.req('PATCH', `contact/${record.id}`, patch);
    const again = await api.req('PATCH', `contact/${record.id}`, patch);
    assert.equal(again.headers['idempotent-replay'], 'true');
    assert.equal(again.headers.etag, first.headers.etag);
    const upsert = { body: { default: { name: 'New' } }, headers: { 'idempotency-key': 'u' } };
    const created = await api.req('PUT', 'contact/by/email/n%40x.example', upsert);
    const replayed = await api.req('PUT', 'contact/by/email/n%40x.example', upsert);
    assert.equal(replayed.status, 201);
    assert.equal(replayed.headers['idempotent-replay'], 'true');
    assert.equal(replayed.body.id, created.body.id);
    assert.equal(replayed.headers.location, created.headers.location);
  });

  test('a batch retried with its key is not applied twice', async (t) => {
    const api = await recordsApi(t);
    const record = await api.create('contact', { name: 'Ada' });
    const request = {
      body: { items: [{ id: record.id, default: { score: 1 } }] },
      headers: { 'idempotency-key': 'batch-1' },
    };
    const first = await api.req('POST', 'contact/batch/update', request);
    await api.req('PATCH', `contact/${record.id}`, { body: { default: { score: 2 } } });
    const retry = await api.req('POST', 'contact/batch/update', request);
    assert.equal(retry.headers['idempotent-replay'], 'true');
    assert.deepEqual(retry.body, first.body);
    const now = await api.req('GET', `contact/${record.id}`);
    assert.equal(now.body.default.score, 2, 'the retry did not write score 1 again');
    assert.equal(now.headers.etag, '"v3"');
  });
});

describe('record list', () => {
  test('equality filters from query parameters, typed; repeated names mean in', async (t) => {
    const api = await recordsApi(t);
    const a = await api.create('deal', { name: 'A', amount: 100, stage: 'won' });
    const b = await api.create('deal', { name: 'B', amount: 250, stage: 'lost' });
    await api.create('deal', { name: 'C', amount: 1000, stage: 'lead' });
    assert.deepEqual(ids(await api.req('GET', 'deal?amount=100')), [a.id]);
    assert.deepEqual(ids(await api.req('GET', 'deal?stage=Won')), [a.id], 'by display value');
    assert.deepEqual(ids(await api.req('GET', 'deal?amount=100&amount=250')), [a.id, b.id]);
    assert.deepEqual(ids(await api.req('GET', 'deal?amount=100&stage=lost')), []);
  });

  test('a parameter naming no property: 400 on query.<name>', async (t) => {
    const api = await recordsApi(t);
    const answer = await api.req('GET', 'deal?colour=red');
    assert.equal(answer.status, 400);
    assert.deepEqual(fields(answer), ['query.colour']);
    const badValue = await api.req('GET', 'deal?amount=lots');
    assert.deepEqual(fields(badValue), ['query.amount']);
  });

  test('select, sort with -, and rows { id, properties }', async (t) => {
    const api = await recordsApi(t);
    const a = await api.create('deal', { name: 'A', amount: 100 });
    const b = await api.create('deal', { name: 'B', amount: 300 });
    const c = await api.create('deal', { name: 'C' });
    const answer = await api.req('GET', 'deal?select=name,amount&sort=-amount');
    assert.deepEqual(answer.body, {
      data: [
        { id: b.id, properties: { name: 'B', amount: 300 } },
        { id: a.id, properties: { name: 'A', amount: 100 } },
        { id: c.id, properties: { name: 'C', amount: null } },
      ],
      has_more: false,
      next_cursor: null,
    });
    assert.deepEqual(ids(await api.req('GET', 'deal?sort=amount')), [a.id, b.id, c.id]);
    const all = await api.req('GET', 'deal?sort=name');
    assert.deepEqual(all.body.data[0], { id: a.id, properties: { name: 'A', amount: 100 } });
  });

  test('limit above 50 is capped, not rejected; cursor pages; include_total', async (t) => {
    const api = await recordsApi(t);
    const records = recordsOf(api.sandbox.store);
    for (let i = 0; i < 60; i++) records.create('contact', { default: { name: `c${i}` } });
    const first = await api.req('GET', 'contact?limit=80&include_total=true');
    assert.equal(first.status, 200);
    assert.equal(first.body.data.length, 50);
    assert.equal(first.body.total, 60);
    assert.equal(first.body.has_more, true);
    const second = await api.req('GET', `contact?cursor=${first.body.next_cursor}`);
    assert.equal(second.body.data.length, 10);
    assert.equal(second.body.has_more, false);
    assert.equal(second.body.next_cursor, null);
    assert.equal('total' in second.body, false);
    const small = await api.req('GET', 'contact?limit=60');
    assert.equal(small.body.data.length, 50);
  });
});
