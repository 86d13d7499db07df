import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { grantsOf } from '../../src/sandbox/resources/grants/model.ts';
import { SnapshotError, Store } from '../../src/sandbox/store.ts';
import { fields, recordsApi } from './records-api.ts';

const EMPTY = { share_level: null, team_id: {}, group_id: {}, user_id: {} };

describe('grants of records and messages', () => {
  test('a record never granted has the empty grant, with participants from its references', async (t) => {
    const api = await recordsApi(t);
    const org = await api.create('organization', { name: 'Acme' });
    const contact = await api.create('contact', { name: 'Ada' });
    const deal = await api.create('deal', { name: 'D', organization: org.id, contact: contact.id });
    const answer = await api.req('GET', `deal/${deal.id}/grant`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {
      ...EMPTY,
      contact_ids: [contact.id],
      identity_ids: null,
      organization_ids: [org.id],
    });
    const bare = await api.create('deal', { name: 'Bare' });
    assert.deepEqual((await api.req('GET', `deal/${bare.id}/grant`)).body, {
      ...EMPTY,
      contact_ids: [],
      identity_ids: null,
      organization_ids: [],
    });
  });

  test('participants include multi-references and a list’s references, each id once', async (t) => {
    const api = await recordsApi(t);
    const list = crypto.randomUUID();
    api.define('action', { name: 'Attendees', type: 'multiref_contact' });
    api.define('action', { name: 'Account', type: 'ref_organization', list_id: list });
    const [a, b] = [
      await api.create('contact', { name: 'A' }),
      await api.create('contact', { name: 'B' }),
    ];
    const org = await api.create('organization', { name: 'Acme' });
    const action = await api.create(
      'action',
      { title: 'Call', contact: a.id, attendees: [a.id, b.id] },
      { [list]: { account: org.id } },
    );
    const answer = await api.req('GET', `action/${action.id}/grant`);
    assert.deepEqual(answer.body, {
      ...EMPTY,
      contact_ids: [a.id, b.id],
      identity_ids: null,
      organization_ids: [org.id],
    });
  });

  test('PUT replaces the whole grant (maps), and the same PUT again answers the same', async (t) => {
    const api = await recordsApi(t);
    const deal = await api.create('deal', { name: 'D' });
    const team = crypto.randomUUID();
    const body = {
      share_level: 'full',
      team_id: { [team]: 'r' },
      group_id: { g1: 'w' },
      user_id: { u1: 'a', u2: 'r' },
    };
    const first = await api.req('PUT', `deal/${deal.id}/grant`, { body });
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, {
      ...body,
      contact_ids: [],
      identity_ids: null,
      organization_ids: [],
    });
    const again = await api.req('PUT', `deal/${deal.id}/grant`, { body });
    assert.deepEqual(again.body, first.body);
    assert.deepEqual((await api.req('GET', `deal/${deal.id}/grant`)).body, first.body);

    const replaced = await api.req('PUT', `deal/${deal.id}/grant`, {
      body: { user_id: { u3: 'r' } },
    });
    assert.deepEqual(replaced.body, {
      ...EMPTY,
      user_id: { u3: 'r' },
      contact_ids: [],
      identity_ids: null,
      organization_ids: [],
    });
  });

  test('PUT takes the older form: team_group_id and arrays of single-entry maps, normalised', async (t) => {
    const api = await recordsApi(t);
    const action = await api.create('action', { title: 'Call' });
    const answer = await api.req('PUT', `action/${action.id}/grant`, {
      body: {
        share_level: 'metadata',
        team_group_id: [{ g1: 'r' }, { g2: 'w' }],
        user_id: [{ u1: 'a' }, { u1: 'a' }],
      },
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {
      share_level: 'metadata',
      team_id: {},
      group_id: { g1: 'r', g2: 'w' },
      user_id: { u1: 'a' },
      contact_ids: [],
      identity_ids: null,
      organization_ids: null,
    });
  });

  test('a read grant can be sent back as is (the read-only arrays are ignored)', async (t) => {
    const api = await recordsApi(t);
    const contact = await api.create('contact', { name: 'A' });
    const deal = await api.create('deal', { contact: contact.id });
    const read = await api.req('GET', `deal/${deal.id}/grant`);
    const back = await api.req('PUT', `deal/${deal.id}/grant`, {
      body: { ...read.body, contact_ids: ['someone-else'] },
    });
    assert.equal(back.status, 200);
    assert.deepEqual(back.body, read.body);
  });

  test('bad bodies: other letters, both group forms, conflicting letters, unknown fields', async (t) => {
    const api = await recordsApi(t);
    const deal = await api.create('deal', { name: 'D' });
    const put = (body: unknown) => api.req('PUT', `deal/${deal.id}/grant`, { body });
    const letter = await put({ user_id: { u1: 'x' } });
    assert.equal(letter.status, 400);
    assert.equal(letter.body.error.code, 'invalid_request');
    const both = await put({ group_id: { g: 'r' }, team_group_id: { g: 'r' } });
    assert.equal(both.status, 400);
    assert.deepEqual(fields(both), ['body.team_group_id']);
    assert.match(both.body.error.message, /send only group_id/);
    const twice = await put({ user_id: [{ u1: 'a' }, { u1: 'r' }] });
    assert.equal(twice.status, 400);
    assert.deepEqual(fields(twice), ['body.user_id[1].u1']);
    const unknown = await put({ share: 'full' });
    assert.equal(unknown.status, 400);
    assert.deepEqual(fields(unknown), ['body.share']);
    assert.deepEqual((await api.req('GET', `deal/${deal.id}/grant`)).body.user_id, {});
  });

  test('404: a missing or deleted record, and types without grants', async (t) => {
    const api = await recordsApi(t);
    const id = crypto.randomUUID();
    const missing = await api.req('GET', `deal/${id}/grant`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.message, `No deal record has the id ${id}.`);
    const putMissing = await api.req('PUT', `action/${id}/grant`, { body: {} });
    assert.equal(putMissing.status, 404);
    const deal = await api.create('deal', { name: 'D' });
    await api.req('DELETE', `deal/${deal.id}`);
    assert.equal((await api.req('GET', `deal/${deal.id}/grant`)).status, 404);
    const contact = await api.create('contact', { name: 'A' });
    const wrongType = await api.req('GET', `contact/${contact.id}/grant`);
    assert.equal(wrongType.status, 404);
    assert.equal(
      wrongType.body.error.message,
      'contact records have no grants: grants exist for deal, action, document, event, engagement, identity, message only.',
    );
  });

  test('document, event, engagement and identity records have grants, group_id and share_level included', async (t) => {
    const api = await recordsApi(t);
    const contact = await api.create('contact', { name: 'Ada' });
    const group = crypto.randomUUID();
    for (const [type, values] of [
      ['document', { title: 'Contract' }],
      ['event', { title: 'Kick-off', contact: contact.id }],
      ['engagement', { title: 'Call', contact: contact.id }],
      ['identity', { name: 'Ada', contact: contact.id }],
    ] as const) {
      const record = await api.create(type, values);
      const empty = await api.req('GET', `${type}/${record.id}/grant`);
      assert.equal(empty.status, 200, type);
      assert.equal(empty.body.share_level, null);
      const put = await api.req('PUT', `${type}/${record.id}/grant`, {
        body: { group_id: { [group]: 'r' }, share_level: 'metadata' },
      });
      assert.equal(put.status, 200, put.text);
      const read = await api.req('GET', `${type}/${record.id}/grant`);
      assert.deepEqual(read.body, put.body);
      assert.deepEqual(read.body.group_id, { [group]: 'r' });
      assert.equal(read.body.share_level, 'metadata');
      assert.deepEqual(read.body.contact_ids, type === 'document' ? null : [contact.id]);
      assert.equal((await api.req('GET', `${type}/${crypto.randomUUID()}/grant`)).status, 404);
    }
  });

  test('a message grant is kept by the message id (the sandbox keeps no messages); participants null', async (t) => {
    const api = await recordsApi(t);
    const message = crypto.randomUUID();
    const empty = await api.req('GET', `message/${message}/grant`);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, {
      ...EMPTY,
      contact_ids: null,
      identity_ids: null,
      organization_ids: null,
    });
    const put = await api.req('PUT', `message/${message}/grant`, {
      body: { team_group_id: [{ g1: 'a' }], user_id: [{ u1: 'w' }], share_level: 'full' },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.group_id, { g1: 'a' });
    assert.deepEqual((await api.req('GET', `message/${message}/grant`)).body, put.body);
    assert.equal((await api.req('GET', 'message/not-a-uuid/grant')).status, 400);
    assert.equal((await api.req('GET', `message/${message}`)).status, 404, 'no message records');
  });

  test('a replayed PUT carries idempotent-replay', async (t) => {
    const api = await recordsApi(t);
    const deal = await api.create('deal', { name: 'D' });
    const request = { body: { user_id: { u: 'r' } }, headers: { 'idempotency-key': 'g1' } };
    await api.req('PUT', `deal/${deal.id}/grant`, request);
    const again = await api.req('PUT', `deal/${deal.id}/grant`, request);
    assert.equal(again.status, 200);
    assert.equal(again.headers['idempotent-replay'], 'true');
  });
});

