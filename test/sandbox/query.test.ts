import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { SandboxError } from '../../src/sandbox/errors.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { runQuery } from '../../src/sandbox/resources/records/query.ts';
import { fields, ids, type RecordsApi, recordsApi } from './records-api.ts';

/** Four deals and two organizations, to run every operator over. */
async function deals(t: TestContext) {
  const api = await recordsApi(t);
  const acme = await api.create('organization', { name: 'Acme' });
  const bolt = await api.create('organization', { name: 'Bolt' });
  const d1 = await api.create('deal', {
    name: 'Alpha deal',
    amount: 100,
    stage: 'lead',
    close_date: '2025-01-15',
    organization: acme.id,
    notes: 'call back',
  });
  const d2 = await api.create('deal', {
    name: 'Beta',
    amount: 250,
    stage: 'won',
    close_date: '2025-03-31T18:00:00Z',
    organization: bolt.id,
  });
  const d3 = await api.create('deal', {
    name: 'Gamma deal',
    amount: 1000,
    stage: 'proposal',
    close_date: '2025-06-01',
    notes: '',
  });
  const d4 = await api.create('deal', { name: 'delta' });
  return { api, acme, bolt, d1: d1.id, d2: d2.id, d3: d3.id, d4: d4.id };
}

function query(api: RecordsApi, type: string, body: Record<string, unknown>) {
  const { query: q, ...rest } = body;
  return api.req('POST', `${type}/query`, {
    body: { query: { select: [], ...(q as object) }, ...rest },
  });
}

async function matching(api: RecordsApi, filter: unknown[], combinator?: 'AND' | 'OR') {
  const answer = await query(api, 'deal', {
    query: combinator === undefined ? { filter } : { filter, combinator },
  });
  assert.equal(answer.status, 200, answer.text);
  return ids(answer);
}

