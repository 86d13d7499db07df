// The five triggered-automation endpoints of the sandbox over real HTTP, every answer
// checked against the contract: create (201, etag, idempotent replay), list (list_id, kind,
// cursor, page, limit 0 to 50), get (etag), replace (PUT, the etag moves only on a change),
// delete (204, then 404), and the object types of the path.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  api,
  assertError,
  createAutomation,
  LIST_A,
  NO_SUCH_ID,
  ok,
  sandboxFor,
  UUID,
  WEBHOOK_ID,
} from './helpers.ts';

const WON = {
  kind: 'update',
  name: 'Deal won',
  changeset: { filter: [{ stage: { to: { '=': 'won' } } }] },
  actions: [{ type: 'webhook', webhook_id: WEBHOOK_ID }],
};

describe('automations: create, read, replace, delete', () => {
  test('create answers 201 with the automation, its defaults and an etag; GET answers the same', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const created = ok(await http.post('deal/triggered_automations', WON), 201);
    assert.equal(created.headers.etag, '"v1"');
    const body = created.body;
    assert.match(body.id, UUID);
    assert.deepEqual(
      { ...body, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        object_type: 'deal',
        kind: 'update',
        name: 'Deal won',
        actions: [{ type: 'webhook', webhook_id: WEBHOOK_ID }],
        changeset: { combinator: 'AND', filter: [{ stage: { to: { '=': 'won' } } }] },
        state: null,
        enabled: true,
        on_create: null,
        on_delete: null,
        list_id: null,
        team_id: sandbox.teamId,
        user_id: '41ab427f-7808-53d8-b44f-8496643cd48f',
        created_at: undefined,
        updated_at: undefined,
      },
    );
    const read = ok(await http.get(`deal/triggered_automations/${body.id}`));
    assert.deepEqual(read.body, body);
    assert.equal(read.headers.etag, '"v1"');

    const lifecycle = await createAutomation(sandbox, 'deal', {
      kind: 'lifecycle',
      name: 'New deal',
      state: { filter: [{ amount: { '>': '100' } }] },
      on_delete: true,
    });
    assert.deepEqual(
      [lifecycle.on_create, lifecycle.on_delete, lifecycle.changeset, lifecycle.actions],
      [false, true, null, []],
    );
  });

  test('a retried create with the same Idempotency-Key is replayed, not created twice', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const key = { 'idempotency-key': 'create-won-1' };
    const first = ok(await http.post('deal/triggered_automations', WON, key), 201);
    const again = ok(await http.post('deal/triggered_automations', WON, key), 201);
    assert.equal(again.headers['idempotent-replay'], 'true');
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.headers.etag, '"v1"');
    const other = await http.post('deal/triggered_automations', { ...WON, name: 'x' }, key);
    assertError(other, 409, 'idempotency_key_mismatch');
    assert.equal(ok(await http.get('deal/triggered_automations')).body.data.length, 1);
  });

  test('PUT replaces the whole automation; the etag moves only when it changed', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const created = await createAutomation(sandbox, 'deal', { ...WON, enabled: false });
    const path = `deal/triggered_automations/${created.id}`;
    // What GET answered can be sent back as it is: nothing changes.
    const same = ok(await http.put(path, created));
    assert.equal(same.headers.etag, '"v1"');
    assert.deepEqual(same.body, created);
    const replaced = ok(
      await http.put(path, {
        kind: 'lifecycle',
        name: 'Renamed',
        state: { filter: [] },
        on_create: true,
      }),
    );
    assert.equal(replaced.headers.etag, '"v2"');
    assert.deepEqual(
      {
        kind: replaced.body.kind,
        name: replaced.body.name,
        changeset: replaced.body.changeset,
        actions: replaced.body.actions,
        enabled: replaced.body.enabled,
        on_create: replaced.body.on_create,
        created_at: replaced.body.created_at,
      },
      {
        kind: 'lifecycle',
        name: 'Renamed',
        changeset: null,
        actions: [],
        enabled: true,
        on_create: true,
        created_at: created.created_at,
      },
      'fields left out take their defaults again',
    );
    assert.equal(ok(await http.get(path)).headers.etag, '"v2"');
    assertError(await http.put(`deal/triggered_automations/${NO_SUCH_ID}`, WON), 404, 'not_found');
  });

  test('DELETE answers 204, then 404', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const created = await createAutomation(sandbox, 'deal', WON);
    const path = `deal/triggered_automations/${created.id}`;
    const gone = ok(await http.delete(path), 204);
    assert.equal(gone.text, '');
    assertError(await http.delete(path), 404, 'not_found');
    assertError(await http.get(path), 404, 'not_found');
  });

  test('an automation is found only under its own object type', async (t) => {
    const sandbox = await sandboxFor(t);
    const created = await createAutomation(sandbox, 'deal', WON);
    const answer = await api(sandbox).get(`contact/triggered_automations/${created.id}`);
    assertError(answer, 404, 'not_found');
    assert.match(answer.body.error.message, /No contact automation has the id/);
  });

  test('the nine object types of api.md are served; any other is 404 naming them', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    for (const type of [
      'message',
      'action',
      'event',
      'document',
      'identity',
      'linkedin_message',
      'deal',
      'organization',
      'contact',
    ]) {
      ok(await http.get(`${type}/triggered_automations`));
    }
    // Types without definitions in the sandbox take any slug.
    await createAutomation(sandbox, 'message', {
      kind: 'update',
      name: 'Any slug',
      changeset: { filter: [{ subject: {} }] },
    });
    const unknown = await http.get('widget/triggered_automations');
    assertError(unknown, 404, 'not_found');
    assert.equal(
      unknown.body.error.message,
      "Unknown object type 'widget' for triggered automations. Known object types: message, action, event, document, identity, linkedin_message, deal, organization, contact.",
    );
    assertError(await http.get('ai_chat_thread/triggered_automations'), 404, 'not_found');
  });
});

