// ws lists create / list / get against the sandbox: a list from a template with its stage
// property and views (checked in the sandbox's store), listed and read by id or name, on a
// terminal and piped; a missing template asked for on a terminal and a usage error piped;
// --list-id of other commands names a list made here.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { listsOf } from '../../src/sandbox/resources/lists/model.ts';
import { propertiesOf } from '../../src/sandbox/resources/properties/model.ts';
import { runWs, scriptedPrompter } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let t: TestSandbox;
let env: Record<string, string>;
let dir: string;

before(async () => {
  t = await startTestSandbox();
  env = { ...(t.env as Record<string, string>), NO_COLOR: '1' };
  dir = mkdtempSync(join(tmpdir(), 'ws-lists-'));
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.stop();
});
beforeEach(() => t.sandbox.reset());

const stored = () => listsOf(t.sandbox.store).list(t.sandbox.teamId);

describe('ws lists create', () => {
  it('makes the list, its stage property and views; piped, key<TAB>value lines', async () => {
    const r = await runWs(
      ['lists', 'create', '--template', 'sales_deals', '--name', 'Q3 pipeline'],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    const [list] = stored();
    assert.ok(list);
    assert.equal(list.name, 'Q3 pipeline');
    assert.match(r.stderr, /^✓ Created deal list "Q3 pipeline" \(.+\) with 2 views\.\n$/);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], `id\t${list.id}`);
    assert.equal(lines[2], 'template_id\tsales_deals');
    assert.equal(lines[3], 'object_type\tdeal');
    assert.equal(lines[4], `stage_property_id\t${list.stage_property_id}`);
    assert.match(lines[5]!, /^views\tPipeline \(kanban, [0-9a-f-]+\);All Q3 pipeline \(grid, /);
    const stage = propertiesOf(t.sandbox.store)
      .visible(t.sandbox.teamId, 'deal', list.id)
      .find((d) => d.id === list.stage_property_id);
    assert.equal(stage?.alias, 'app_stage');
  });

  it('custom needs --object-type; a bad template or type is exit 2 before any request', async () => {
    const custom = await runWs(
      ['lists', 'create', '--template', 'custom', '--object-type', 'engagements', '--json'],
      { env },
    );
    assert.equal(custom.code, 0, custom.stderr);
    assert.equal(JSON.parse(custom.stdout).object_type, 'engagement');
    for (const [argv, message] of [
      [['--template', 'custom'], /A custom list needs --object-type/],
      [['--template', 'crm'], /Unknown list template "crm"/],
      [['--template', 'custom', '--object-type', 'widget'], /Unknown object type "widget"/],
      [['--template', 'feedback', '--name', ' '], /--name cannot be empty/],
    ] as const) {
      const r = await runWs(['lists', 'create', ...argv], { env });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
    }
    const mismatch = await runWs(
      ['lists', 'create', '--template', 'recruiting', '--object-type', 'deal'],
      { env },
    );
    assert.equal(mismatch.code, 2, 'the API says why');
    assert.match(mismatch.stderr, /a recruiting list holds contact records, not deal/);
    assert.equal(stored().length, 1);
  });

  it('a missing --template is asked for on a terminal, a usage error piped', async () => {
    const piped = await runWs(['lists', 'create'], { env });
    assert.equal(piped.code, 2);
    assert.match(piped.stderr, /A list is made from a template: pass --template\./);
    const asked = await runWs(['lists', 'create', '--name', 'Hiring'], {
      env,
      tty: true,
      prompter: scriptedPrompter({ Template: 'recruiting' }),
    });
    assert.equal(asked.code, 0, asked.stderr);
    assert.equal(stored()[0]?.template_id, 'recruiting');
  });
});

describe('ws lists list and get', () => {
  it('lists them; get by id or by name shows the views; an unknown name is exit 4', async () => {
    for (const [template, name] of [
      ['issue_tracker', 'Bugs'],
      ['knowledge_base', 'Docs'],
    ]) {
      await runWs(['lists', 'create', '--template', template!, '--name', name!], { env });
    }
    const [bugs, docs] = stored();
    const piped = await runWs(['lists', 'list'], { env });
    assert.equal(
      piped.stdout,
      `${bugs!.id}\tBugs\tissue_tracker\taction\t${bugs!.created_at}\n${docs!.id}\tDocs\tknowledge_base\tdocument\t${docs!.created_at}\n`,
    );
    const tty = await runWs(['lists', 'list'], { env, tty: true });
    assert.match(tty.stdout, /^ID\s+NAME\s+TEMPLATE\s+TYPE\s+CREATED\n/);

    const byName = await runWs(['lists', 'get', 'docs', '--json'], { env });
    assert.equal(byName.code, 0, byName.stderr);
    const read = JSON.parse(byName.stdout);
    assert.equal(read.id, docs!.id);
    assert.deepEqual(
      read.views.map((v: { name: string }) => v.name),
      ['Pipeline', 'All Docs'],
    );
    const byId = await runWs(['lists', 'get', bugs!.id, '--fields', 'name'], { env });
    assert.equal(byId.stdout, 'Bugs\n');
    const onTty = await runWs(['lists', 'get', 'Bugs'], { env, tty: true });
    assert.match(onTty.stdout, /views\s+Pipeline \(kanban, [0-9a-f-]+\)\n\s+All Bugs \(grid, /);
    const unknownId = await runWs(['lists', 'get', '00000000-0000-4000-8000-000000000000'], {
      env,
    });
    assert.equal(unknownId.code, 4);
    assert.match(
      unknownId.stderr,
      /^error: No list has the id 00000000-0000-4000-8000-000000000000\./,
    );
    assert.match(unknownId.stderr, /List them with `ws lists list`\./);
    const unknown = await runWs(['lists', 'get', 'Nope'], { env });
    assert.equal(unknown.code, 4);
    assert.match(unknown.stderr, /No list has the id or name "Nope"/);
    assert.match(unknown.stderr, /Lists: "Bugs", "Docs"\./);
  });

  it("--list-id of other commands names a list made here: its views and its members' stage", async () => {
    const r = await runWs(
      ['lists', 'create', '--template', 'sales_deals', '--name', 'Q4', '--json'],
      { env },
    );
    const list = JSON.parse(r.stdout);
    const views = await runWs(['views', 'list', 'deal', '--list-id', list.id, '--fields', 'name'], {
      env,
    });
    assert.equal(views.stdout, 'Pipeline\nAll Q4\n');
    const props = await runWs(['props', 'list', 'deal', '--list-id', list.id, '--json'], { env });
    assert.ok(
      JSON.parse(props.stdout).some(
        (d: { slug: string; alias: string | null }) =>
          d.alias === 'app_stage' && d.slug === 'deal_stage',
      ),
    );
    const csv = join(dir, 'members.csv');
    writeFileSync(csv, 'name,deal_stage\nMember,Negotiation\n');
    const imported = await runWs(['import', 'deal', csv, '--list-id', list.id], { env });
    assert.equal(imported.code, 0, imported.stderr);
    const count = await runWs(['records', 'count', 'deal', '--list-id', list.id], { env });
    assert.equal(count.stdout, '1\n');
    const board = await runWs(['views', 'records', 'deal', list.views[0].id], { env });
    assert.equal(board.stdout, 'Member\t\tnegotiation\t\n');
  });
});