describe('query operators', () => {
  test('=, typed: a numeric string matches the number; a select by display value', async (t) => {
    const { api, d2 } = await deals(t);
    assert.deepEqual(await matching(api, [{ amount: { '=': '250' } }]), [d2]);
    assert.deepEqual(await matching(api, [{ stage: { '=': 'Won' } }]), [d2]);
    assert.deepEqual(await matching(api, [{ name: { '=': 'beta' } }]), [], '= is exact for text');
  });

  test('!=: records without a value match too', async (t) => {
    const { api, d1, d3, d4 } = await deals(t);
    assert.deepEqual(await matching(api, [{ stage: { '!=': 'won' } }]), [d1, d3, d4]);
  });

  test('<, >, <=, >= compare numbers as numbers and never match a missing value', async (t) => {
    const { api, d1, d2, d3 } = await deals(t);
    assert.deepEqual(await matching(api, [{ amount: { '<': '250' } }]), [d1]);
    assert.deepEqual(await matching(api, [{ amount: { '>': '250' } }]), [d3]);
    assert.deepEqual(await matching(api, [{ amount: { '<=': '250' } }]), [d1, d2]);
    assert.deepEqual(await matching(api, [{ amount: { '>=': '250' } }]), [d2, d3]);
  });

  test('ranges on dates: a date operand compares days, a date-time operand instants', async (t) => {
    const { api, d1, d2, d3 } = await deals(t);
    assert.deepEqual(await matching(api, [{ close_date: { '<=': '2025-03-31' } }]), [d1, d2]);
    assert.deepEqual(await matching(api, [{ close_date: { '<': '2025-03-31T12:00:00Z' } }]), [d1]);
    assert.deepEqual(await matching(api, [{ close_date: { '>': '2025-03-31' } }]), [d3]);
  });

  test('ranges on a select follow the options’ display order', async (t) => {
    const { api, d2, d3 } = await deals(t);
    assert.deepEqual(await matching(api, [{ stage: { '>': 'qualified' } }]), [d2, d3]);
  });

  test('contains, not_contains, begins_with, ends_with ignore case', async (t) => {
    const { api, d1, d2, d3, d4 } = await deals(t);
    assert.deepEqual(await matching(api, [{ name: { contains: 'DEAL' } }]), [d1, d3]);
    assert.deepEqual(await matching(api, [{ name: { not_contains: 'deal' } }]), [d2, d4]);
    assert.deepEqual(await matching(api, [{ name: { begins_with: 'gam' } }]), [d3]);
    assert.deepEqual(await matching(api, [{ name: { ends_with: 'TA' } }]), [d2, d4]);
    assert.deepEqual(await matching(api, [{ stage: { begins_with: 'Pro' } }]), [d3]);
  });

  test('is_null (no value, empty string) and is_not_null', async (t) => {
    const { api, d1, d2, d3, d4 } = await deals(t);
    assert.deepEqual(await matching(api, [{ amount: { is_null: true } }]), [d4]);
    assert.deepEqual(await matching(api, [{ notes: { is_null: true } }]), [d2, d3, d4]);
    assert.deepEqual(await matching(api, [{ notes: { is_not_null: true } }]), [d1]);
    assert.deepEqual(await matching(api, [{ notes: { is_null: false } }]), [d1]);
  });

  test('exists (any stored value, even empty) and not_exists', async (t) => {
    const { api, d1, d2, d3, d4 } = await deals(t);
    assert.deepEqual(await matching(api, [{ notes: { exists: true } }]), [d1, d3]);
    assert.deepEqual(await matching(api, [{ notes: { not_exists: true } }]), [d2, d4]);
    assert.deepEqual(await matching(api, [{ notes: { exists: false } }]), [d2, d4]);
  });

  test('between is inclusive, as [low, high] or "low,high"', async (t) => {
    const { api, d1, d2 } = await deals(t);
    assert.deepEqual(await matching(api, [{ amount: { between: ['100', '250'] } }]), [d1, d2]);
    assert.deepEqual(await matching(api, [{ close_date: { between: '2025-01-01,2025-03-31' } }]), [
      d1,
      d2,
    ]);
    const bad = await query(api, 'deal', { query: { filter: [{ amount: { between: ['1'] } }] } });
    assert.equal(bad.status, 400);
    assert.deepEqual(fields(bad), ['query.filter[0].amount.between']);
  });

  test('in and not_in', async (t) => {
    const { api, d1, d2, d3, d4 } = await deals(t);
    assert.deepEqual(await matching(api, [{ stage: { in: ['lead', 'Won'] } }]), [d1, d2]);
    assert.deepEqual(await matching(api, [{ stage: { not_in: ['lead', 'won'] } }]), [d3, d4]);
  });

  test('multi-valued properties: = and contains are membership; contains [a, b] needs both', async (t) => {
    const api = await recordsApi(t);
    const a = await api.create('contact', { tags: ['vip', 'partner'] });
    const b = await api.create('contact', { tags: ['vip'] });
    const c = await api.create('contact', { tags: [] });
    const tagged = async (comparison: unknown) =>
      ids(await query(api, 'contact', { query: { filter: [{ tags: comparison }] } }));
    assert.deepEqual(await tagged({ '=': 'vip' }), [a.id, b.id]);
    assert.deepEqual(await tagged({ contains: 'Partner' }), [a.id]);
    assert.deepEqual(await tagged({ contains: ['vip', 'partner'] }), [a.id]);
    assert.deepEqual(await tagged({ not_contains: 'partner' }), [b.id, c.id]);
    assert.deepEqual(await tagged({ is_null: true }), [c.id]);
  });

  test('dot paths filter through references', async (t) => {
    const { api, d1, d2 } = await deals(t);
    assert.deepEqual(await matching(api, [{ 'organization.name': { '=': 'Acme' } }]), [d1]);
    assert.deepEqual(await matching(api, [{ 'organization.name': { begins_with: 'b' } }]), [d2]);
  });

  test('bad filters: 400 naming the field', async (t) => {
    const { api } = await deals(t);
    const cases: [unknown, string, string][] = [
      [{ colour: { '=': 'red' } }, 'query.filter[0].colour', 'unknown_property'],
      [{ stage: { '=': 'closed' } }, 'query.filter[0].stage.=', 'unknown_option'],
      [{ amount: { '>': 'lots' } }, 'query.filter[0].amount.>', 'type'],
      [{ close_date: { '<': 'soon' } }, 'query.filter[0].close_date.<', 'format'],
      [{ 'name.first': { '=': 'x' } }, 'query.filter[0].name.first', 'invalid_path'],
    ];
    for (const [entry, field, code] of cases) {
      const answer = await query(api, 'deal', { query: { filter: [entry] } });
      assert.equal(answer.status, 400, JSON.stringify(entry));
      assert.equal(answer.body.error.code, 'invalid_request');
      assert.deepEqual(
        answer.body.error.errors.map((e: { field: string }) => e.field),
        [field],
      );
      assert.equal(answer.body.error.errors[0].code, code);
    }
    const operator = await query(api, 'deal', { query: { filter: [{ amount: { like: '1' } }] } });
    assert.equal(operator.status, 400, 'an unknown operator is refused at the door');
  });
});