describe('GrantsModel', () => {
  test('toJSON and load round-trip; reset empties it', () => {
    const store = new Store();
    const grants = grantsOf(store);
    grants.put('deal', 'd1', {
      share_level: 'full',
      team_id: { t: 'r' },
      group_id: {},
      user_id: { u: 'a' },
    });
    const copy = grantsOf(new Store());
    copy.load(JSON.parse(JSON.stringify(grants.toJSON())));
    assert.deepEqual(copy.get('deal', 'd1'), grants.get('deal', 'd1'));
    assert.deepEqual(copy.get('action', 'd1'), EMPTY);
    store.reset();
    assert.equal(grants.isEmpty(), true);
  });

  test('load rejects a broken snapshot, naming where', () => {
    const grants = grantsOf(new Store());
    assert.throws(
      () =>
        grants.load([
          {
            object_type: 'deal',
            record_id: 'd',
            share_level: null,
            team_id: { t: 'x' },
            group_id: {},
            user_id: {},
          },
        ]),
      (err: unknown) =>
        err instanceof SnapshotError && err.path === 'store.slices.grants[0].team_id.t',
    );
    assert.throws(
      () => grants.load([{ object_type: 'contact', record_id: 'd' }]),
      (err: unknown) =>
        err instanceof SnapshotError && err.path === 'store.slices.grants[0].object_type',
    );
  });
});
