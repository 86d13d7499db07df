// Property definitions and options of the sandbox, over real HTTP, every answer checked
// against the contract.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import { OBJECT_TYPES } from '../../src/sandbox/object-types.ts';
import {
  canonicalRole,
  PROPERTY_OBJECT_TYPES,
  roleBySlug,
  stableId,
} from '../../src/sandbox/resources/properties/catalogue.ts';
import { propertiesOf } from '../../src/sandbox/resources/properties/model.ts';
import type { PropertyDefinition } from '../../src/sandbox/resources/properties/types.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import type { RunningSandbox } from '../../src/sandbox/sandbox.ts';
import { SnapshotError } from '../../src/sandbox/store.ts';
import { type Answer, tempDir } from './helpers.ts';
import {
  api,
  assertError,
  LIST_A,
  LIST_B,
  NO_SUCH_ID,
  sandboxFor,
  UUID,
} from './properties-http.ts';

/** The definitions of one object type in a listing answer, by slug. */
function bySlug(answer: Answer, type: string): Record<string, PropertyDefinition> {
  assert.equal(answer.status, 200, answer.text);
  const out: Record<string, PropertyDefinition> = {};
  for (const [id, def] of Object.entries(answer.body[type] as Record<string, PropertyDefinition>)) {
    assert.equal(def.id, id, 'keyed by id');
    out[def.slug] = def;
  }
  return out;
}

describe('properties: shared defaults', () => {
  test('every object type has realistic defaults; a listing of one type has only its key', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const expected: Record<string, Record<string, string>> = {
      contact: {
        name: 'str',
        email: 'str',
        phone: 'str',
        title: 'str',
        company: 'str',
        city: 'str',
        status: 'select_str',
        tags: 'multiselect_str',
        birthday: 'date',
        notes: 'text',
        score: 'num',
        subscribed: 'bool',
        organization: 'ref_organization',
      },
      organization: {
        name: 'str',
        domain: 'str',
        industry: 'select_str',
        employees: 'num',
        website: 'str',
        country: 'str',
        founded: 'date',
      },
      deal: {
        name: 'str',
        amount: 'num',
        stage: 'select_str',
        close_date: 'date',
        probability: 'num',
        organization: 'ref_organization',
        contact: 'ref_contact',
        notes: 'text',
      },
      identity: {
        name: 'str',
        email: 'str',
        provider: 'select_str',
        handle: 'str',
        contact: 'ref_contact',
      },
      action: {
        title: 'str',
        status: 'select_str',
        priority: 'select_str',
        due_date: 'date',
        contact: 'ref_contact',
      },
      document: { title: 'str', url: 'str', kind: 'select_str', size: 'num' },
    };
    for (const [type, slugs] of Object.entries(expected)) {
      const answer = await http.get(`${type}/properties`);
      assert.deepEqual(Object.keys(answer.body), [type]);
      const defs = bySlug(answer, type);
      assert.deepEqual(
        Object.fromEntries(Object.values(defs).map((d) => [d.slug, d.type])),
        slugs,
        type,
      );
    }
    for (const type of ['event', 'ai_chat_thread', 'ai_chat_message']) {
      const defs = Object.values(bySlug(await http.get(`${type}/properties`), type));
      assert.ok(defs.length >= 3, `${type} has a small set of defaults`);
      assert.ok(defs.some((d) => d.type === 'date'));
      assert.ok(defs.some((d) => d.type === 'text'));
    }
  });

  test('defaults are shared (team_id and crm_id null), native and locked, with stable ids', async (t) => {
    const a = await sandboxFor(t);
    const b = await sandboxFor(t);
    const all = await api(a).get('properties');
    assert.deepEqual(Object.keys(all.body).sort(), [...PROPERTY_OBJECT_TYPES].sort());
    for (const type of PROPERTY_OBJECT_TYPES) {
      for (const def of Object.values(bySlug(all, type))) {
        assert.equal(def.team_id, null);
        assert.equal(def.crm_id, null);
        assert.equal(def.list_id, null);
        assert.equal(def.native, true);
        assert.equal(def.locked, true);
        assert.equal(def.required, false);
        assert.equal(def.id, stableId('property', type, def.slug));
        assert.match(def.role_id ?? '', UUID);
      }
    }
    assert.deepEqual((await api(b).get('properties')).body, all.body, 'the same in every sandbox');
    const deal = bySlug(all, 'deal');
    assert.equal(deal['stage']!.alias, 'app_stage');
    assert.equal(deal['amount']!.role_id, roleBySlug('currency').id);
    assert.equal(deal['name']!.role_id, canonicalRole('str').id);
    assert.equal(bySlug(all, 'contact')['email']!.role_id, roleBySlug('email').id);
  });

  test('select options: display value, slug, sort_index in order, colour', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const action = bySlug(await http.get('action/properties?include_options=true'), 'action');
    const status = action['status']!.options!;
    assert.deepEqual(
      status.map((o) => [o.value, o.slug, o.sort_index]),
      [
        ['To do', 'todo', 0],
        ['In progress', 'in_progress', 1],
        ['Done', 'done', 2],
      ],
    );
    for (const option of status) {
      assert.equal(typeof option.color_scheme, 'string');
      assert.equal(option.list_id, null);
      assert.equal(option.crm_id, null);
      assert.equal(option.id, stableId('option', 'action', 'status', option.slug));
    }
    const deal = bySlug(await http.get('deal/properties?include_options=true'), 'deal');
    assert.deepEqual(
      deal['stage']!.options!.map((o) => o.slug),
      ['lead', 'qualified', 'proposal', 'won', 'lost'],
    );
  });

  test('cannot be patched or deleted, nor their options changed: 409 naming the definition', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const stage = bySlug(await http.get('deal/properties?include_options=true'), 'deal')['stage']!;
    const lead = stage.options![0]!;
    const attempts = [
      await http.patch(`deal/properties/${stage.id}`, { type: 'select_str', name: 'Phase' }),
      await http.delete(`deal/properties/${stage.id}?type=select_str`),
      await http.post(`deal/properties/${stage.id}/options`, {
        type: 'select_str',
        value: 'Lost forever',
      }),
      await http.patch(`deal/properties/${stage.id}/options/${lead.id}`, {
        type: 'select_str',
        color_scheme: 'pink',
      }),
      await http.delete(`deal/properties/${stage.id}/options/${lead.id}`),
    ];
    for (const answer of attempts) {
      assertError(answer, 409, 'conflict');
      assert.match(
        answer.body.error.message,
        /'Stage' \(slug stage, id [0-9a-f-]{36}\) is a shared default/,
      );
      assert.match(answer.body.error.message, /locked/);
    }
    const after = bySlug(await http.get('deal/properties?include_options=true'), 'deal')['stage']!;
    assert.deepEqual(after, stage, 'unchanged');
  });
});