describe('query combinator and sort', () => {
  test('combinator OR and AND; conditions inside one entry all hold', async (t) => {
    const { api, d1, d2, d3 } = await deals(t);
    const filter = [{ amount: { '<': '200' } }, { stage: { '=': 'proposal' } }];
    assert.deepEqual(await matching(api, filter, 'OR'), [d1, d3]);
    assert.deepEqual(await matching(api, filter, 'AND'), []);
    assert.deepEqual(await matching(api, filter), [], 'AND by default');
    assert.deepEqual(
      await matching(
        api,
        [{ amount: { '>=': '100', '<=': '250' } }, { stage: { '=': 'proposal' } }],
        'OR',
      ),
      [d1, d2, d3],
    );
  });

  test('sort priority follows the array order; missing values last; ties in creation order', async (t) => {
    const api = await recordsApi(t);
    const a = await api.create('contact', { name: 'Ann', city: 'Oslo' });
    const b = await api.create('contact', { name: 'Bob', city: 'Bergen' });
    const c = await api.create('contact', { name: 'Cid', city: 'Oslo' });
    const d = await api.create('contact', { name: 'Dan' });
    const sorted = async (sort: unknown[]) => ids(await query(api, 'contact', { query: { sort } }));
    assert.deepEqual(await sorted([{ city: 'asc' }, { name: 'desc' }]), [b.id, c.id, a.id, d.id]);
    assert.deepEqual(await sorted([{ name: 'desc' }, { city: 'asc' }]), [d.id, c.id, b.id, a.id]);
    assert.deepEqual(await sorted([{ city: 'desc' }]), [a.id, c.id, b.id, d.id]);
  });

  test('sort by a select follows option order; by a dot path', async (t) => {
    const { api, d1, d2, d3, d4 } = await deals(t);
    const by = async (sort: unknown[]) => ids(await query(api, 'deal', { query: { sort } }));
    assert.deepEqual(await by([{ stage: 'asc' }]), [d1, d3, d2, d4]);
    assert.deepEqual(await by([{ 'organization.name': 'desc' }]), [d2, d1, d3, d4]);
    const bad = await query(api, 'deal', { query: { sort: [{ colour: 'asc' }] } });
    assert.deepEqual(fields(bad), ['query.sort[0].colour']);
  });
});

describe('query select', () => {
  test('select [] returns ids only; dot paths return { id, properties }', async (t) => {
    const { api, acme, d1 } = await deals(t);
    const none = await query(api, 'deal', {
      query: { select: [], filter: [{ amount: { '=': '100' } }] },
    });
    assert.deepEqual(none.body.data, [{ id: d1, properties: {} }]);
    const dotted = await query(api, 'deal', {
      query: { select: ['id', 'name', 'organization.name'], filter: [{ amount: { '=': '100' } }] },
    });
    assert.deepEqual(dotted.body.data, [
      {
        id: d1,
        properties: {
          name: 'Alpha deal',
          organization: { id: acme.id, properties: { name: 'Acme' } },
        },
      },
    ]);
    const bad = await query(api, 'deal', { query: { select: ['name', 'colour'] } });
    assert.deepEqual(fields(bad), ['query.select[1]']);
  });
});

