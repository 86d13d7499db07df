// Lists over real HTTP, every answer checked against the contract: POST …/lists from each
// template makes the list, its stage property (alias app_stage, the template's stages) and
// its views (a board by stage and a grid); `custom` needs object_type; GET …/lists pages the
// lists; GET …/lists/{listId} answers one with its views; records join a list and its board
// shows them by stage.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ListTemplate } from '../../src/generated/enums.ts';
import { TEMPLATES } from '../../src/sandbox/resources/lists/templates.ts';
import { recordsApi } from './records-api.ts';

describe('lists', () => {
  test('every template makes its list, its stage property and its views', async (t) => {
    const api = await recordsApi(t);
    for (const template of ListTemplate) {
      const body: Record<string, string> = { template_id: template };
      if (template === 'custom') body['object_type'] = 'engagement';
      const created = await api.req('POST', 'lists', { body });
      assert.equal(created.status, 201, `${template}: ${created.text}`);
      const list = created.body;
      const type = TEMPLATES[template].objectType ?? 'engagement';
      assert.equal(list.name, TEMPLATES[template].title, 'the default name');
      assert.equal(list.template_id, template);
      assert.equal(list.object_type, type);
      assert.equal(list.core, false);
      // The stage: a select of the list, alias app_stage, the template's stages in order.
      const props = await api.req(
        'GET',
        `${type}/properties?list_id=${list.id}&include_options=true`,
      );
      const defs = Object.values(props.body[type]) as {
        id: string;
        slug: string;
        alias: string | null;
        list_id: string | null;
        type: string;
        options: { value: string }[];
      }[];
      const stage = defs.find((d) => d.list_id === list.id && d.alias === 'app_stage');
      assert.ok(stage, `${template}: a stage of the list`);
      assert.equal(stage.id, list.stage_property_id);
      assert.equal(stage.type, 'select_str');
      assert.deepEqual(
        stage.options.map((o) => o.value),
        TEMPLATES[template].stages.map(([v]) => v),
      );
      // The views: a board grouped by the stage, a grid; both on the list.
      assert.deepEqual(
        list.views.map((v: { name: string; view_type: string; list_id: string }) => [
          v.name,
          v.view_type,
          v.list_id,
        ]),
        [
          ['Pipeline', 'kanban', list.id],
          [`All ${list.name}`, 'grid', list.id],
        ],
      );
      assert.equal(list.views[0].group_by, stage.slug);
      const read = await api.req('GET', `lists/${list.id}`);
      assert.deepEqual(read.body, list);
    }
    const all = await api.req('GET', 'lists');
    assert.equal(all.body.data.length, ListTemplate.length);
    assert.equal(all.body.has_more, false);
    assert.ok(!('views' in all.body.data[0]), 'the listing has no views');
  });

  test('records join a list; its board shows them by stage; the list scopes count and views', async (t) => {
    const api = await recordsApi(t);
    const created = await api.req('POST', 'lists', {
      body: { template_id: 'sales_deals', name: 'Q3 pipeline' },
    });
    const list = created.body;
    const stageDef = (await api.req('GET', `deal/properties?list_id=${list.id}`)).body.deal[
      list.stage_property_id
    ];
    assert.equal(stageDef.name, 'Deal stage', 'not the shared Stage');
    const slug = stageDef.slug as string;
    await api.create('deal', { name: 'In' }, { [list.id]: { [slug]: 'Negotiation' } });
    await api.create('deal', { name: 'Out' });
    assert.deepEqual((await api.req('GET', `deal/count?list_id=${list.id}`)).body, { total: 1 });
    const board = await api.req('GET', `deal/views/${list.views[0].id}/records`);
    assert.deepEqual(board.body.data, [
      {
        id: board.body.data[0].id,
        properties: { name: 'In', amount: null, [slug]: 'negotiation' },
      },
    ]);
    // A second list of the same type makes its own stage, with the same name.
    const other = await api.req('POST', 'lists', { body: { template_id: 'sales_deals' } });
    assert.equal(other.status, 201, other.text);
    assert.notEqual(other.body.stage_property_id, list.stage_property_id);
  });

  test('custom needs object_type; another template takes only its own; an unknown template is 400', async (t) => {
    const api = await recordsApi(t);
    const bad = async (body: unknown, field: string) => {
      const answer = await api.req('POST', 'lists', { body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error.errors[0].field, field, answer.text);
    };
    await bad({ template_id: 'custom', name: 'X' }, 'body.object_type');
    await bad({ template_id: 'recruiting', object_type: 'deal' }, 'body.object_type');
    await bad({ template_id: 'crm' }, 'body.template_id');
    await bad({ template_id: 'custom', object_type: 'comment' }, 'body.object_type');
    await bad({ template_id: 'feedback', name: '' }, 'body.name');
    await bad({ template_id: 'feedback', name: '  ' }, 'body.name');
    const same = await api.req('POST', 'lists', {
      body: { template_id: 'recruiting', object_type: 'contact', name: 'Hiring' },
    });
    assert.equal(same.status, 201);
    assert.deepEqual((await api.req('GET', 'lists')).body.data.length, 1, 'nothing made on a 400');
    // A workspace-wide property named like the stage: the list's name is added to the stage's.
    await api.req('POST', 'contact/properties', { body: { name: 'Feedback status', type: 'str' } });
    const feedback = await api.req('POST', 'lists', {
      body: { template_id: 'feedback', name: 'Beta' },
    });
    assert.equal(feedback.status, 201, feedback.text);
    const stage = (await api.req('GET', `contact/properties?list_id=${feedback.body.id}`)).body
      .contact[feedback.body.stage_property_id];
    assert.equal(stage.name, 'Feedback status (Beta)');
  });

  test('the listing pages by cursor; an unknown list is 404', async (t) => {
    const api = await recordsApi(t);
    for (let i = 0; i < 3; i++) {
      await api.req('POST', 'lists', { body: { template_id: 'issue_tracker', name: `L${i}` } });
    }
    const first = await api.req('GET', 'lists?limit=2');
    assert.deepEqual(
      first.body.data.map((l: { name: string }) => l.name),
      ['L0', 'L1'],
    );
    assert.equal(first.body.has_more, true);
    const second = await api.req('GET', `lists?limit=2&cursor=${first.body.next_cursor}`);
    assert.deepEqual(
      second.body.data.map((l: { name: string }) => l.name),
      ['L2'],
    );
    assert.equal(second.body.next_cursor, null);
    const page2 = await api.req('GET', 'lists?limit=2&page=2');
    assert.deepEqual(
      page2.body.data.map((l: { name: string }) => l.name),
      ['L2'],
      'page (deprecated) still pages',
    );
    assert.equal((await api.req('GET', 'lists?cursor=nope')).status, 400);
    assert.equal((await api.req('GET', 'lists?limit=51')).status, 400);
    const missing = await api.req('GET', `lists/${crypto.randomUUID()}`);
    assert.equal(missing.status, 404);
    assert.match(missing.body.error.message, /^No list has the id/);
  });
});
