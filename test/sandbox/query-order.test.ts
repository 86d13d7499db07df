// Sorted query pages against the straightforward full sort. The query engine answers a page
// from a bounded heap, from a result set sorted once, or from a set brought up to date after
// writes (results.ts); whichever it takes, every page must be the slice of what filtering every
// record and sorting every match (the engine's former way) gives: same records, same order
// (ties in creation order, missing values last), same has_more, next_cursor and total. Data
// is random but seeded (mulberry32), with many ties, missing and odd values, and writes of
// every kind between the queries.

import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import type { ObjectType } from '../../src/sandbox/object-types.ts';
import {
  type Combinator,
  compileFilter,
  compileSort,
  type FilterEntry,
  type SortEntry,
  sortRecords,
} from '../../src/sandbox/resources/records/filter.ts';
import { CHANGES_KEPT, recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { type QuerySpec, runQuery } from '../../src/sandbox/resources/records/query.ts';
import { CATCH_UP_MAX } from '../../src/sandbox/resources/records/results.ts';
import type { Values } from '../../src/sandbox/resources/records/types.ts';
import { mulberry32 } from '../../src/sandbox/seed.ts';
import type { Store } from '../../src/sandbox/store.ts';
import { ids, type RecordsApi, recordsApi } from './records-api.ts';

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

// Few distinct values, so sorts tie often; case and accents that order apart; odd values
// stored as they are (the model keeps what it is given), which sort as the engine reads them.
const NAMES = ['ann', 'Ann', 'ANN', 'bob', 'Bob', 'cid', '', 'Émile', 'émile', 'zoë', 42];
const CITIES = ['Oslo', 'oslo', 'Lima', 'Paris'];
const STATUSES = ['lead', 'customer', 'churned', 'no_such_option'];
const TAGS = [['vip'], ['partner', 'vip'], ['newsletter'], [], ['vip', 'newsletter']];
const DATES = ['2025-01-06', '2025-01-06T08:00:00.000Z', '2024-12-31', 'not a date', '2025-01-06'];
const SCORES = [0, 1, 1, 2, 3, 3, -1, 2.5, '7'];
const METAS = [1, 'b', { a: 1 }, ['x', 'y'], true, 'B', null];

/** Values of a contact: each property missing about a third of the time. */
function valuesOf(random: Random, organizations: readonly string[]): Values {
  const values: Values = {};
  const maybe = (slug: string, value: () => unknown) => {
    if (random() < 0.66) values[slug] = value();
  };
  maybe('name', () => pick(random, NAMES));
  maybe('city', () => pick(random, CITIES));
  maybe('status', () => pick(random, STATUSES));
  maybe('tags', () => pick(random, TAGS));
  maybe('birthday', () => pick(random, DATES));
  maybe('score', () => pick(random, SCORES));
  maybe('subscribed', () => random() < 0.5);
  maybe('organization', () => pick(random, organizations));
  maybe('meta', () => pick(random, METAS));
  for (const [slug, value] of Object.entries(values)) if (value === null) delete values[slug];
  return values;
}

const SORTS: (SortEntry[] | undefined)[] = [
  [{ score: 'desc' }],
  [{ name: 'asc' }],
  [{ city: 'asc' }, { name: 'desc' }],
  [{ status: 'asc' }, { score: 'asc' }],
  [{ birthday: 'desc' }, { subscribed: 'asc' }],
  [{ tags: 'desc' }, { meta: 'asc' }],
  [{ 'organization.name': 'asc' }, { score: 'desc' }],
  [{ subscribed: 'desc' }, { city: 'desc' }, { birthday: 'asc' }],
  undefined,
];
const FILTERS: { filter?: FilterEntry[]; combinator?: Combinator }[] = [
  {},
  { filter: [{ score: { '>=': '1' } }] },
  { filter: [{ city: { in: ['Oslo', 'Lima'] } }, { name: { is_null: true } }], combinator: 'OR' },
  { filter: [{ status: { '!=': 'lead' } }, { subscribed: { '=': 'true' } }] },
  { filter: [{ 'organization.name': { begins_with: 'a' } }] },
];

interface Fixture {
  store: Store;
  teamId: string;
  /** A list some contacts are members of, with its own property `rank`. */
  list: string;
  contacts: string[];
  organizations: string[];
}

/** A sandbox with `n` random contacts and a few organizations (a dot path's targets). */
async function fixture(t: TestContext, random: Random, n: number): Promise<Fixture> {
  const api = await recordsApi(t);
  const store = api.sandbox.store;
  const list = crypto.randomUUID();
  api.define('contact', { name: 'Meta', type: 'jsonb' });
  api.define('contact', { name: 'Rank', type: 'num', list_id: list });
  const records = recordsOf(store);
  const organizations = ['acme', 'Acme', 'bolt', 'axis'].map(
    (name) => records.create('organization', { default: { name } }).id,
  );
  const contacts: string[] = [];
  for (let i = 0; i < n; i++) {
    const lists = random() < 0.4 ? { [list]: rankOf(random) } : {};
    contacts.push(
      records.create('contact', { default: valuesOf(random, organizations), lists }).id,
    );
  }
  return { store, teamId: api.teamId, list, contacts, organizations };
}

function rankOf(random: Random): Values {
  return random() < 0.8 ? { rank: Math.floor(random() * 4) } : {};
}

/** One random write: an update, a cleared value, a delete, a restore, a create, a list move. */
function write(random: Random, f: Fixture): void {
  const records = recordsOf(f.store);
  const id = pick(random, f.contacts);
  const kind = random();
  if (kind < 0.35) {
    const changes = valuesOf(random, f.organizations);
    if (random() < 0.3) changes[pick(random, ['name', 'score', 'city', 'birthday'])] = null;
    records.update('contact', id, { default: changes });
  } else if (kind < 0.5) {
    records.softDelete('contact', id);
  } else if (kind < 0.62) {
    records.restore('contact', id);
  } else if (kind < 0.77) {
    const lists = random() < 0.5 ? { [f.list]: rankOf(random) } : {};
    f.contacts.push(
      records.create('contact', { default: valuesOf(random, f.organizations), lists }).id,
    );
  } else if (kind < 0.9) {
    records.update('contact', id, {
      lists: { [f.list]: random() < 0.3 ? null : rankOf(random) },
    });
  } else {
    const organization = pick(random, f.organizations);
    records.update('organization', organization, {
      default: { name: pick(random, ['acme', 'Bolt', 'axis', 'zed']) },
    });
  }
}

/** The ids of every match in order: filter every record, sort every match (stable). */
function fullSort(f: Fixture, spec: QuerySpec): string[] {
  const listId = spec.list_id ?? null;
  const scope = { store: f.store, teamId: f.teamId, type: 'contact' as ObjectType, listId };
  const name = (path: string) => path;
  const filter = compileFilter(scope, spec.filter, spec.combinator ?? 'AND', name);
  const sort = compileSort(scope, spec.sort, name);
  const matches = [
    ...recordsOf(f.store).records('contact', { includeDeleted: spec.deleted === true }),
  ].filter(
    (record) =>
      (listId === null || record.lists[listId] !== undefined) &&
      (filter === undefined || filter(record)),
  );
  return (sort === undefined ? matches : sortRecords(matches, sort)).map((r) => r.id);
}

/** Assert the page of `spec` at `offset` is the full sort's slice there. */
function assertPage(f: Fixture, spec: QuerySpec, offset: number, limit: number, why: string) {
  const page = runQuery(f.store, f.teamId, 'contact', { ...spec, select: [] });
  const all = fullSort(f, spec);
  const more = all.length > offset + limit;
  assert.deepEqual(
    page.data.map((row) => row.id),
    all.slice(offset, offset + limit),
    `${why}: the page at ${offset}`,
  );
  assert.equal(page.has_more, more, `${why}: has_more at ${offset}`);
  assert.equal(page.next_cursor !== null, more, `${why}: next_cursor at ${offset}`);
  if (spec.include_total === true) assert.equal(page.total, all.length, `${why}: total`);
  return page;
}

describe('sorted pages equal slices of the full sort', () => {
  for (const seed of [1, 2, 3]) {
    test(`random data, sorts, filters, offsets and writes (seed ${seed})`, async (t) => {
      const random = mulberry32(seed);
      const f = await fixture(t, random, 240);
      // A few queries asked again and again (so cached sets are reused, sorted and brought up
      // to date), with offsets near the start (heap) and far (sorted set), and writes between.
      const pool = Array.from({ length: 12 }, (): QuerySpec => {
        const onList = random() < 0.2;
        return {
          ...pick(random, FILTERS),
          sort: onList ? [{ rank: 'asc' }, { name: 'desc' }] : pick(random, SORTS),
          deleted: random() < 0.2,
          ...(onList ? { list_id: f.list } : {}),
        };
      });
      for (let round = 0; round < 300; round++) {
        const why = `seed ${seed}, round ${round}`;
        const base = pick(random, pool);
        const limit = pick(random, [1, 2, 5, 13, 50]);
        const matches = fullSort(f, base).length;
        const pages = Math.ceil(matches / limit) + 1;
        // Mostly the first pages, sometimes any page up to one past the last.
        const page =
          random() < 0.6 ? 1 + Math.floor(random() * 3) : 1 + Math.floor(random() * pages);
        const spec = { ...base, limit, page, include_total: random() < 0.3 };
        assertPage(f, spec, (page - 1) * limit, limit, why);
        // Now and then more writes than a set catches up with, or than the model remembers.
        const burst = random();
        const writes =
          burst < 0.02
            ? CHANGES_KEPT + 5
            : burst < 0.04
              ? CATCH_UP_MAX + 20
              : Math.floor(random() * 4);
        for (let i = 0; i < writes; i++) write(random, f);
      }
    });
  }

  test('a cursor walk with writes between its pages: each page is the slice at its offset', async (t) => {
    const random = mulberry32(9);
    const f = await fixture(t, random, 200);
    for (const sort of SORTS) {
      const spec: QuerySpec = { sort, limit: 7, filter: [{ score: { '>=': '1' } }] };
      let cursor: string | null = null;
      let offset = 0;
      do {
        const page = assertPage(
          f,
          cursor === null ? spec : { ...spec, cursor },
          offset,
          7,
          `sort ${JSON.stringify(sort)}`,
        );
        cursor = page.next_cursor;
        offset += 7;
        for (let i = Math.floor(random() * 3); i > 0; i--) write(random, f);
      } while (cursor !== null);
    }
  });
});

describe('the records change log', () => {
  test('changesSince: every change after a generation, until they are too many or replaced', async (t) => {
    const random = mulberry32(4);
    const f = await fixture(t, random, 3);
    const records = recordsOf(f.store);
    const start = records.generation;
    assert.deepEqual(records.changesSince(start), []);
    const created = records.create('deal', { default: { name: 'x' } });
    records.update('contact', f.contacts[0]!, { default: { score: 99 } });
    records.update('contact', f.contacts[0]!, { default: { score: 99 } }); // no change
    records.softDelete('deal', created.id);
    const changes = records.changesSince(start)!;
    assert.deepEqual(
      changes.map((c) => [c.type, c.record.id, c.created]),
      [
        ['deal', created.id, true],
        ['contact', f.contacts[0], false],
        ['deal', created.id, false],
      ],
    );
    assert.equal(records.generation, start + 3);
    assert.deepEqual(records.changesSince(start + 2)!.length, 1);
    for (let i = 0; i < 2 * CHANGES_KEPT; i++)
      records.update('deal', created.id, { default: { amount: i } });
    assert.equal(records.changesSince(start), undefined, 'forgotten after too many changes');
    assert.equal(records.changesSince(records.generation - CHANGES_KEPT)!.length, CHANGES_KEPT);
    const before = records.generation;
    f.store.reset();
    assert.equal(records.changesSince(before), undefined, 'a reset replaces every record');
    assert.deepEqual(records.changesSince(records.generation), []);
  });
});

describe('cursor walks over HTTP', () => {
  /** 150 contacts with many ties, made through the store; the query filters and sorts. */
  async function walkFixture(t: TestContext) {
    const api = await recordsApi(t);
    const random = mulberry32(11);
    const records = recordsOf(api.sandbox.store);
    const contacts: string[] = [];
    for (let i = 0; i < 150; i++) {
      const values: Values = { name: pick(random, ['ann', 'Ann', 'bob', 'cid']) };
      if (random() < 0.8) values['city'] = pick(random, CITIES);
      if (random() < 0.9) values['score'] = Math.floor(random() * 5);
      contacts.push(records.create('contact', { default: values }).id);
    }
    const sort: SortEntry[] = [{ city: 'asc' }, { name: 'desc' }];
    const query = { select: ['name'], filter: [{ score: { '>=': '1' } }], sort, limit: 20 };
    const f: Fixture = {
      store: api.sandbox.store,
      teamId: api.teamId,
      list: '',
      contacts,
      organizations: [],
    };
    return { api, random, contacts, query, order: () => fullSort(f, query) };
  }

  async function page(api: RecordsApi, query: object, cursor: string | null) {
    const answer = await api.req('POST', 'contact/query', {
      body: cursor === null ? { query } : { query, cursor },
    });
    assert.equal(answer.status, 200, answer.text);
    return answer;
  }

  /** Every id of a cursor walk; `between` runs after each page (given how many ids came). */
  async function walk(api: RecordsApi, query: object, between?: (seen: number) => Promise<void>) {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await page(api, query, cursor);
      seen.push(...ids(answer));
      cursor = answer.body.next_cursor;
      await between?.(seen.length);
    } while (cursor !== null);
    return seen;
  }

  test('after writes, a walk returns every match once, in the order of the full sort', async (t) => {
    const { api, random, contacts, query, order } = await walkFixture(t);
    await page(api, query, null); // the result set exists before the writes
    for (let i = 0; i < 12; i++) {
      const id = pick(random, contacts);
      const patch = await api.req('PATCH', `contact/${id}`, {
        body: { default: { score: Math.floor(random() * 5), city: pick(random, CITIES) } },
      });
      assert.equal(patch.status, 200, patch.text);
    }
    await api.req('DELETE', `contact/${contacts[3]}`);
    await api.create('contact', { name: 'Ann', city: 'Lima', score: 4 });
    const seen = await walk(api, query);
    assert.equal(new Set(seen).size, seen.length, 'no record twice');
    assert.deepEqual(seen, order());
  });

  test('writes between pages that move nothing leave the walk whole; others shift it by offset', async (t) => {
    const { api, random, contacts, query, order } = await walkFixture(t);
    const expected = order();
    // Neither filtered nor sorted on: the order stays, the sets catch up with the writes.
    const seen = await walk(api, query, async (at) => {
      await api.req('PATCH', `contact/${pick(random, contacts)}`, {
        body: { default: { email: `x${at}@example.com` } },
      });
      await api.create('organization', { name: `Org ${at}` });
    });
    assert.deepEqual(seen, expected);

    // A write that moves a record: the next page is the slice of the new order at the
    // cursor's offset (cursors carry an offset), so the walk stays exact page by page.
    const first = await page(api, query, null);
    const moved = ids(first)[0]!;
    await api.req('PATCH', `contact/${moved}`, { body: { default: { city: 'Paris' } } });
    const second = await page(api, query, first.body.next_cursor);
    assert.deepEqual(ids(second), order().slice(20, 40));
    assert.ok(order().includes(moved));
  });
});