describe('query pagination', () => {
  async function many(t: TestContext, n: number) {
    const api = await recordsApi(t);
    const records = recordsOf(api.sandbox.store);
    const all: string[] = [];
    for (let i = 0; i < n; i++) {
      all.push(records.create('contact', { default: { name: `c${i}`, score: i % 7 } }).id);
    }
    return { api, all };
  }

  test('limit above 50 is rejected (400 at the door)', async (t) => {
    const { api } = await many(t, 1);
    const answer = await query(api, 'contact', { query: { limit: 51 } });
    assert.equal(answer.status, 400);
    assert.deepEqual(fields(answer), ['body.query.limit']);
    assert.equal((await query(api, 'contact', { query: { limit: 50 } })).status, 200);
  });

  test('a cursor round trip over 120 records: no duplicates, no gaps, in sort order', async (t) => {
    const { api, all } = await many(t, 120);
    const sort = [{ score: 'desc' }];
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body: Record<string, unknown> = { query: { sort, limit: 50 } };
      // Alternate the two places a cursor may travel.
      if (cursor !== null && pages % 2 === 1) body['cursor'] = cursor;
      else if (cursor !== null) (body['query'] as Record<string, unknown>)['cursor'] = cursor;
      const answer = await query(api, 'contact', body);
      assert.equal(answer.status, 200, answer.text);
      seen.push(...ids(answer));
      assert.equal(answer.body.has_more, answer.body.next_cursor !== null);
      cursor = answer.body.next_cursor;
      pages++;
    } while (cursor !== null);
    assert.equal(pages, 3);
    assert.equal(seen.length, 120);
    assert.equal(new Set(seen).size, 120);
    const scores = seen.map(
      (id) => recordsOf(api.sandbox.store).get('contact', id)!.default['score'] as number,
    );
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
    assert.deepEqual([...seen].sort(), [...all].sort());
  });

  test('has_more is false on an exactly full last page, sorted or not', async (t) => {
    const { api } = await many(t, 100);
    for (const sort of [[], [{ name: 'asc' }]]) {
      const first = await query(api, 'contact', { query: { limit: 50, sort } });
      assert.equal(first.body.has_more, true);
      const second = await query(api, 'contact', {
        cursor: first.body.next_cursor,
        query: { sort },
      });
      assert.equal(second.body.data.length, 50);
      assert.equal(second.body.has_more, false);
      assert.equal(second.body.next_cursor, null);
    }
  });

  test('query.cursor wins over the top-level cursor; a cursor fixes its page size', async (t) => {
    const { api, all } = await many(t, 30);
    const first = await query(api, 'contact', { query: { limit: 10 } });
    const next = await query(api, 'contact', {
      cursor: 'garbage',
      query: { cursor: first.body.next_cursor, limit: 3 },
    });
    assert.equal(next.status, 200);
    assert.deepEqual(ids(next), all.slice(10, 20));
  });

  test('a cursor of another query is 400; so is a cursor the API never issued', async (t) => {
    const { api } = await many(t, 60);
    const first = await query(api, 'contact', { query: { sort: [{ score: 'asc' }] } });
    const other = await query(api, 'contact', {
      query: { sort: [{ name: 'asc' }], cursor: first.body.next_cursor },
    });
    assert.equal(other.status, 400);
    assert.equal(other.body.error.code, 'invalid_request');
    assert.deepEqual(other.body.error.errors[0], {
      field: 'query.cursor',
      code: 'cursor_mismatch',
      message: 'the cursor belongs to another query',
    });
    const filtered = await query(api, 'contact', {
      cursor: first.body.next_cursor,
      query: { sort: [{ score: 'asc' }], filter: [{ score: { '>': '1' } }] },
    });
    assert.deepEqual(fields(filtered), ['cursor']);
    const forged = await query(api, 'contact', { query: { cursor: 'bm90IGEgY3Vyc29y' } });
    assert.equal(forged.body.error.errors[0].code, 'invalid_cursor');
    const list = await api.req('GET', `contact?city=Oslo&cursor=${first.body.next_cursor}`);
    assert.equal(list.status, 400);
    assert.deepEqual(fields(list), ['query.cursor']);
  });

  test('page is 1-based', async (t) => {
    const { api, all } = await many(t, 5);
    const page2 = await query(api, 'contact', { query: { limit: 2, page: 2 } });
    assert.deepEqual(ids(page2), all.slice(2, 4));
    assert.equal(page2.body.has_more, true);
    const page3 = await query(api, 'contact', { query: { limit: 2, page: 3 } });
    assert.deepEqual(ids(page3), all.slice(4));
    assert.equal(page3.body.has_more, false);
  });

  test('include_total: only when asked, the filtered count ignoring pagination', async (t) => {
    const { api } = await many(t, 70);
    const plain = await query(api, 'contact', { query: { limit: 5 } });
    assert.equal('total' in plain.body, false);
    const total = await query(api, 'contact', {
      query: { limit: 5, filter: [{ score: { '=': '0' } }] },
      include_total: true,
    });
    assert.equal(total.body.total, 10);
    assert.equal(total.body.data.length, 5);
  });
});