describe('properties: listing', () => {
  test('include_options: options only when true', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    for (const query of ['', '?include_options=false']) {
      const defs = bySlug(await http.get(`contact/properties${query}`), 'contact');
      assert.equal('options' in defs['status']!, false, query);
    }
    const defs = bySlug(await http.get('contact/properties?include_options=true'), 'contact');
    assert.deepEqual(
      defs['tags']!.options!.map((o) => o.slug),
      ['vip', 'newsletter', 'partner'],
    );
    assert.equal('options' in defs['name']!, false, 'only select types carry options');
    assertError(
      await http.get('contact/properties?include_options=yes'),
      400,
      'invalid_request',
      'query.include_options',
    );
  });

  test('term matches names and slugs, ignoring case', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    assert.deepEqual(Object.keys(bySlug(await http.get('deal/properties?term=CLOSE'), 'deal')), [
      'close_date',
    ]);
    assert.deepEqual(Object.keys(bySlug(await http.get('deal/properties?term=e_d'), 'deal')), [
      'close_date',
    ]);
    assert.deepEqual(Object.keys(bySlug(await http.get('deal/properties?term=Organiz'), 'deal')), [
      'organization',
    ]);
    assert.deepEqual((await http.get('deal/properties?term=zzz')).body, { deal: {} });
    const everywhere = await http.get('properties?term=due');
    assert.deepEqual(Object.keys(bySlug(everywhere, 'action')), ['due_date']);
    assert.deepEqual(everywhere.body['contact'], {}, 'every type stays a key');
  });

  test('autofill is accepted and changes nothing', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const plain = await http.get('deal/properties');
    assert.deepEqual((await http.get('deal/properties?autofill=true')).body, plain.body);
    assert.deepEqual((await http.get('deal/properties?autofill=false')).body, plain.body);
  });

  test('an object type outside the known ones is 404 naming them', async (t) => {
    const sandbox = await sandboxFor(t);
    const answer = await api(sandbox).get('widgets/properties');
    assertError(answer, 404, 'not_found');
    assert.match(
      answer.body.error.message,
      /Unknown object type 'widgets'.*contact, organization.*ai_chat_message/,
    );
  });
});

