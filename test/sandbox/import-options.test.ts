// The import options the hosted service's official client sends (facts.md, "What the
// official client sends"): update_existing, create_missing_options, require_list_stage,
// crm_id and dedupe_by as an array of one slug, each through the synchronous path (fewer
// than 100 objects) and the job runner (100 or more), over real HTTP.

import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { SYNC_LIMIT } from '../../src/sandbox/resources/imports/model.ts';
import { propertiesOf } from '../../src/sandbox/resources/properties/model.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import type { RunningSandbox } from '../../src/sandbox/sandbox.ts';
import { type Answer, call, prism } from './helpers.ts';
import { sandboxFor } from './properties-http.ts';

type Row = { default?: Record<string, unknown>; list?: unknown };
type Result = {
  id: string | null;
  created: boolean;
  existing: boolean;
  updated: boolean;
  error?: { code: string; message: string };
};

/** Import `objects` and answer the finished job, polling when it ran as a job. */
async function importAll(
  sandbox: RunningSandbox,
  objects: Row[],
  options: Record<string, unknown>,
  type = 'contact',
): Promise<{ status: number; results: Result[]; answer: Answer }> {
  const answer = await call(sandbox, 'POST', prism(sandbox, `${type}/import`), {
    body: { objects, options },
  });
  if (answer.status !== 202) return { status: answer.status, results: answer.body.results, answer };
  for (let i = 0; i < 5000; i++) {
    const polled = await call(sandbox, 'GET', answer.headers['location']!);
    if (polled.body.status !== 'processing') {
      return { status: 202, results: polled.body.results, answer: polled };
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error('job still processing');
}

/** `rows` padded with new contacts to reach the job runner's size (the padding comes last). */
function asJob(rows: Row[]): Row[] {
  const pad = Array.from({ length: SYNC_LIMIT - rows.length }, (_, i) => ({
    default: { email: `pad${i}@x.example` },
  }));
  return [...rows, ...pad];
}

const PATHS = [
  { name: 'synchronous', rows: (rows: Row[]) => rows, status: 200 },
  { name: 'job runner', rows: asJob, status: 202 },
] as const;

async function start(t: TestContext): Promise<RunningSandbox> {
  return sandboxFor(t);
}

for (const path of PATHS) {
  describe(`import options (${path.name})`, () => {
    test('update_existing false: a matched record is left as it is, the row is existing and not updated', async (t) => {
      const sandbox = await start(t);
      const records = recordsOf(sandbox.store);
      const ada = records.create('contact', { default: { name: 'Ada', email: 'ada@x.example' } });
      const { status, results } = await importAll(
        sandbox,
        path.rows([
          { default: { email: 'ada@x.example', name: 'Changed', city: 'Paris' } },
          { default: { email: 'new@x.example', name: 'New' } },
        ]),
        { dedupe_by: ['email'], update_existing: false },
      );
      assert.equal(status, path.status);
      const [kept, created] = results;
      assert.deepEqual(kept, {
        id: ada.id,
        created: false,
        existing: true,
        updated: false,
        input_index: 0,
      });
      assert.equal(created!.created, true);
      assert.equal(records.get('contact', ada.id)?.version, 1);
      assert.deepEqual(records.get('contact', ada.id)?.default, {
        name: 'Ada',
        email: 'ada@x.example',
      });
      // The default (true) patches, as before.
      const again = await importAll(
        sandbox,
        path.rows([{ default: { email: 'ada@x.example', city: 'Paris' } }]),
        { dedupe_by: 'email', update_existing: true },
      );
      assert.deepEqual([again.results[0]!.existing, again.results[0]!.updated], [true, true]);
      assert.equal(records.get('contact', ada.id)?.default['city'], 'Paris');
    });

    test('create_missing_options: unknown select and multiselect values create options, then the row is written', async (t) => {
      const sandbox = await start(t);
      const properties = propertiesOf(sandbox.store);
      const tier = properties.create(sandbox.teamId, 'contact', {
        name: 'Tier',
        slug: 'tier',
        type: 'select_str',
        options: [{ value: 'Gold' }],
      });
      const skills = properties.create(sandbox.teamId, 'contact', {
        name: 'Skills',
        slug: 'skills',
        type: 'multiselect_str',
      });
      const rows = path.rows([
        { default: { email: 'a@x.example', tier: 'Platinum', skills: ['Go', 'Rust', 'go'] } },
        { default: { email: 'b@x.example', tier: 'platinum', skills: ['Rust'] } },
        { default: { email: 'c@x.example', tier: 'Gold' } },
        // Another problem besides the unknown option: the row fails, no option is created.
        { default: { email: 'd@x.example', tier: 'Silver', score: 'high' } },
      ]);
      const { results } = await importAll(sandbox, rows, { create_missing_options: true });
      assert.deepEqual(
        results.slice(0, 4).map((r) => r.error?.code ?? 'ok'),
        ['ok', 'ok', 'ok', 'unknown_option'],
      );
      assert.match(results[3]!.error!.message, /score/);
      assert.deepEqual(
        properties.get(sandbox.teamId, 'contact', tier.id)?.options?.map((o) => o.value),
        ['Gold', 'Platinum'],
      );
      assert.deepEqual(
        properties.get(sandbox.teamId, 'contact', skills.id)?.options?.map((o) => o.slug),
        ['go', 'rust'],
      );
      const a = recordsOf(sandbox.store).get('contact', results[0]!.id!);
      assert.deepEqual(a?.default, {
        email: 'a@x.example',
        tier: 'platinum',
        skills: ['go', 'rust'],
      });
      assert.equal(
        recordsOf(sandbox.store).get('contact', results[1]!.id!)?.default['tier'],
        'platinum',
      );
    });

    test('without create_missing_options, or on a locked shared definition, the row fails with unknown_option', async (t) => {
      const sandbox = await start(t);
      const properties = propertiesOf(sandbox.store);
      properties.create(sandbox.teamId, 'contact', {
        name: 'Tier',
        slug: 'tier',
        type: 'select_str',
      });
      const without = await importAll(
        sandbox,
        path.rows([{ default: { email: 'a@x.example', tier: 'Gold' } }]),
        {},
      );
      assert.equal(without.results[0]!.error?.code, 'unknown_option');
      // `status` is a shared default (locked): its options cannot be created.
      const locked = await importAll(
        sandbox,
        path.rows([{ default: { email: 'b@x.example', status: 'prospect' } }]),
        { create_missing_options: true },
      );
      assert.equal(locked.results[0]!.error?.code, 'unknown_option');
      const status = properties.defaults('contact').find((d) => d.slug === 'status');
      assert.deepEqual(
        status?.options?.map((o) => o.slug),
        ['lead', 'customer', 'churned'],
      );
      const tier = properties.visible(sandbox.teamId, 'contact').find((d) => d.slug === 'tier');
      assert.deepEqual(tier?.options, []);
    });

    test('require_list_stage with list_id (or its alias crm_id): a row without a stage fails', async (t) => {
      const sandbox = await start(t);
      const list = crypto.randomUUID();
      const records = recordsOf(sandbox.store);
      const staged = records.create('deal', {
        default: { name: 'Staged', stage: 'won' },
      });
      const rows = path
        .rows([
          { default: { name: 'Has one', stage: 'lead' } },
          { default: { name: 'Has none' } },
          { default: { name: 'Cleared', stage: null } },
          { default: { name: 'Staged', amount: 5 } },
        ])
        .map((row, i) => (i < 4 ? row : { default: { name: `pad ${i}`, stage: 'lead' } }));
      for (const options of [
        { list_id: list, require_list_stage: true, dedupe_by: 'name' },
        { crm_id: list, require_list_stage: true, dedupe_by: 'name' },
      ]) {
        const { results } = await importAll(sandbox, rows, options, 'deal');
        assert.deepEqual(
          results.slice(0, 4).map((r) => r.error?.code ?? 'ok'),
          ['ok', 'list_stage_required', 'list_stage_required', 'ok'],
          JSON.stringify(options),
        );
        assert.match(
          results[1]!.error!.message,
          /require_list_stage is set and the row gives no stage/,
        );
        assert.equal(results[3]!.id, staged.id, 'the matched record has a stage already');
      }
      assert.equal(records.count('deal', { listId: list }), path.status === 200 ? 2 : 98);
      // Without list_id the option changes nothing.
      const free = await importAll(
        sandbox,
        path.rows([{ default: { name: 'Free' } }]),
        { require_list_stage: true },
        'deal',
      );
      assert.equal(free.results[0]!.error, undefined);
    });
  });
}

describe('import options at the door', () => {
  test('dedupe_by as an array of one slug matches like the slug', async (t) => {
    const sandbox = await start(t);
    const ada = recordsOf(sandbox.store).create('contact', { default: { email: 'ada@x.example' } });
    const { results } = await importAll(sandbox, [{ default: { email: 'ada@x.example' } }], {
      dedupe_by: ['email'],
    });
    assert.equal(results[0]!.id, ada.id);
  });

  test('dedupe_by with more than one slug, or none, is a clear 400', async (t) => {
    const sandbox = await start(t);
    const two = await importAll(sandbox, [{}], { dedupe_by: ['email', 'name'] });
    assert.equal(two.status, 400);
    assert.deepEqual(two.answer.body.error.errors, [
      {
        field: 'body.options.dedupe_by',
        code: 'max_items',
        message:
          'holds one slug at most; rows are matched by one property (send "dedupe_by":"<slug>")',
      },
    ]);
    const none = await importAll(sandbox, [{}], { dedupe_by: [] });
    assert.equal(none.status, 400);
    assert.equal(none.answer.body.error.errors[0].field, 'body.options.dedupe_by');
    assert.equal(none.answer.body.error.errors[0].code, 'min_items');
  });

  test('crm_id and list_id that differ: 400 naming body.options.crm_id', async (t) => {
    const sandbox = await start(t);
    const answer = await importAll(sandbox, [{}], {
      list_id: crypto.randomUUID(),
      crm_id: crypto.randomUUID(),
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.answer.body.error.errors[0].field, 'body.options.crm_id');
    assert.equal(answer.answer.body.error.errors[0].code, 'mismatch');
    assert.equal(recordsOf(sandbox.store).count('contact'), 0);
  });

  test('the options of the official client are all accepted together', async (t) => {
    const sandbox = await start(t);
    const list = crypto.randomUUID();
    const { status, results } = await importAll(
      sandbox,
      [{ default: { name: 'A', email: 'a@x.example' } }],
      {
        dedupe_by: ['email'],
        caseInsensitive: true,
        update_existing: false,
        create_missing_options: true,
        require_list_stage: false,
        crm_id: list,
      },
    );
    assert.equal(status, 200);
    assert.equal(results[0]!.created, true);
    assert.equal(recordsOf(sandbox.store).count('contact', { listId: list }), 1);
  });
});
