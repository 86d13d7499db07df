// `event` and `engagement` records (the official client reaches them beyond api.md): the whole
// record surface of each over real HTTP, every answer checked against the contract; `event`
// has no import and no batch operations (404 saying what to do instead); the property
// definitions of comment, engagement and agent_site; views of comment and engagement; and an
// event automation that fires now that events are records.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { recordsApi } from './records-api.ts';

const TYPES = ['event', 'engagement'] as const;

const VALUES = {
  event: { title: 'Kick-off', starts_at: '2026-03-02T09:00:00Z', location: 'Paris' },
  engagement: { title: 'Intro call', kind: 'Call', occurred_at: '2026-03-02T10:30:00Z' },
} as const;

describe('event and engagement records', () => {
  for (const type of TYPES) {
    test(`${type}: create, read, list, query, count, patch, find, upsert, duplicate, delete, restore`, async (t) => {
      const api = await recordsApi(t);
      const created = await api.create(type, VALUES[type]);
      assert.equal(created.default.title, VALUES[type].title);
      if (type === 'engagement') assert.equal(created.default.kind, 'call', 'stored as the slug');

      const read = await api.req('GET', `${type}/${created.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.headers.etag, '"v1"');
      assert.deepEqual(read.body, created);

      const listed = await api.req('GET', type);
      assert.deepEqual(
        listed.body.data.map((r: { id: string }) => r.id),
        [created.id],
      );
      const queried = await api.req('POST', `${type}/query`, {
        body: { query: { select: ['title'], filter: [{ title: { contains: 'k' } }] } },
      });
      assert.equal(queried.status, 200);
      assert.equal(queried.body.data.length, type === 'event' ? 1 : 0);

      const patched = await api.req('PATCH', `${type}/${created.id}`, {
        body: { default: { title: 'Renamed' } },
        headers: { 'if-match': '"v1"' },
      });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.default.title, 'Renamed');
      const stale = await api.req('PATCH', `${type}/${created.id}`, {
        body: { default: { title: 'Again' } },
        headers: { 'if-match': '"v1"' },
      });
      assert.equal(stale.status, 412);

      const found = await api.req('GET', `${type}/by/title/Renamed`);
      assert.equal(found.status, 200);
      assert.equal(found.body.id, created.id);
      const upserted = await api.req('PUT', `${type}/by/title/Other`, {
        body: { default: {} },
      });
      assert.equal(upserted.status, 201);
      assert.equal(upserted.body.default.title, 'Other');
      const again = await api.req('PUT', `${type}/by/title/Other`, {
        body: { default: { notes: 'x' } },
      });
      // event has no `notes`: 400 naming it; engagement patches the one match.
      if (type === 'event') assert.equal(again.status, 400);
      else assert.equal(again.status, 200);

      const copy = await api.req('POST', `${type}/${created.id}/duplicate`);
      assert.equal(copy.status, 201);
      assert.notEqual(copy.body.id, created.id);
      assert.deepEqual((await api.req('GET', `${type}/count`)).body, { total: 3 });

      assert.equal((await api.req('DELETE', `${type}/${created.id}`)).status, 204);
      assert.equal((await api.req('GET', `${type}/${created.id}`)).status, 404);
      assert.deepEqual((await api.req('GET', `${type}/count`)).body, { total: 2 });
      const restored = await api.req('POST', `${type}/${created.id}/restore`);
      assert.equal(restored.status, 200);
      assert.equal(restored.body.default.title, 'Renamed');
    });
  }

  test('event records have no import and no batch operations: 404 saying what to do instead', async (t) => {
    const api = await recordsApi(t);
    const event = await api.create('event', { title: 'A' });
    for (const [path, body] of [
      ['event/import', { objects: [{ default: { title: 'B' } }] }],
      ['event/batch/update', { items: [{ id: event.id, default: { title: 'C' } }] }],
      ['event/batch/delete', { ids: [event.id] }],
    ] as const) {
      const answer = await api.req('POST', path, { body });
      assert.equal(answer.status, 404, path);
      assert.equal(answer.body.error.code, 'not_found');
      assert.match(
        answer.body.error.message,
        /^event records have no import and no batch update or delete: write them one by one/,
      );
    }
    assert.deepEqual((await api.req('GET', 'event/count')).body, { total: 1 });
  });

  test('engagement records import and batch update and delete', async (t) => {
    const api = await recordsApi(t);
    const imported = await api.req('POST', 'engagement/import', {
      body: {
        objects: [{ default: { title: 'A', kind: 'email' } }, { default: { title: 'B' } }],
        options: { dedupe_by: 'title' },
      },
    });
    assert.equal(imported.status, 200, imported.text);
    assert.equal(imported.body.succeeded, 2);
    const ids = imported.body.results.map((r: { id: string }) => r.id);
    const updated = await api.req('POST', 'engagement/batch/update', {
      body: { items: ids.map((id: string) => ({ id, default: { kind: 'meeting' } })) },
    });
    assert.deepEqual(updated.body.summary, { total: 2, succeeded: 2, failed: 0 });
    const deleted = await api.req('POST', 'engagement/batch/delete', { body: { ids } });
    assert.deepEqual(deleted.body.summary, { total: 2, succeeded: 2, failed: 0 });
    assert.deepEqual((await api.req('GET', 'engagement/count')).body, { total: 0 });
  });

  test('property definitions of comment, engagement and agent_site; views of comment and engagement', async (t) => {
    const api = await recordsApi(t);
    for (const [type, slugs] of [
      ['comment', ['body', 'author', 'posted_at']],
      ['engagement', ['title', 'kind', 'occurred_at', 'notes', 'contact', 'organization']],
      ['agent_site', ['name', 'url', 'status']],
    ] as const) {
      const answer = await api.req('GET', `${type}/properties`);
      assert.equal(answer.status, 200, type);
      const defs = Object.values(answer.body[type]) as { slug: string }[];
      assert.deepEqual(
        defs.map((d) => d.slug),
        slugs,
        type,
      );
      const created = await api.req('POST', `${type}/properties`, {
        body: { name: 'Rating', type: 'num' },
      });
      assert.equal(created.status, 201, created.text);
    }
    const all = await api.req('GET', 'properties');
    for (const type of ['comment', 'engagement', 'agent_site'])
      assert.ok(type in all.body, `the all-types listing has ${type}`);

    await api.create('engagement', { title: 'Big call', kind: 'call' });
    await api.create('engagement', { title: 'Small note', kind: 'note' });
    const view = await api.req('POST', 'engagement/views', {
      body: { name: 'Calls', view_type: 'grid', filter: [{ kind: { '=': 'call' } }] },
    });
    assert.equal(view.status, 201, view.text);
    const withRecords = await api.req('GET', `engagement/views/${view.body.id}?include=records`);
    assert.deepEqual(
      withRecords.body.records.data.map(
        (r: { properties: { title: string } }) => r.properties.title,
      ),
      ['Big call'],
    );
    const comments = await api.req('POST', 'comment/views', {
      body: { name: 'Recent', view_type: 'list', sort: [{ posted_at: 'desc' }] },
    });
    assert.equal(comments.status, 201, comments.text);
    const commentRecords = await api.req('GET', `comment/views/${comments.body.id}/records`);
    assert.deepEqual(commentRecords.body, { data: [], has_more: false, next_cursor: null });
    // Comments have views but no record routes.
    assert.equal((await api.req('GET', 'comment')).status, 404);
  });

  test('an event automation fires now that events are records', async (t) => {
    const api = await recordsApi(t);
    const automation = await api.req('POST', 'event/triggered_automations', {
      body: {
        kind: 'lifecycle',
        name: 'New event',
        on_create: true,
        state: { filter: [{ title: { is_not_null: true } }] },
        actions: [{ type: 'agent', agent_id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427' }],
      },
    });
    assert.equal(automation.status, 201, automation.text);
    const event = await api.create('event', { title: 'Launch' });
    const direct = await fetch(`${api.sandbox.url}/__sandbox/automation_runs?object_type=event`, {
      headers: { 'x-api-key': api.sandbox.apiKey },
    });
    const body = (await direct.json()) as { data: { record_id: string; status: string }[] };
    assert.deepEqual(
      body.data.map((r) => [r.record_id, r.status]),
      [[event.id, 'completed']],
    );
  });
});