describe('properties: create', () => {
  test('201 with the definition; defaults: required false, canonical role, workspace-global', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const answer = await http.post('deal/properties', { name: 'Renewal date', type: 'date' });
    assert.equal(answer.status, 201, answer.text);
    const def = answer.body as PropertyDefinition;
    assert.match(def.id, UUID);
    assert.deepEqual(
      {
        slug: def.slug,
        name: def.name,
        type: def.type,
        required: def.required,
        role_id: def.role_id,
        team_id: def.team_id,
        list_id: def.list_id,
        crm_id: def.crm_id,
        native: def.native,
        locked: def.locked,
        alias: def.alias,
        enabled: def.enabled,
      },
      {
        slug: 'renewal_date',
        name: 'Renewal date',
        type: 'date',
        required: false,
        role_id: canonicalRole('date').id,
        team_id: sandbox.teamId,
        list_id: null,
        crm_id: null,
        native: false,
        locked: false,
        alias: null,
        enabled: true,
      },
    );
    assert.equal('options' in def, false);
    assert.deepEqual(bySlug(await http.get('deal/properties'), 'deal')['renewal_date'], def);
    const required = await http.post('deal/properties', {
      name: 'Owner',
      type: 'str',
      required: true,
    });
    assert.equal(required.body.required, true);
  });

  test('a name taken in its scope (ignoring case) is 409 naming the existing definition', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const first = (await http.post('deal/properties', { name: 'Deal size', type: 'num' })).body;
    const again = await http.post('deal/properties', { name: 'DEAL SIZE', type: 'str' });
    assertError(again, 409, 'conflict');
    assert.equal(
      again.body.error.message,
      `A deal property named 'DEAL SIZE' already exists: 'Deal size' (slug deal_size, id ${first.id}). Use that property, or choose another name.`,
    );
    assert.deepEqual(again.body.error.details.existing, {
      id: first.id,
      slug: 'deal_size',
      name: 'Deal size',
      list_id: null,
    });
    const defaultName = await http.post('contact/properties', { name: 'email', type: 'str' });
    assertError(defaultName, 409, 'conflict');
    assert.match(defaultName.body.error.message, /'Email' \(slug email, id [0-9a-f-]{36}\)/);
    const other = await http.post('contact/properties', { name: 'Deal size', type: 'num' });
    assert.equal(other.status, 201, 'names are unique per object type');
  });

  test('the slug defaults to the slugified name, with a numeric suffix when taken', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const slugOf = async (name: string) =>
      (await http.post('deal/properties', { name, type: 'num' })).body.slug;
    assert.equal(await slugOf('Deal size'), 'deal_size');
    assert.equal(await slugOf('Deal-size'), 'deal_size_2');
    assert.equal(await slugOf('  Deal  size!! '), 'deal_size_3');
    assert.equal(await slugOf('Stage?'), 'stage_2', 'the default stage holds stage');
    assert.equal(await slugOf('Größe über alles'), 'grosse_uber_alles');
    assert.equal(await slugOf('ID'), 'id_2', 'id is the record id');
    assert.equal(await slugOf('💰'), 'property');
  });

  test('an explicit slug is never renamed: a collision is 409, a bad one 400', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const made = await http.post('deal/properties', { name: 'Size', type: 'num', slug: 'sz' });
    assert.equal(made.body.slug, 'sz');
    const clash = await http.post('deal/properties', { name: 'Size two', type: 'num', slug: 'sz' });
    assertError(clash, 409, 'conflict');
    assert.match(
      clash.body.error.message,
      new RegExp(`slug 'sz' is already used .*'Size' \\(slug sz, id ${made.body.id}\\)`),
    );
    const withDefault = await http.post('deal/properties', {
      name: 'Level',
      type: 'num',
      slug: 'stage',
    });
    assertError(withDefault, 409, 'conflict');
    assert.match(withDefault.body.error.message, /'Stage' \(slug stage/);
    assertError(
      await http.post('deal/properties', { name: 'Bad', type: 'num', slug: 'Not A Slug' }),
      400,
      'invalid_request',
      'body.slug',
    );
    assertError(
      await http.post('deal/properties', { name: 'Bad', type: 'num', slug: 'id' }),
      400,
      'invalid_request',
      'body.slug',
    );
  });

  test('options only on select_str and multiselect_str: 400 on other types', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const wrong = await http.post('deal/properties', {
      name: 'Region',
      type: 'str',
      options: [{ value: 'EMEA' }],
    });
    assertError(wrong, 400, 'invalid_request', 'body.options');
    assert.match(wrong.body.error.message, /only allowed on select_str and multiselect_str/);
    assert.equal(
      (await http.post('deal/properties', { name: 'Region', type: 'str', options: [] })).status,
      201,
      'an empty list is no options',
    );
    const multi = await http.post('deal/properties', {
      name: 'Channels',
      type: 'multiselect_str',
      options: [
        { value: 'Web shop', color_scheme: 'blue' },
        { value: 'Partner', slug: 'resellers', sort_index: 7 },
        { value: 'Web-Shop' },
      ],
    });
    assert.equal(multi.status, 201, multi.text);
    assert.deepEqual(
      multi.body.options.map((o: Record<string, unknown>) => [
        o.value,
        o.slug,
        o.sort_index,
        o.color_scheme,
      ]),
      [
        ['Web shop', 'web_shop', 0, 'blue'],
        ['Partner', 'resellers', 7, null],
        ['Web-Shop', 'web_shop_2', 8, null],
      ],
    );
    const empty = await http.post('deal/properties', { name: 'Tier', type: 'select_str' });
    assert.deepEqual(empty.body.options, [], 'a select definition always has an options array');
  });

  test('option values and slugs are unique within the definition', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const sameValue = await http.post('deal/properties', {
      name: 'Tier',
      type: 'select_str',
      options: [{ value: 'Gold' }, { value: 'gold' }],
    });
    assertError(sameValue, 409, 'conflict');
    assert.equal(sameValue.body.error.details.field, 'body.options[1].value');
    const sameSlug = await http.post('deal/properties', {
      name: 'Tier',
      type: 'select_str',
      options: [{ value: 'Gold' }, { value: 'Aurum', slug: 'gold' }],
    });
    assertError(sameSlug, 409, 'conflict');
    assert.equal(
      Object.keys(bySlug(await http.get('deal/properties?term=tier'), 'deal')).length,
      0,
      'nothing was created',
    );
  });

  test('role_id: default the canonical role; a role of another data type is 400', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const currency = roleBySlug('currency').id;
    const ok = await http.post('deal/properties', { name: 'Fee', type: 'num', role_id: currency });
    assert.equal(ok.body.role_id, currency);
    const link = await http.post('deal/properties', { name: 'Partner', type: 'ref_organization' });
    assert.equal(link.body.role_id, roleBySlug('record').id);
    const mismatch = await http.post('deal/properties', {
      name: 'Contact email',
      type: 'num',
      role_id: roleBySlug('email').id,
    });
    assertError(mismatch, 400, 'invalid_request', 'body.role_id');
    assert.match(
      mismatch.body.error.message,
      /does not suit type num\. Roles for type num: number \(.*currency \(.*percent/,
    );
    assertError(
      await http.post('deal/properties', {
        name: 'Odd',
        type: 'str',
        role_id: NO_SUCH_ID,
      }),
      400,
      'invalid_request',
      'body.role_id',
    );
  });

  test('the contract is enforced at the door: name and type required, type from the enum', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    assertError(
      await http.post('deal/properties', { type: 'str' }),
      400,
      'invalid_request',
      'body.name',
    );
    assertError(
      await http.post('deal/properties', { name: 'X', type: 'string' }),
      400,
      'invalid_request',
      'body.type',
    );
    assertError(
      await http.post('deal/properties', { name: '   ', type: 'str' }),
      400,
      'invalid_request',
      'body.name',
    );
  });

  test('an Idempotency-Key replays the first answer instead of creating twice', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const headers = { 'idempotency-key': 'prop-1' };
    const first = await http.post('deal/properties', { name: 'Budget', type: 'num' }, headers);
    const again = await http.post('deal/properties', { name: 'Budget', type: 'num' }, headers);
    assert.equal(again.status, 201);
    assert.equal(again.headers['idempotent-replay'], 'true');
    assert.equal(again.body.id, first.body.id);
    assert.equal(
      Object.keys(bySlug(await http.get('deal/properties?term=budget'), 'deal')).length,
      1,
    );
  });
});

