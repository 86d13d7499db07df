// Views of the sandbox, over real HTTP, every answer checked against the contract.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { SANDBOX_USER_ID } from '../../src/sandbox/resources/views/model.ts';
import type { RunningSandbox } from '../../src/sandbox/sandbox.ts';
import { SnapshotError } from '../../src/sandbox/store.ts';
import { tempDir } from './helpers.ts';
import { api, assertError, LIST_A, NO_SUCH_ID, sandboxFor, UUID } from './properties-http.ts';

async function createView(sandbox: RunningSandbox, body: Record<string, unknown>, type = 'deal') {
  const answer = await api(sandbox).post(`${type}/views`, body);
  assert.equal(answer.status, 201, answer.text);
  return answer.body;
}

/** The fields a test of errors looks at: field → code. */
function fieldCodes(body: { error: { errors: { field: string; code: string }[] } }) {
  return Object.fromEntries(body.error.errors.map((e) => [e.field, e.code]));
}

describe('views: create and read', () => {
  test('201 with the bundle and its defaults; GET answers the same', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const view = await createView(sandbox, {
      name: 'Pipeline',
      view_type: 'kanban',
      group_by: 'stage',
    });
    assert.match(view.id, UUID);
    assert.deepEqual(
      { ...view, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        object_type: 'deal',
        name: 'Pipeline',
        view_type: 'kanban',
        aggregation_prop_def_id: null,
        aggregation_type: null,
        column_layout: null,
        combinator: 'AND',
        filter: [],
        group_by: 'stage',
        group_hidden_option_ids: null,
        group_hide_empty: null,
        group_sort: null,
        icon: null,
        list_id: null,
        select: [],
        sort: [],
        sort_order: null,
        record_order: [],
        created_at: undefined,
        updated_at: undefined,
        team_id: sandbox.teamId,
        user_id: SANDBOX_USER_ID,
      },
    );
    assert.equal(view.created_at, view.updated_at);
    assert.ok(view.created_at <= sandbox.store.clock.iso(), 'stamped by the sandbox clock');
    const read = await http.get(`deal/views/${view.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, view);
  });

  test('every field of the bundle is kept', async (t) => {
    const sandbox = await sandboxFor(t);
    const stage = (await api(sandbox).get('deal/properties?term=amount')).body.deal;
    const amountId = Object.keys(stage)[0]!;
    const body = {
      name: 'Won this year',
      view_type: 'grid',
      aggregation_prop_def_id: amountId,
      aggregation_type: 'sum',
      column_layout: { widths: { name: 240 } },
      combinator: 'OR',
      filter: [{ stage: { '=': 'won' } }, { amount: { '>=': '50000' } }],
      group_by: null,
      group_hidden_option_ids: ['x'],
      group_hide_empty: true,
      group_sort: 'manual',
      icon: 'trophy',
      list_id: null,
      select: ['name', 'amount', 'organization.industry'],
      sort: [{ close_date: 'desc' }, { name: 'asc' }],
      sort_order: 3,
    };
    const view = await createView(sandbox, body);
    for (const [field, value] of Object.entries(body)) assert.deepEqual(view[field], value, field);
  });

  test('name and view_type are required; view_type is grid, list or kanban', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    assertError(
      await http.post('deal/views', { view_type: 'grid' }),
      400,
      'invalid_request',
      'body.name',
    );
    assertError(
      await http.post('deal/views', { name: 'X' }),
      400,
      'invalid_request',
      'body.view_type',
    );
    assertError(
      await http.post('deal/views', { name: 'X', view_type: 'calendar' }),
      400,
      'invalid_request',
      'body.view_type',
    );
    assertError(
      await http.post('deal/views', { name: '  ', view_type: 'grid' }),
      400,
      'invalid_request',
      'body.name',
    );
    for (const viewType of ['grid', 'list', 'kanban']) {
      assert.equal(
        (await http.post('deal/views', { name: viewType, view_type: viewType })).status,
        201,
      );
    }
  });

  test('404: an unknown view id, a view of another object type, an object type without views', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const view = await createView(sandbox, { name: 'Deals', view_type: 'grid' });
    assertError(await http.get(`deal/views/${NO_SUCH_ID}`), 404, 'not_found');
    assertError(await http.get(`organization/views/${view.id}`), 404, 'not_found');
    for (const type of ['contact', 'widgets']) {
      const answer = await http.get(`${type}/views/${view.id}`);
      assertError(answer, 404, 'not_found');
      assert.equal(
        answer.body.error.message,
        `Unknown object type '${type}' for views. Known object types: action, deal, document, event, identity, organization, comment, engagement.`,
      );
    }
  });

  test('an Idempotency-Key replays the creation instead of making a second view', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const headers = { 'idempotency-key': 'view-1' };
    const first = await http.post('deal/views', { name: 'Once', view_type: 'grid' }, headers);
    const again = await http.post('deal/views', { name: 'Once', view_type: 'grid' }, headers);
    assert.equal(again.status, 201);
    assert.equal(again.headers['idempotent-replay'], 'true');
    assert.equal(again.body.id, first.body.id);
    assert.equal((await http.get('deal/views')).body.data.length, 1);
    assertError(
      await http.post('deal/views', { name: 'Other', view_type: 'grid' }, headers),
      409,
      'idempotency_key_mismatch',
    );
  });
});

describe('views: the properties a view names', () => {
  test('unknown slugs in select, filter, sort and group_by are 400 naming each', async (t) => {
    const sandbox = await sandboxFor(t);
    const answer = await api(sandbox).post('deal/views', {
      name: 'Bad',
      view_type: 'grid',
      select: ['name', 'colour'],
      filter: [{ amount: { '>': '1' } }, { size: { '=': 'big' } }],
      sort: [{ weight: 'asc' }],
      group_by: 'region',
      aggregation_prop_def_id: NO_SUCH_ID,
    });
    assertError(answer, 400, 'invalid_request');
    assert.deepEqual(fieldCodes(answer.body), {
      'body.select[1]': 'unknown_property',
      'body.filter[1].size': 'unknown_property',
      'body.sort[0].weight': 'unknown_property',
      'body.group_by': 'unknown_property',
      'body.aggregation_prop_def_id': 'unknown_property',
    });
    assert.match(
      answer.body.error.message,
      /^body\.select\[1\]: 'colour': deal has no property 'colour'\. Known properties: name, amount, stage/,
    );
    assert.match(answer.body.error.message, /and 4 more: see errors/);
    assert.equal((await api(sandbox).get('deal/views')).body.data.length, 0, 'nothing saved');
  });

  test('dot-paths follow reference properties; other paths are 400', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const ok = await createView(sandbox, {
      name: 'By industry',
      view_type: 'grid',
      select: ['name', 'organization.industry', 'contact.organization.name'],
      filter: [{ 'organization.industry': { in: ['software', 'finance'] } }],
      sort: [{ 'organization.name': 'asc' }],
    });
    assert.deepEqual(ok.select, ['name', 'organization.industry', 'contact.organization.name']);
    const bad = await http.post('deal/views', {
      name: 'Bad',
      view_type: 'grid',
      select: ['amount.currency', 'organization.nope', 'organization..name'],
      group_by: 'organization.industry',
    });
    assertError(bad, 400, 'invalid_request');
    assert.deepEqual(fieldCodes(bad.body), {
      'body.select[0]': 'invalid_path',
      'body.select[1]': 'unknown_property',
      'body.select[2]': 'invalid_path',
      'body.group_by': 'not_allowed',
    });
    assert.match(bad.body.error.errors[0].message, /'amount' of deal: it has type num/);
    assert.match(bad.body.error.errors[1].message, /organization has no property 'nope'/);
  });

  test('filter operands are read as the record query reads them', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const option = await http.post('deal/views', {
      name: 'Bad',
      view_type: 'grid',
      filter: [{ stage: { in: ['won', 'nope'] } }],
    });
    assertError(option, 400, 'invalid_request', 'body.filter[0].stage.in[1]');
    assert.match(option.body.error.message, /'nope' is not an option of stage/);
    assertError(
      await http.post('deal/views', {
        name: 'Bad',
        view_type: 'grid',
        filter: [{ amount: { '>': 'lots' } }],
      }),
      400,
      'invalid_request',
      'body.filter[0].amount.>',
    );
    assertError(
      await http.post('deal/views', {
        name: 'Bad',
        view_type: 'grid',
        filter: [{ amount: { like: '1' } }],
      }),
      400,
      'invalid_request',
    );
  });

  test("a list's own property is usable only in views of that list", async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    await http.post('deal/properties', { name: 'Lane', type: 'str', list_id: LIST_A });
    const global = await http.post('deal/views', {
      name: 'All',
      view_type: 'grid',
      select: ['lane'],
    });
    assertError(global, 400, 'invalid_request', 'body.select[0]');
    const onList = await createView(sandbox, {
      name: 'Lanes',
      view_type: 'grid',
      list_id: LIST_A,
      select: ['name', 'lane'],
    });
    assert.equal(onList.list_id, LIST_A);
    const off = await http.patch(`deal/views/${onList.id}`, { list_id: null });
    assertError(off, 400, 'invalid_request', 'body.select[1]');
    assert.equal((await http.get(`deal/views/${onList.id}`)).body.list_id, LIST_A, 'unchanged');
  });

  test('event views check against the event definitions', async (t) => {
    const sandbox = await sandboxFor(t);
    const view = await createView(
      sandbox,
      {
        name: 'Upcoming',
        view_type: 'list',
        select: ['title', 'starts_at', 'contact.name'],
        sort: [{ starts_at: 'asc' }],
      },
      'event',
    );
    assert.equal(view.object_type, 'event');
    assertError(
      await api(sandbox).post('event/views', {
        name: 'Bad',
        view_type: 'list',
        select: ['amount'],
      }),
      400,
      'invalid_request',
      'body.select[0]',
    );
  });
});

describe('views: patch, list, delete', () => {
  test('patch replaces select, filter and sort wholesale and keeps the other fields', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const view = await createView(sandbox, {
      name: 'Big deals',
      view_type: 'grid',
      icon: 'star',
      select: ['name', 'amount', 'stage'],
      filter: [{ amount: { '>': '10000' } }, { stage: { '!=': 'lost' } }],
      sort: [{ amount: 'desc' }, { name: 'asc' }],
    });
    sandbox.store.clock.advance(90);
    const answer = await http.patch(`deal/views/${view.id}`, {
      select: ['name'],
      filter: [{ stage: { '=': 'won' } }],
      sort: [],
      combinator: 'OR',
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(
      [answer.body.select, answer.body.filter, answer.body.sort, answer.body.combinator],
      [['name'], [{ stage: { '=': 'won' } }], [], 'OR'],
    );
    assert.deepEqual(
      [answer.body.name, answer.body.icon, answer.body.view_type, answer.body.created_at],
      ['Big deals', 'star', 'grid', view.created_at],
    );
    assert.ok(Date.parse(answer.body.updated_at) - Date.parse(view.updated_at) >= 90_000);
    assert.deepEqual((await http.get(`deal/views/${view.id}`)).body, answer.body);

    const resent = await http.patch(`deal/views/${view.id}`, answer.body);
    assert.equal(resent.status, 200, 'a view read back can be sent back as it is');
    assert.deepEqual({ ...resent.body, updated_at: null }, { ...answer.body, updated_at: null });

    const renamed = await http.patch(`deal/views/${view.id}`, { name: 'Won deals', icon: null });
    assert.deepEqual(
      [renamed.body.name, renamed.body.icon, renamed.body.select],
      ['Won deals', null, ['name']],
    );
  });

  test('patch: invalid changes are 400 and leave the view as it was; unknown id 404', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const view = await createView(sandbox, { name: 'Deals', view_type: 'grid', select: ['name'] });
    assertError(
      await http.patch(`deal/views/${view.id}`, { name: 'Renamed', select: ['name', 'nope'] }),
      400,
      'invalid_request',
      'body.select[1]',
    );
    assertError(
      await http.patch(`deal/views/${view.id}`, { view_type: 'table' }),
      400,
      'invalid_request',
      'body.view_type',
    );
    assert.deepEqual((await http.get(`deal/views/${view.id}`)).body, view);
    assertError(await http.patch(`deal/views/${NO_SUCH_ID}`, { name: 'X' }), 404, 'not_found');
  });

  test('list (extension): creation order, list_id narrows, limit and cursor (or page) page', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const names = ['One', 'Two', 'Three', 'Four', 'Five'];
    for (const name of names) await createView(sandbox, { name, view_type: 'grid' });
    await createView(sandbox, { name: 'On list', view_type: 'list', list_id: LIST_A });
    await createView(sandbox, { name: 'An organization view', view_type: 'grid' }, 'organization');

    const all = await http.get('deal/views');
    assert.deepEqual(
      all.body.data.map((v: { name: string }) => v.name),
      [...names, 'On list'],
    );
    assert.equal(all.body.has_more, false);
    assert.equal(all.body.next_cursor, null);
    const listed = await http.get(`deal/views?list_id=${LIST_A}`);
    assert.deepEqual(
      listed.body.data.map((v: { name: string }) => v.name),
      ['On list'],
    );

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${cursor}`;
      const page = await http.get(`deal/views${query}`);
      assert.equal(page.status, 200, page.text);
      seen.push(...page.body.data.map((v: { name: string }) => v.name));
      assert.equal(page.body.has_more, page.body.next_cursor !== null);
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor !== null);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...names, 'On list']);
    // page (deprecated, in the official client) pages too.
    const second = await http.get('deal/views?limit=2&page=2');
    assert.deepEqual(
      second.body.data.map((v: { name: string }) => v.name),
      seen.slice(2, 4),
    );

    assertError(await http.get('deal/views?cursor=bogus'), 400, 'invalid_request', 'query.cursor');
    assertError(await http.get('deal/views?limit=51'), 400, 'invalid_request', 'query.limit');
  });

  test('delete (extension): 204, then 404', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const view = await createView(sandbox, { name: 'Temporary', view_type: 'grid' });
    const gone = await http.delete(`deal/views/${view.id}`);
    assert.equal(gone.status, 204);
    assert.equal(gone.text, '');
    assertError(await http.get(`deal/views/${view.id}`), 404, 'not_found');
    assertError(await http.delete(`deal/views/${view.id}`), 404, 'not_found');
    assert.deepEqual((await http.get('deal/views')).body.data, []);
  });
});

