import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type PageOf, paginate } from '../../src/api/paginate.ts';

/** A fake list of `n` items served by offset cursors; records each request. */
function source(n: number) {
  const calls: { cursor: string | undefined; size: number }[] = [];
  const fetchPage = async (cursor: string | undefined, size: number): Promise<PageOf<number>> => {
    calls.push({ cursor, size });
    const from = cursor ? Number(cursor) : 0;
    const data = Array.from({ length: Math.max(0, Math.min(size, n - from)) }, (_, i) => from + i);
    const next = from + data.length;
    return { data, has_more: next < n, next_cursor: next < n ? String(next) : null, total: n };
  };
  return { calls, fetchPage };
}

async function collect<T>(it: AsyncGenerator<{ rows: T[] }>): Promise<T[]> {
  const out: T[] = [];
  for await (const p of it) out.push(...p.rows);
  return out;
}

describe('paginate', () => {
  it('--limit N reads N items however many pages that takes, asking only for what is left', async () => {
    const s = source(500);
    const items = await collect(paginate(s.fetchPage, { limit: 120 }));
    assert.deepEqual(
      items,
      Array.from({ length: 120 }, (_, i) => i),
    );
    assert.deepEqual(s.calls, [
      { cursor: undefined, size: 50 },
      { cursor: '50', size: 50 },
      { cursor: '100', size: 20 },
    ]);
  });

  it('--all reads to the end in the minimum number of requests', async () => {
    const s = source(200);
    const items = await collect(paginate(s.fetchPage, { all: true }));
    assert.equal(items.length, 200);
    assert.equal(new Set(items).size, 200);
    assert.equal(s.calls.length, 4);
  });

  it('stops when the API has no more, even below the limit', async () => {
    const s = source(30);
    const items = await collect(paginate(s.fetchPage, { limit: 100 }));
    assert.equal(items.length, 30);
    assert.equal(s.calls.length, 1);
  });

  it('defaults to one page, and reports totals and page numbers', async () => {
    const s = source(75);
    const events = [];
    for await (const e of paginate(s.fetchPage, { pageSize: 10, limit: 25 }))
      events.push({ n: e.rows.length, total: e.total, page: e.page, seen: e.seen });
    assert.deepEqual(events, [
      { n: 10, total: 75, page: 1, seen: 10 },
      { n: 10, total: 75, page: 2, seen: 20 },
      { n: 5, total: 75, page: 3, seen: 25 },
    ]);
    const one = source(75);
    assert.equal((await collect(paginate(one.fetchPage))).length, 50);
  });
});