describe('properties: list scope', () => {
  test('list_id scopes a definition to that list; crm_id mirrors it; visible() agrees', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const scoped = await http.post('deal/properties', {
      name: 'Pipeline owner',
      type: 'select_str',
      list_id: LIST_A,
      options: [{ value: 'Ana' }],
    });
    assert.equal(scoped.status, 201, scoped.text);
    assert.equal(scoped.body.list_id, LIST_A);
    assert.equal(scoped.body.crm_id, LIST_A);
    assert.equal(scoped.body.options[0].list_id, LIST_A);
    assert.equal(scoped.body.options[0].crm_id, LIST_A);
    const global = (await http.post('deal/properties', { name: 'Source', type: 'str' })).body;

    const onA = bySlug(await http.get(`deal/properties?list_id=${LIST_A}`), 'deal');
    const onB = bySlug(await http.get(`deal/properties?list_id=${LIST_B}`), 'deal');
    const everything = bySlug(await http.get('deal/properties'), 'deal');
    assert.ok(onA['pipeline_owner'] && onA['source'] && onA['stage']);
    assert.ok(!onB['pipeline_owner'] && onB['source'] && onB['stage']);
    assert.ok(everything['pipeline_owner'] && everything['source']);

    const model = propertiesOf(sandbox.store);
    const slugs = (listId?: string) =>
      model.visible(sandbox.teamId, 'deal', listId).map((d) => d.slug);
    assert.ok(slugs(LIST_A).includes('pipeline_owner'));
    assert.ok(!slugs(LIST_B).includes('pipeline_owner'));
    assert.ok(!slugs().includes('pipeline_owner'), 'a record outside lists does not see it');
    assert.ok(slugs().includes('source') && slugs(LIST_B).includes('source'));
    assert.equal(
      model.bySlug(sandbox.teamId, 'deal', 'pipeline_owner', LIST_A)?.id,
      scoped.body.id,
    );
    assert.equal(model.bySlug(sandbox.teamId, 'deal', 'pipeline_owner'), undefined);
    assert.equal(model.bySlug(sandbox.teamId, 'deal', 'source', LIST_B)?.id, global.id);
  });

  test('names are unique per scope: two lists may share one, a global one may not', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const a = await http.post('deal/properties', { name: 'Region', type: 'str', list_id: LIST_A });
    const b = await http.post('deal/properties', { name: 'Region', type: 'str', list_id: LIST_B });
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.equal(b.body.slug, 'region', 'slugs are per scope too');
    const global = await http.post('deal/properties', { name: 'region', type: 'str' });
    assertError(global, 409, 'conflict');
    assert.match(global.body.error.message, /already exists on list/);
    await http.post('deal/properties', { name: 'Segment', type: 'str' });
    const onList = await http.post('deal/properties', {
      name: 'SEGMENT',
      type: 'str',
      list_id: LIST_A,
    });
    assertError(onList, 409, 'conflict');
  });

  test('the deprecated crm_id is accepted for list_id; both differing is 400', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const viaCrm = await http.post('deal/properties', {
      name: 'Old style',
      type: 'str',
      crm_id: LIST_A,
    });
    assert.equal(viaCrm.status, 201, viaCrm.text);
    assert.equal(viaCrm.body.list_id, LIST_A);
    assert.equal(viaCrm.body.crm_id, LIST_A);
    assertError(
      await http.post('deal/properties', {
        name: 'Mixed',
        type: 'str',
        list_id: LIST_A,
        crm_id: LIST_B,
      }),
      400,
      'invalid_request',
      'body.crm_id',
    );
  });

  test('options of a list: on a global definition they show on that list only', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = (
      await http.post('deal/properties', {
        name: 'Tier',
        type: 'select_str',
        options: [{ value: 'Gold' }],
      })
    ).body;
    const listOnly = await http.post(`deal/properties/${def.id}/options`, {
      type: 'select_str',
      value: 'Platinum',
      list_id: LIST_A,
    });
    assert.equal(listOnly.body.list_id, LIST_A);
    assert.equal(listOnly.body.crm_id, LIST_A);
    const optionsOn = async (query: string) =>
      bySlug(await http.get(`deal/properties?include_options=true${query}`), 'deal')[
        'tier'
      ]!.options!.map((o) => o.slug);
    assert.deepEqual(await optionsOn(''), ['gold', 'platinum']);
    assert.deepEqual(await optionsOn(`&list_id=${LIST_A}`), ['gold', 'platinum']);
    assert.deepEqual(await optionsOn(`&list_id=${LIST_B}`), ['gold']);
    const model = propertiesOf(sandbox.store);
    const stored = model.get(sandbox.teamId, 'deal', def.id)!;
    assert.equal(model.resolveOption(stored, 'platinum', LIST_A)?.id, listOnly.body.id);
    assert.equal(model.resolveOption(stored, 'platinum'), undefined);
    assert.equal(model.resolveOption(stored, def.options[0].id)?.slug, 'gold', 'by id too');

    const scopedDef = (
      await http.post('deal/properties', { name: 'Lane', type: 'select_str', list_id: LIST_A })
    ).body;
    assertError(
      await http.post(`deal/properties/${scopedDef.id}/options`, {
        type: 'select_str',
        value: 'Fast',
        list_id: LIST_B,
      }),
      400,
      'invalid_request',
      'body.list_id',
    );
    const follows = await http.post(`deal/properties/${scopedDef.id}/options`, {
      type: 'select_str',
      value: 'Fast',
    });
    assert.equal(follows.body.list_id, LIST_A, "a list's definition keeps its options on the list");
  });
});