describe('views: include=records', () => {
  const spec = {
    select: ['name', 'amount', 'stage'],
    filter: [{ stage: { in: ['won', 'proposal', 'qualified'] } }],
    sort: [{ amount: 'desc' }],
  };

  test('runs the view as the record query endpoint would, in the wrapper of api.md', async (t) => {
    const sandbox = await sandboxFor(t, { seed: 'demo' });
    const http = api(sandbox);
    const view = await createView(sandbox, { name: 'Open and won', view_type: 'grid', ...spec });
    const answer = await http.get(`deal/views/${view.id}?include=records`);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(Object.keys(answer.body).sort(), ['records', 'view']);
    assert.deepEqual(answer.body.view, view);
    const query = await http.post('deal/query', { query: spec });
    assert.equal(query.status, 200, query.text);
    assert.deepEqual(answer.body.records, query.body, 'the same rows as POST /query');
    const rows = answer.body.records.data as { properties: { amount: number; stage: string } }[];
    assert.ok(rows.length >= 5, `${rows.length} rows`);
    for (const row of rows) {
      assert.deepEqual(Object.keys(row.properties), ['name', 'amount', 'stage']);
      assert.ok(['won', 'proposal', 'qualified'].includes(row.properties.stage));
    }
    const amounts = rows.map((r) => r.properties.amount);
    assert.deepEqual(
      amounts,
      [...amounts].sort((a, b) => b - a),
    );
    assert.equal(answer.body.records.has_more, false);
    assert.equal(answer.body.records.next_cursor, null);
  });

  test('limit and cursor page the records; page is the older way; limit above 50 is capped', async (t) => {
    const sandbox = await sandboxFor(t, { seed: 'demo' });
    const http = api(sandbox);
    const view = await createView(sandbox, { name: 'Open and won', view_type: 'grid', ...spec });
    const everything = (await http.get(`deal/views/${view.id}?include=records`)).body.records.data;
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? 'limit=2' : `cursor=${cursor}`;
      const page = await http.get(`deal/views/${view.id}?include=records&${query}`);
      assert.equal(page.status, 200, page.text);
      const { data, has_more, next_cursor } = page.body.records;
      assert.ok(data.length <= 2);
      assert.equal(has_more, next_cursor !== null);
      ids.push(...data.map((r: { id: string }) => r.id));
      cursor = next_cursor;
    } while (cursor !== null);
    assert.deepEqual(
      ids,
      everything.map((r: { id: string }) => r.id),
    );

    const second = await http.get(`deal/views/${view.id}?include=records&limit=2&page=2`);
    assert.deepEqual(second.body.records.data, everything.slice(2, 4));
    const capped = await http.get(`deal/views/${view.id}?include=records&limit=500`);
    assert.equal(capped.status, 200);
    assert.deepEqual(capped.body.records.data, everything);
  });

  test('a cursor of another view, or made up, is 400 query.cursor; without include the bare view', async (t) => {
    const sandbox = await sandboxFor(t, { seed: 'demo' });
    const http = api(sandbox);
    const a = await createView(sandbox, { name: 'A', view_type: 'grid', ...spec });
    const b = await createView(sandbox, { name: 'B', view_type: 'grid', sort: [{ name: 'asc' }] });
    const first = await http.get(`deal/views/${a.id}?include=records&limit=1`);
    const cursor = first.body.records.next_cursor;
    assert.equal(typeof cursor, 'string');
    assertError(
      await http.get(`deal/views/${b.id}?include=records&cursor=${cursor}`),
      400,
      'invalid_request',
      'query.cursor',
    );
    assertError(
      await http.get(`deal/views/${a.id}?include=records&cursor=nonsense`),
      400,
      'invalid_request',
      'query.cursor',
    );
    assertError(
      await http.get(`deal/views/${a.id}?include=everything`),
      400,
      'invalid_request',
      'query.include',
    );
    const bare = await http.get(`deal/views/${a.id}?limit=1`);
    assert.deepEqual(bare.body, a);
  });

  test("a view of a list shows that list's members; an event view has no records", async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const records = recordsOf(sandbox.store);
    const member = records.create('deal', {
      default: { name: 'Listed', amount: 5 },
      lists: { [LIST_A]: {} },
    });
    records.create('deal', { default: { name: 'Not listed', amount: 7 } });
    const view = await createView(sandbox, {
      name: 'List A',
      view_type: 'grid',
      list_id: LIST_A,
      select: ['name'],
    });
    const answer = await http.get(`deal/views/${view.id}?include=records`);
    assert.deepEqual(answer.body.records.data, [{ id: member.id, properties: { name: 'Listed' } }]);
    const events = await createView(sandbox, { name: 'Events', view_type: 'list' }, 'event');
    const none = await http.get(`event/views/${events.id}?include=records`);
    assert.deepEqual(none.body.records, { data: [], has_more: false, next_cursor: null });
  });
});

