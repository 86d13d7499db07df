// A view's records and pins over real HTTP, every answer checked against the contract:
// GET …/views/{viewId}/records (the view's filter and sort, pinned records first in their
// record_order, paged across the two), POST and DELETE …/records/{objectId} to pin and
// unpin, PATCH …/records { object_ids } to reorder; the pins survive the data file.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { launchSandbox } from '../../src/sandbox/sandbox.ts';
import { startFor, tempDir } from './helpers.ts';
import { type RecordsApi, recordsApi } from './records-api.ts';

/** Deals named d1…d5 with amounts 10…50, and a view of those over 15, largest first. */
async function fixture(api: RecordsApi) {
  const deals: string[] = [];
  for (let n = 1; n <= 5; n++)
    deals.push((await api.create('deal', { name: `d${n}`, amount: n * 10 })).id);
  const created = await api.req('POST', 'deal/views', {
    body: {
      name: 'Big',
      view_type: 'grid',
      select: ['name'],
      filter: [{ amount: { '>': '15' } }],
      sort: [{ amount: 'desc' }],
    },
  });
  assert.equal(created.status, 201, created.text);
  return { deals, view: created.body.id as string };
}

const names = (page: { data: { properties: { name: string } }[] }) =>
  page.data.map((r) => r.properties.name);