describe('properties: patch and delete', () => {
  test('patch edits name, icon, enabled, required; 200 with the definition', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = (await http.post('deal/properties', { name: 'Budget', type: 'num' })).body;
    sandbox.store.clock.advance(60);
    const answer = await http.patch(`deal/properties/${def.id}`, {
      type: 'num',
      name: 'Budget (EUR)',
      icon: 'coins',
      enabled: false,
      required: true,
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(
      [
        answer.body.name,
        answer.body.icon,
        answer.body.enabled,
        answer.body.required,
        answer.body.slug,
      ],
      ['Budget (EUR)', 'coins', false, true, 'budget'],
    );
    assert.ok(answer.body.updated_at > def.updated_at);
    assert.equal(answer.body.created_at, def.created_at);
    assert.deepEqual(bySlug(await http.get('deal/properties'), 'deal')['budget'], answer.body);
  });

  test('patch: a taken name is 409, another type 400, an unknown id 404', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = (await http.post('deal/properties', { name: 'Budget', type: 'num' })).body;
    const renamed = await http.patch(`deal/properties/${def.id}`, { type: 'num', name: 'amount' });
    assertError(renamed, 409, 'conflict');
    assert.match(renamed.body.error.message, /'Amount' \(slug amount/);
    const typed = await http.patch(`deal/properties/${def.id}`, { type: 'str', name: 'X' });
    assertError(typed, 400, 'invalid_request', 'body.type');
    assert.match(typed.body.error.message, /has type num, not str/);
    assertError(
      await http.patch(`deal/properties/${NO_SUCH_ID}`, { type: 'num' }),
      404,
      'not_found',
    );
    assertError(
      await http.patch(`contact/properties/${def.id}`, { type: 'num' }),
      404,
      'not_found',
      undefined,
    );
    const same = await http.patch(`deal/properties/${def.id}`, { type: 'num', name: 'BUDGET' });
    assert.equal(same.body.name, 'BUDGET', 'a change of case is not a clash with itself');
  });

  test('patch list_id moves the definition (and its options) and keeps crm_id in step', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = (
      await http.post('deal/properties', {
        name: 'Tier',
        type: 'select_str',
        options: [{ value: 'Gold' }],
      })
    ).body;
    const moved = await http.patch(`deal/properties/${def.id}`, {
      type: 'select_str',
      list_id: LIST_A,
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.list_id, LIST_A);
    assert.equal(moved.body.crm_id, LIST_A);
    assert.equal(moved.body.options[0].list_id, LIST_A);
    assert.equal(moved.body.options[0].crm_id, LIST_A);
    assert.ok(!bySlug(await http.get(`deal/properties?list_id=${LIST_B}`), 'deal')['tier']);
    const other = await http.post('deal/properties', {
      name: 'Tier',
      type: 'str',
      list_id: LIST_B,
    });
    assert.equal(other.status, 201, 'list A and list B may each have a Tier');
    for (const to of [LIST_B, null]) {
      const clash = await http.patch(`deal/properties/${def.id}`, {
        type: 'select_str',
        list_id: to,
      });
      assertError(clash, 409, 'conflict');
      assert.ok(
        clash.body.error.message.includes(`'Tier' (slug tier, id ${other.body.id})`),
        clash.body.error.message,
      );
    }
    await http.delete(`deal/properties/${other.body.id}?type=str`);
    const back = await http.patch(`deal/properties/${def.id}`, {
      type: 'select_str',
      list_id: null,
    });
    assert.equal(back.body.list_id, null);
    assert.equal(back.body.crm_id, null);
    assert.equal(back.body.options[0].crm_id, null);
  });

  test('delete: 204, then gone; type and list_id must match; unknown 404', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = (
      await http.post('deal/properties', { name: 'Budget', type: 'num', list_id: LIST_A })
    ).body;
    assertError(
      await http.delete(`deal/properties/${def.id}`),
      400,
      'invalid_request',
      'query.type',
    );
    assertError(
      await http.delete(`deal/properties/${def.id}?type=str`),
      400,
      'invalid_request',
      'query.type',
    );
    assertError(
      await http.delete(`deal/properties/${def.id}?type=num&list_id=${LIST_B}`),
      400,
      'invalid_request',
      'query.list_id',
    );
    const gone = await http.delete(`deal/properties/${def.id}?type=num&list_id=${LIST_A}`);
    assert.equal(gone.status, 204);
    assert.equal(gone.text, '');
    assert.equal(bySlug(await http.get('deal/properties'), 'deal')['budget'], undefined);
    assertError(await http.delete(`deal/properties/${def.id}?type=num`), 404, 'not_found');
    assert.equal(
      propertiesOf(sandbox.store).bySlug(sandbox.teamId, 'deal', 'budget', LIST_A),
      undefined,
    );
  });

  test('a definition a view uses cannot be deleted, nor moved off its list: 409 naming the view', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = (await http.post('organization/properties', { name: 'Tier', type: 'str' })).body;
    const view = (
      await http.post('deal/views', {
        name: 'By partner tier',
        view_type: 'grid',
        select: ['name', 'organization.tier'],
      })
    ).body;
    const refused = await http.delete(`organization/properties/${def.id}?type=str`);
    assertError(refused, 409, 'conflict');
    assert.match(
      refused.body.error.message,
      new RegExp(`the view 'By partner tier' \\(deal, id ${view.id}\\) uses it`),
    );
    const moved = await http.patch(`organization/properties/${def.id}`, {
      type: 'str',
      list_id: LIST_A,
    });
    assertError(moved, 409, 'conflict');
    await http.patch(`deal/views/${view.id}`, { select: ['name'] });
    assert.equal((await http.delete(`organization/properties/${def.id}?type=str`)).status, 204);
  });
});