describe('automations: listing', () => {
  test('list_id, kind, limit, cursor and page select the page', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const names: string[] = [];
    for (let i = 0; i < 5; i++) {
      const body =
        i % 2 === 0
          ? { ...WON, name: `u${i}`, ...(i === 4 ? { list_id: LIST_A } : {}) }
          : { kind: 'lifecycle', name: `l${i}`, state: { filter: [] }, on_create: true };
      names.push((await createAutomation(sandbox, 'deal', body)).name);
    }
    await createAutomation(sandbox, 'contact', {
      ...WON,
      name: 'other type',
      changeset: { filter: [{ status: {} }] },
    });
    const list = async (query: string) =>
      ok(await http.get(`deal/triggered_automations${query}`)).body;
    const namesOf = (page: { data: { name: string }[] }) => page.data.map((a) => a.name);

    const all = await list('');
    assert.deepEqual(namesOf(all), names, 'creation order, every list');
    assert.deepEqual([all.has_more, all.next_cursor], [false, null]);
    assert.deepEqual(namesOf(await list('?kind=update')), ['u0', 'u2', 'u4']);
    assert.deepEqual(namesOf(await list('?kind=lifecycle')), ['l1', 'l3']);
    assert.deepEqual(namesOf(await list(`?list_id=${LIST_A}`)), ['u4']);

    const first = await list('?limit=2');
    assert.deepEqual([namesOf(first), first.has_more], [['u0', 'l1'], true]);
    const second = await list(`?cursor=${first.next_cursor}&limit=50`);
    assert.deepEqual(namesOf(second), ['u2', 'l3'], 'the cursor carries its page size');
    const third = await list(`?cursor=${second.next_cursor}`);
    assert.deepEqual([namesOf(third), third.has_more, third.next_cursor], [['u4'], false, null]);
    assert.deepEqual(namesOf(await list('?limit=2&page=2')), ['u2', 'l3']);

    const none = await list('?limit=0');
    assert.deepEqual([none.data, none.has_more], [[], true]);
    assert.deepEqual(namesOf(await list(`?cursor=${none.next_cursor}`)), names);

    assertError(
      await http.get('deal/triggered_automations?limit=51'),
      400,
      'invalid_request',
      'query.limit',
    );
    assertError(
      await http.get('deal/triggered_automations?kind=often'),
      400,
      'invalid_request',
      'query.kind',
    );
    const foreign = await http.get(
      `deal/triggered_automations?kind=update&cursor=${first.next_cursor}`,
    );
    assertError(foreign, 400, 'invalid_request', 'query.cursor');
    assert.equal(foreign.body.error.errors[0].code, 'cursor_mismatch');
    const nonsense = await http.get('deal/triggered_automations?cursor=nonsense');
    assertError(nonsense, 400, 'invalid_request', 'query.cursor');
    assert.equal(nonsense.body.error.errors[0].code, 'invalid_cursor');
    // This listing's cursor with a position none is given out with: a page of 0 or of more
    // than 50, an offset below 0.
    const state = JSON.parse(Buffer.from(first.next_cursor, 'base64url').toString('utf8'));
    for (const forged of [
      { ...state, l: 0 },
      { ...state, l: 51 },
      { ...state, o: -1 },
    ]) {
      const cursor = Buffer.from(JSON.stringify(forged)).toString('base64url');
      const refused = await http.get(`deal/triggered_automations?cursor=${cursor}`);
      assertError(refused, 400, 'invalid_request', 'query.cursor');
      assert.equal(refused.body.error.errors[0].code, 'invalid_cursor', JSON.stringify(forged));
    }
  });
});