describe("a view's records and pins", () => {
  test('records: the view’s filter and sort; pinned ones first, in record_order', async (t) => {
    const api = await recordsApi(t);
    const { deals, view } = await fixture(api);
    const plain = await api.req('GET', `deal/views/${view}/records`);
    assert.equal(plain.status, 200);
    assert.deepEqual(names(plain.body), ['d5', 'd4', 'd3', 'd2']);
    assert.deepEqual(
      plain.body,
      (await api.req('GET', `deal/views/${view}?include=records`)).body.records,
    );

    const pin = await api.req('POST', `deal/views/${view}/records/${deals[2]}`);
    assert.equal(pin.status, 200, pin.text);
    assert.deepEqual(pin.body.record_order, [deals[2]]);
    await api.req('POST', `deal/views/${view}/records/${deals[1]}`);
    // d1 is pinned but the filter leaves it out: not shown.
    await api.req('POST', `deal/views/${view}/records/${deals[0]}`);
    const again = await api.req('POST', `deal/views/${view}/records/${deals[2]}`);
    assert.deepEqual(
      again.body.record_order,
      [deals[2], deals[1], deals[0]],
      'a pin keeps its place',
    );
    const pinned = await api.req('GET', `deal/views/${view}/records`);
    assert.deepEqual(names(pinned.body), ['d3', 'd2', 'd5', 'd4']);
    const read = await api.req('GET', `deal/views/${view}?include=records`);
    assert.deepEqual(read.body.records, pinned.body);
    assert.deepEqual(read.body.view.record_order, [deals[2], deals[1], deals[0]]);

    // Pages run across the pinned and the rest, each record once.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await api.req(
        'GET',
        `deal/views/${view}/records?limit=3${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      assert.equal(page.status, 200, page.text);
      seen.push(...names(page.body));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor !== null);
    assert.deepEqual(seen, ['d3', 'd2', 'd5', 'd4']);
    assert.equal(pages, 2);
    const second = await api.req('GET', `deal/views/${view}/records?limit=2&page=2`);
    assert.deepEqual(names(second.body), ['d5', 'd4']);
    assert.equal(second.body.has_more, false);
    const exact = await api.req('GET', `deal/views/${view}/records?limit=2`);
    assert.equal(exact.body.has_more, true, 'more after the pinned ones');

    // A deleted pinned record is not shown, and is again once restored.
    await api.req('DELETE', `deal/${deals[2]}`);
    assert.deepEqual(names((await api.req('GET', `deal/views/${view}/records`)).body), [
      'd2',
      'd5',
      'd4',
    ]);
    await api.req('POST', `deal/${deals[2]}/restore`);
    assert.deepEqual(names((await api.req('GET', `deal/views/${view}/records`)).body), [
      'd3',
      'd2',
      'd5',
      'd4',
    ]);
  });

  test('reorder: the ids named first, the other pins after in their order', async (t) => {
    const api = await recordsApi(t);
    const { deals, view } = await fixture(api);
    for (const id of [deals[1], deals[2], deals[3]])
      await api.req('POST', `deal/views/${view}/records/${id}`);
    const first = await api.req('GET', `deal/views/${view}/records?limit=1`);
    const reordered = await api.req('PATCH', `deal/views/${view}/records`, {
      body: { object_ids: [deals[3]!.toUpperCase(), deals[1]] },
    });
    assert.equal(reordered.status, 200, reordered.text);
    assert.deepEqual(reordered.body.record_order, [deals[3], deals[1], deals[2]]);
    assert.deepEqual(names((await api.req('GET', `deal/views/${view}/records`)).body), [
      'd4',
      'd2',
      'd3',
      'd5',
    ]);
    // The pins changed: a cursor from before is refused.
    const stale = await api.req(
      'GET',
      `deal/views/${view}/records?cursor=${first.body.next_cursor}`,
    );
    assert.equal(stale.status, 400);
    assert.equal(stale.body.error.errors[0].field, 'query.cursor');

    const notPinned = await api.req('PATCH', `deal/views/${view}/records`, {
      body: { object_ids: [deals[0]] },
    });
    assert.equal(notPinned.status, 400);
    assert.equal(notPinned.body.error.errors[0].field, 'body.object_ids[0]');
    assert.equal(notPinned.body.error.errors[0].code, 'not_pinned');
    const none = await api.req('PATCH', `deal/views/${view}/records`, { body: { object_ids: [] } });
    assert.deepEqual(
      none.body.record_order,
      [deals[3], deals[1], deals[2]],
      'nothing named: no change',
    );
    for (const body of [{ object_ids: [deals[1], deals[1]] }, { ids: [deals[1]] }]) {
      const bad = await api.req('PATCH', `deal/views/${view}/records`, { body });
      assert.equal(bad.status, 400, JSON.stringify(body));
    }
    // A view patch does not touch the pins (record_order is read-only there).
    const patched = await api.req('PATCH', `deal/views/${view}`, {
      body: { name: 'Bigger', record_order: [] },
    });
    assert.deepEqual(patched.body.record_order, [deals[3], deals[1], deals[2]]);
  });

  test('unpin: 204, then 404; pins of unknown, deleted or other records are 404', async (t) => {
    const api = await recordsApi(t);
    const { deals, view } = await fixture(api);
    await api.req('POST', `deal/views/${view}/records/${deals[4]}`);
    const unpin = await api.req('DELETE', `deal/views/${view}/records/${deals[4]}`);
    assert.equal(unpin.status, 204);
    assert.equal(unpin.text, '');
    const twice = await api.req('DELETE', `deal/views/${view}/records/${deals[4]}`);
    assert.equal(twice.status, 404);
    assert.match(twice.body.error.message, /is not pinned in the view 'Big'/);

    const contact = await api.create('contact', { name: 'Ada' });
    const other = await api.req('POST', `deal/views/${view}/records/${contact.id}`);
    assert.equal(other.status, 404);
    assert.match(other.body.error.message, /^No deal record has the id/);
    await api.req('DELETE', `deal/${deals[0]}`);
    const deleted = await api.req('POST', `deal/views/${view}/records/${deals[0]}`);
    assert.equal(deleted.status, 404);
    assert.match(deleted.body.error.message, /\(it is deleted\)/);
    const noView = await api.req('POST', `deal/views/${crypto.randomUUID()}/records/${deals[1]}`);
    assert.equal(noView.status, 404);
    const wrongType = await api.req('GET', `organization/views/${view}/records`);
    assert.equal(wrongType.status, 404);
    const notUuid = await api.req('POST', `deal/views/${view}/records/nope`);
    assert.equal(notUuid.status, 400);
  });

  test('pins survive a restart with a data file', async (t) => {
    const dataFile = join(await tempDir(t), 'sandbox.json');
    const first = await launchSandbox({ dataFile, validateResponses: true });
    const base = `/v2/prism/${first.teamId}`;
    const post = async (path: string, body?: unknown) => {
      const res = await fetch(`${first.url}${base}/${path}`, {
        method: 'POST',
        headers: { 'x-api-key': first.apiKey, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await res.json()) as { id: string; record_order?: string[] };
    };
    const deal = await post('deal', { default: { name: 'Pinned' } });
    const view = await post('deal/views', { name: 'All', view_type: 'list' });
    await post(`deal/views/${view.id}/records/${deal.id}`);
    await first.close();
    const second = await startFor(t, { dataFile, validateResponses: true });
    const res = await fetch(`${second.url}${base}/deal/views/${view.id}`, {
      headers: { 'x-api-key': second.apiKey },
    });
    assert.deepEqual(((await res.json()) as { record_order: string[] }).record_order, [deal.id]);
    assert.deepEqual(second.contractViolations, []);
  });
});