describe('properties: options', () => {
  async function tier(sandbox: RunningSandbox): Promise<PropertyDefinition> {
    const answer = await api(sandbox).post('deal/properties', {
      name: 'Tier',
      type: 'select_str',
      options: [{ value: 'Gold' }, { value: 'Silver' }],
    });
    return answer.body;
  }

  test('create: 201, slug from the value (suffix when taken), appended by sort_index', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = await tier(sandbox);
    const bronze = await http.post(`deal/properties/${def.id}/options`, {
      type: 'select_str',
      value: 'Bronze Plus',
      color_scheme: 'orange',
      description: 'Third place',
    });
    assert.equal(bronze.status, 201, bronze.text);
    assert.match(bronze.body.id, UUID);
    assert.deepEqual(
      [bronze.body.slug, bronze.body.sort_index, bronze.body.color_scheme, bronze.body.description],
      ['bronze_plus', 2, 'orange', 'Third place'],
    );
    const again = await http.post(`deal/properties/${def.id}/options`, {
      type: 'select_str',
      value: 'Bronze-plus!',
    });
    assert.equal(again.body.slug, 'bronze_plus_2');
    const first = await http.post(`deal/properties/${def.id}/options`, {
      type: 'select_str',
      value: 'Diamond',
      sort_index: -1,
    });
    assert.equal(first.status, 201);
    const listed = bySlug(await http.get('deal/properties?include_options=true'), 'deal')['tier']!;
    assert.deepEqual(
      listed.options!.map((o) => o.slug),
      ['diamond', 'gold', 'silver', 'bronze_plus', 'bronze_plus_2'],
    );
  });

  test('create: a taken value or explicit slug is 409; a non-select definition 400; type must match', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = await tier(sandbox);
    const value = await http.post(`deal/properties/${def.id}/options`, {
      type: 'select_str',
      value: 'GOLD',
    });
    assertError(value, 409, 'conflict');
    assert.match(
      value.body.error.message,
      /already has an option 'Gold' \(slug gold, id [0-9a-f-]{36}\)/,
    );
    const slug = await http.post(`deal/properties/${def.id}/options`, {
      type: 'select_str',
      value: 'Aurum',
      slug: 'gold',
    });
    assertError(slug, 409, 'conflict');
    assert.match(slug.body.error.message, /option slug 'gold' is already used/);
    const plain = (await http.post('deal/properties', { name: 'Budget', type: 'num' })).body;
    assertError(
      await http.post(`deal/properties/${plain.id}/options`, { type: 'num', value: 'Big' }),
      400,
      'invalid_request',
      'path.propertyId',
    );
    assertError(
      await http.post(`deal/properties/${def.id}/options`, {
        type: 'multiselect_str',
        value: 'Big',
      }),
      400,
      'invalid_request',
      'body.type',
    );
    assertError(
      await http.post(`deal/properties/${NO_SUCH_ID}/options`, {
        type: 'select_str',
        value: 'Big',
      }),
      404,
      'not_found',
    );
  });

  test('patch: 200; value, slug, colour and order change; clashes are 409', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = await tier(sandbox);
    const [gold, silver] = def.options!;
    const answer = await http.patch(`deal/properties/${def.id}/options/${silver!.id}`, {
      type: 'select_str',
      value: 'Silver star',
      slug: 'silver_star',
      color_scheme: 'gray',
      sort_index: -5,
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(
      [answer.body.id, answer.body.value, answer.body.slug, answer.body.color_scheme],
      [silver!.id, 'Silver star', 'silver_star', 'gray'],
    );
    const listed = bySlug(await http.get('deal/properties?include_options=true'), 'deal')['tier']!;
    assert.deepEqual(
      listed.options!.map((o) => o.slug),
      ['silver_star', 'gold'],
    );
    assertError(
      await http.patch(`deal/properties/${def.id}/options/${silver!.id}`, {
        type: 'select_str',
        value: 'gold',
      }),
      409,
      'conflict',
    );
    assertError(
      await http.patch(`deal/properties/${def.id}/options/${silver!.id}`, {
        type: 'select_str',
        slug: 'gold',
      }),
      409,
      'conflict',
    );
    const keep = await http.patch(`deal/properties/${def.id}/options/${gold!.id}`, {
      type: 'select_str',
      value: 'GOLD',
    });
    assert.equal(keep.body.value, 'GOLD', 'its own value in another case is no clash');
    assertError(
      await http.patch(`deal/properties/${def.id}/options/${NO_SUCH_ID}`, {
        type: 'select_str',
        value: 'X',
      }),
      404,
      'not_found',
    );
  });

  test('record writes name options as they are now: after a rename, an addition, a removal', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = await tier(sandbox);
    const [gold, silver] = def.options!;
    const write = async (tier: string) => {
      const answer = await http.post('deal', { default: { name: 'D', tier } });
      return answer.status === 201 ? answer.body.default.tier : answer.body.error.errors[0].code;
    };
    assert.deepEqual(
      [await write('gold'), await write(silver!.id), await write(' GOLD '), await write('Silver')],
      ['gold', 'silver', 'gold', 'silver'],
    );
    await http.patch(`deal/properties/${def.id}/options/${silver!.id}`, {
      type: 'select_str',
      value: 'Platinum',
    });
    await http.post(`deal/properties/${def.id}/options`, { type: 'select_str', value: 'Bronze' });
    await http.delete(`deal/properties/${def.id}/options/${gold!.id}`);
    assert.deepEqual(
      [await write('platinum'), await write('Bronze'), await write('Gold'), await write('silver')],
      ['silver', 'bronze', 'unknown_option', 'silver'],
    );
  });

  test('delete: 204, then gone; an unknown option is 404', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const def = await tier(sandbox);
    const gold = def.options![0]!;
    const gone = await http.delete(`deal/properties/${def.id}/options/${gold.id}`);
    assert.equal(gone.status, 204);
    const listed = bySlug(await http.get('deal/properties?include_options=true'), 'deal')['tier']!;
    assert.deepEqual(
      listed.options!.map((o) => o.slug),
      ['silver'],
    );
    assertError(
      await http.delete(`deal/properties/${def.id}/options/${gold.id}`),
      404,
      'not_found',
    );
    assertError(
      await http.delete(`deal/properties/${def.id}/options/${listed.options![0]!.id}?type=str`),
      400,
      'invalid_request',
      'query.type',
    );
    assertError(
      await http.delete(
        `deal/properties/${def.id}/options/${listed.options![0]!.id}?list_id=${LIST_A}`,
      ),
      400,
      'invalid_request',
      'query.list_id',
    );
  });
});