describe('views: persistence', () => {
  test('views survive the data file round trip and still run', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const first = await startSandbox({ dataFile: file, seed: 'demo', validateResponses: true });
    await api(first).post('deal/properties', { name: 'Lane', type: 'str', list_id: LIST_A });
    const view = (
      await api(first).post('deal/views', {
        name: 'Saved',
        view_type: 'kanban',
        list_id: LIST_A,
        select: ['name', 'lane', 'organization.name'],
        filter: [{ stage: { '!=': 'lost' } }],
        sort: [{ close_date: 'asc' }],
        group_by: 'stage',
        column_layout: { lanes: 3 },
      })
    ).body;
    const before = await api(first).get(`deal/views/${view.id}?include=records`);
    assert.deepEqual(first.contractViolations, []);
    await first.close();

    const second = await sandboxFor(t, { dataFile: file });
    const after = await api(second).get(`deal/views/${view.id}?include=records`);
    assert.deepEqual(after.body, before.body);
    assert.deepEqual((await api(second).get('deal/views')).body.data, [view]);
  });

  test('a snapshot with a broken view is refused and the state kept', async (t) => {
    const sandbox = await sandboxFor(t);
    await createView(sandbox, { name: 'Kept', view_type: 'grid' });
    const good = sandbox.store.toJSON();
    const broken = structuredClone(good);
    (broken.slices['views'] as Record<string, unknown>[])[0]!['select'] = 'name';
    assert.throws(() => sandbox.store.fromJSON(broken), SnapshotError);
    assert.throws(() => sandbox.store.fromJSON(broken), /store\.slices\.views\[0\]\.select/);
    assert.deepEqual(sandbox.store.toJSON().slices['views'], good.slices['views']);
  });
});