describe('query scope: deleted, id, list_id; count', () => {
  test('deleted: soft-deleted records only with deleted: true', async (t) => {
    const { api, d1, d2, d3, d4 } = await deals(t);
    await api.req('DELETE', `deal/${d2}`);
    assert.deepEqual(ids(await query(api, 'deal', {})), [d1, d3, d4]);
    assert.deepEqual(ids(await query(api, 'deal', { deleted: true })), [d1, d2, d3, d4]);
  });

  test('id: a string or an array restricts to those records', async (t) => {
    const { api, d2, d4 } = await deals(t);
    assert.deepEqual(ids(await query(api, 'deal', { id: d4 })), [d4]);
    assert.deepEqual(ids(await query(api, 'deal', { id: [d4, d2] })), [d2, d4]);
  });

  test('list_id: members of the list only, with the list’s own properties', async (t) => {
    const api = await recordsApi(t);
    const list = crypto.randomUUID();
    api.define('deal', { name: 'Priority', type: 'num', list_id: list });
    const a = await api.create('deal', { name: 'A' }, { [list]: { priority: 2 } });
    await api.create('deal', { name: 'B' });
    const c = await api.create('deal', { name: 'C' }, { [list]: { priority: 1 } });
    const answer = await query(api, 'deal', {
      query: { list_id: list, select: ['name', 'priority'], sort: [{ priority: 'asc' }] },
    });
    assert.deepEqual(answer.body.data, [
      { id: c.id, properties: { name: 'C', priority: 1 } },
      { id: a.id, properties: { name: 'A', priority: 2 } },
    ]);
    const outside = await query(api, 'deal', { query: { select: ['priority'] } });
    assert.deepEqual(fields(outside), ['query.select[0]'], 'list properties need the list');
  });

  test('count ignores filters', async (t) => {
    const { api } = await deals(t);
    assert.deepEqual((await api.req('GET', 'deal/count?stage=won&amount=1')).body, { total: 4 });
  });
});

describe('runQuery (the engine views share)', () => {
  test('runs a spec directly and names problems with the caller’s field names', async (t) => {
    const { api, d2, d3 } = await deals(t);
    const page = runQuery(api.sandbox.store, api.teamId, 'deal', {
      select: ['name'],
      filter: [{ amount: { '>': '200' } }],
      sort: [{ amount: 'desc' }],
      limit: 1,
      include_total: true,
    });
    assert.deepEqual(page.data, [{ id: d3, properties: { name: 'Gamma deal' } }]);
    assert.equal(page.total, 2);
    assert.equal(page.has_more, true);
    const next = runQuery(api.sandbox.store, api.teamId, 'deal', {
      select: ['name'],
      filter: [{ amount: { '>': '200' } }],
      sort: [{ amount: 'desc' }],
      cursor: page.next_cursor!,
    });
    assert.deepEqual(next.data, [{ id: d2, properties: { name: 'Beta' } }]);
    assert.equal(next.next_cursor, null);
    assert.throws(
      () =>
        runQuery(
          api.sandbox.store,
          api.teamId,
          'deal',
          { filter: [{ colour: { '=': 'x' } }], limit: 60 },
          { field: (path) => `view.${path}` },
        ),
      (err: unknown) =>
        err instanceof SandboxError &&
        err.status === 400 &&
        err.errors?.[0]?.field === 'view.filter[0].colour',
    );
    assert.throws(
      () => runQuery(api.sandbox.store, api.teamId, 'deal', { limit: 60 }),
      (err: unknown) => err instanceof SandboxError && err.errors?.[0]?.field === 'query.limit',
    );
  });
});