describe('properties: persistence', () => {
  test('definitions and options survive the data file round trip', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const first = await startSandbox({ dataFile: file, validateResponses: true });
    const http = api(first);
    const def = await http.post('deal/properties', {
      name: 'Tier',
      type: 'multiselect_str',
      list_id: LIST_A,
      required: true,
      options: [{ value: 'Gold', color_scheme: 'yellow' }, { value: 'Silver' }],
    });
    await http.post('contact/properties', {
      name: 'Shoe size',
      type: 'num',
      role_id: roleBySlug('number').id,
    });
    const before = await http.get('properties?include_options=true');
    assert.deepEqual(first.contractViolations, []);
    await first.close();

    const second = await sandboxFor(t, { dataFile: file });
    assert.deepEqual((await api(second).get('properties?include_options=true')).body, before.body);
    const model = propertiesOf(second.store);
    assert.equal(model.bySlug(second.teamId, 'deal', 'tier', LIST_A)?.id, def.body.id);
    const clash = await api(second).post('deal/properties', {
      name: 'tier',
      type: 'str',
      list_id: LIST_A,
    });
    assertError(clash, 409, 'conflict');
  });

  test('a snapshot with a broken definition is refused and the state kept', async (t) => {
    const sandbox = await sandboxFor(t);
    await api(sandbox).post('deal/properties', { name: 'Tier', type: 'str', list_id: LIST_A });
    const good = sandbox.store.toJSON();
    const broken = structuredClone(good);
    const defs = broken.slices['properties'] as Record<string, unknown>[];
    defs[0]!['crm_id'] = LIST_B;
    assert.throws(() => sandbox.store.fromJSON(broken), SnapshotError);
    assert.deepEqual(sandbox.store.toJSON().slices['properties'], good.slices['properties']);
    defs[0]!['crm_id'] = LIST_A;
    defs[0]!['type'] = 'string';
    assert.throws(() => sandbox.store.fromJSON(broken), /store\.slices\.properties\[0\]\.type/);
  });

  test('reset empties the team definitions; the shared defaults stay', async (t) => {
    const sandbox = await sandboxFor(t);
    await api(sandbox).post('deal/properties', { name: 'Tier', type: 'str' });
    sandbox.reset();
    assert.equal(propertiesOf(sandbox.store).isEmpty(), true);
    const defs = bySlug(await api(sandbox).get('deal/properties'), 'deal');
    assert.equal(defs['tier'], undefined);
    assert.ok(defs['stage']);
  });
});

describe('properties: the demo seed fits the default definitions', () => {
  test('every seeded value has a visible definition and a value of its type', async (t) => {
    const sandbox = await sandboxFor(t, { seed: 'demo' });
    const model = propertiesOf(sandbox.store);
    const records = recordsOf(sandbox.store);
    const exists = (type: string, id: unknown) =>
      typeof id === 'string' &&
      (OBJECT_TYPES as readonly string[]).includes(type) &&
      records.get(type as (typeof OBJECT_TYPES)[number], id) !== undefined;
    let checked = 0;
    for (const type of OBJECT_TYPES) {
      for (const record of records.records(type)) {
        for (const [slug, value] of Object.entries(record.default)) {
          const def = model.bySlug(sandbox.teamId, type, slug);
          assert.ok(def, `${type}.${slug} has a definition`);
          const where = `${type} ${record.id} ${slug}=${JSON.stringify(value)}`;
          if (def.type === 'num') assert.equal(typeof value, 'number', where);
          else if (def.type === 'str' || def.type === 'text')
            assert.equal(typeof value, 'string', where);
          else if (def.type === 'date') assert.match(String(value), /^\d{4}-\d\d-\d\d$/, where);
          else if (def.type === 'select_str') {
            assert.ok(model.resolveOption(def, String(value))?.slug === value, where);
          } else if (def.type.startsWith('ref_')) {
            assert.ok(exists(def.type.slice(4), value), where);
          } else assert.fail(`unexpected type ${def.type} at ${where}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 250, `checked ${checked} values`);
  });
});
