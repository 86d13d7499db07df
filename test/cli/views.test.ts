// ws views create/get/list/update/delete against the sandbox, with TTY on and off, and
// against a stub service that lacks the listing and deleting extensions.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { viewsOf } from '../../src/sandbox/resources/views/model.ts';
import { runWs, scriptedPrompter } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { type StubAnswer, startStub } from '../helpers/stub-server.ts';

let t: TestSandbox;
let env: Record<string, string>;
/** On a terminal, without colour so tables compare as text. */
let ttyEnv: Record<string, string>;

before(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  env = { ...(t.env as Record<string, string>), WS_NO_CACHE: '1' };
  ttyEnv = { ...env, NO_COLOR: '1' };
});
after(() => t.stop());

const views = () => viewsOf(t.sandbox.store);
const dealViews = () => views().list(t.sandbox.teamId, 'deal');

beforeEach(() => views().reset());

/** Create a view in the sandbox through the CLI; returns its id. */
async function create(...args: string[]): Promise<string> {
  const r = await runWs(['views', 'create', 'deal', ...args, '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).id;
}

/** A key/value listing as `ws views get` prints it on a terminal. */
/** A key/value listing on a terminal: the keys whose value is empty are left out. */
function kv(pairs: [string, string][]): string {
  const shown = pairs.filter(([, v]) => v !== '');
  const width = Math.max(...shown.map(([k]) => k.length));
  return `${shown.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n`;
}

describe('ws views create', () => {
  it('sends name, type, select, filter, combinator and sort; piped, prints the view as key<TAB>value lines', async () => {
    const r = await runWs(
      [
        'views',
        'create',
        'deals',
        '--name',
        'Big deals',
        '--type',
        'grid',
        '--select',
        'name,amount,organization.name',
        '--where',
        'amount>=10000',
        '--where',
        'stage:in=Won,lost',
        '--sort',
        '-amount,name',
      ],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    const [view] = dealViews();
    assert.ok(view);
    assert.equal(view.name, 'Big deals');
    assert.equal(view.view_type, 'grid');
    assert.deepEqual(view.select, ['name', 'amount', 'organization.name']);
    assert.deepEqual(view.filter, [
      { amount: { '>=': '10000' } },
      { stage: { in: ['won', 'lost'] } },
    ]);
    assert.equal(view.combinator, 'AND');
    assert.deepEqual(view.sort, [{ amount: 'desc' }, { name: 'asc' }]);
    assert.equal(
      r.stdout,
      [
        `id\t${view.id}`,
        'name\tBig deals',
        'view_type\tgrid',
        'select\tname;amount;organization.name',
        `filter\t${JSON.stringify(view.filter)}`,
        'combinator\tAND',
        `sort\t${JSON.stringify(view.sort)}`,
        'group_by\t',
        'group_hide_empty\t',
        'list_id\t',
        `created_at\t${view.created_at}`,
        `updated_at\t${view.updated_at}`,
        'record_order\t',
      ].join('\n') + '\n',
    );
    assert.equal(r.stderr, `✓ Created deal view "Big deals" (${view.id}).\n`);
  });

  it('--json prints the view bundle the API answered', async () => {
    const r = await runWs(['views', 'create', 'deal', '--name', 'J', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const [view] = dealViews();
    assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(view)));
    assert.equal(view!.view_type, 'grid', 'grid is the default type');
  });

  it('on a terminal, shows the view as a key/value listing; --or makes the combinator OR', async () => {
    const r = await runWs(
      [
        'views',
        'create',
        'deal',
        '--name',
        'Pipeline',
        '--type',
        'kanban',
        '--group-by',
        'stage',
        '--group-hide-empty',
        '--where',
        'name~Acme',
        '--where',
        'amount<5000',
        '--or',
      ],
      { env: ttyEnv, tty: true },
    );
    assert.equal(r.code, 0, r.stderr);
    const [view] = dealViews();
    assert.equal(
      r.stdout,
      kv([
        ['id', view!.id],
        ['name', 'Pipeline'],
        ['view_type', 'kanban'],
        ['select', ''],
        ['filter', 'name~Acme OR amount<5000'],
        ['combinator', 'OR'],
        ['sort', ''],
        ['group_by', 'stage'],
        ['group_hide_empty', 'true'],
        ['list_id', ''],
        ['created_at', view!.created_at],
        ['updated_at', view!.updated_at],
      ]),
    );
    assert.match(r.stderr, /Created deal view "Pipeline"/);
  });

  it('--filter-json entries come before --where ones', async () => {
    await create(
      '--name',
      'F',
      '--filter-json',
      '[{"notes":{"is_null":true}}]',
      '--where',
      'name^=A',
    );
    assert.deepEqual(dealViews()[0]!.filter, [
      { notes: { is_null: true } },
      { name: { begins_with: 'A' } },
    ]);
  });

  it('on a terminal without --name, asks for it', async () => {
    const prompter = scriptedPrompter({ 'Name of the new deal view': 'Asked for' });
    const r = await runWs(['views', 'create', 'deal'], { env: ttyEnv, tty: true, prompter });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(prompter.asked, ['Name of the new deal view']);
    assert.equal(dealViews()[0]!.name, 'Asked for');
  });

  it('piped without --name: a usage error naming the flag, nothing created', async () => {
    const r = await runWs(['views', 'create', 'deal'], { env });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: A view needs a name: pass --name\./);
    assert.equal(dealViews().length, 0);
  });

  it('bad object type, bad view type: exit 2', async () => {
    const bad = await runWs(['views', 'create', 'contact', '--name', 'x'], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Unknown object type "contact" for views/);
    assert.match(bad.stderr, /action, deal, document, event, identity, organization/);
    const kind = await runWs(['views', 'create', 'deal', '--name', 'x', '--type', 'calendar'], {
      env,
    });
    assert.equal(kind.code, 2);
    assert.match(kind.stderr, /calendar.*Allowed choices are grid, list, kanban/);
    // A kanban's columns are the options of a select property.
    const board = await runWs(
      ['views', 'create', 'deal', '--name', 'x', '--type', 'kanban', '--group-by', 'amount'],
      { env },
    );
    assert.equal(board.code, 2);
    assert.match(
      board.stderr,
      /--group-by "amount": a kanban view's columns are the options of a select property, and amount is a num property/,
    );
    assert.match(board.stderr, /Group by one of: .*stage/);
    assert.equal(dealViews().length, 0);
    const grid = await runWs(
      ['views', 'create', 'deal', '--name', 'By amount', '--group-by', 'amount'],
      { env },
    );
    assert.equal(grid.code, 0, grid.stderr);
  });

  it('an option colour the service does not use is a usage error listing the colours', async () => {
    const r = await runWs(
      ['props', 'options', 'add', 'deal', 'stage', 'Fair', '--color-scheme', 'rainbow'],
      { env },
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--color-scheme "rainbow" is not a colour of the workspace's options/);
    assert.match(r.stderr, /Colours: blue, gray, green, orange, pink, purple, red, teal, yellow\./);
  });

  it('a bad --where: exit 2, the expression and the fix named, nothing sent', async () => {
    const r = await runWs(['views', 'create', 'deal', '--name', 'x', '--where', 'amount=>5'], {
      env,
    });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^error: Bad --where "amount=>5": "=>5"|^error: Bad --where "amount=>5"/,
    );
    const syntax = await runWs(['views', 'create', 'deal', '--name', 'x', '--where', 'stage:in='], {
      env,
    });
    assert.equal(syntax.code, 2);
    assert.equal(
      syntax.stderr,
      'error: Bad --where "stage:in=": "in" needs values.\ne.g. stage:in=A,B.\n',
    );
    assert.equal(dealViews().length, 0);
  });

  it('unknown slugs in --where, --select, --sort and --group-by: "did you mean", exit 2', async () => {
    const cases: [string[], string][] = [
      [['--where', 'amout>=5'], 'Unknown property "amout" in --where "amout>=5"'],
      [['--select', 'name,stge'], 'Unknown property "stge" in --select "name,stge"'],
      [['--sort', '-amuont'], 'Unknown property "amuont" in --sort "-amuont"'],
      [['--group-by', 'stag'], 'Unknown property "stag" in --group-by'],
    ];
    for (const [flags, message] of cases) {
      const r = await runWs(['views', 'create', 'deal', '--name', 'x', ...flags], { env });
      assert.equal(r.code, 2, flags.join(' '));
      assert.ok(
        r.stderr.startsWith(`error: ${message}: deal has no property with that slug.\n`),
        r.stderr,
      );
      assert.match(r.stderr, /\nDid you mean "(amount|stage)"\?\n$/);
    }
    const json = await runWs(
      ['views', 'create', 'deal', '--name', 'x', '--where', 'stage=wno', '--json'],
      {
        env,
      },
    );
    assert.equal(json.code, 2);
    assert.deepEqual(JSON.parse(json.stderr), {
      error: {
        status: null,
        code: 'usage',
        message: 'Bad --where "stage=wno": "wno" is not an option of "stage".',
        request_id: null,
        errors: [],
        hint: 'Did you mean "won"? Options: lead (Lead), qualified (Qualified), proposal (Proposal), won (Won), lost (Lost).',
      },
    });
    assert.equal(dealViews().length, 0);
  });

  it('select values may be display names; they are sent as option slugs', async () => {
    await create('--name', 'Won', '--where', 'stage=Won', '--where', 'stage:not_in=Lead,qualified');
    assert.deepEqual(dealViews()[0]!.filter, [
      { stage: { '=': 'won' } },
      { stage: { not_in: ['lead', 'qualified'] } },
    ]);
  });

  it('--group-by takes a property of the type itself', async () => {
    const r = await runWs(
      ['views', 'create', 'deal', '--name', 'x', '--group-by', 'organization.name'],
      {
        env,
      },
    );
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /--group-by "organization.name": a view groups by a property of its own object type/,
    );
  });
});

describe('ws views get', () => {
  it('by id: a key/value listing on a terminal and piped, the bundle with --json', async () => {
    const id = await create(
      '--name',
      'Open',
      '--select',
      'name,stage',
      '--where',
      'stage:not_in=won,lost',
      '--sort',
      'name',
    );
    const view = dealViews()[0]!;
    const tty = await runWs(['views', 'get', 'deal', id], { env: ttyEnv, tty: true });
    assert.equal(tty.code, 0, tty.stderr);
    assert.equal(
      tty.stdout,
      kv([
        ['id', id],
        ['name', 'Open'],
        ['view_type', 'grid'],
        ['select', 'name, stage'],
        ['filter', 'stage:not_in=won,lost'],
        ['combinator', 'AND'],
        ['sort', 'name'],
        ['group_by', ''],
        ['group_hide_empty', ''],
        ['list_id', ''],
        ['created_at', view.created_at],
        ['updated_at', view.updated_at],
      ]),
    );
    assert.equal(tty.stderr, '');
    const piped = await runWs(['views', 'get', 'deal', id, '--fields', 'id,name,filter'], { env });
    assert.equal(
      piped.stdout,
      `id\t${id}\nname\tOpen\nfilter\t[{"stage":{"not_in":["won","lost"]}}]\n`,
    );
    const json = await runWs(['views', 'get', 'deal', id, '--json'], { env });
    assert.deepEqual(JSON.parse(json.stdout), JSON.parse(JSON.stringify(view)));
    const fields = await runWs(['views', 'get', 'deal', id, '--json', '--fields', 'name,sort'], {
      env,
    });
    assert.deepEqual(JSON.parse(fields.stdout), { name: 'Open', sort: [{ name: 'asc' }] });
  });

  it('by name, exactly or ignoring case', async () => {
    const id = await create('--name', 'Open deals');
    for (const name of ['Open deals', 'open DEALS']) {
      const r = await runWs(['views', 'get', 'deal', name, '--fields', 'id'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `${id}\n`);
    }
  });

  it('an unknown id or name exits 4; two views of one name exit 2', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const r = await runWs(['views', 'get', 'deal', missing], { env });
    assert.equal(r.code, 4);
    assert.match(r.stderr, new RegExp(`^error: No deal view has the id ${missing}`));
    assert.match(r.stderr, /List the deal views with `ws views list deal`\./);
    await create('--name', 'Twin');
    await create('--name', 'Twin');
    const named = await runWs(['views', 'get', 'deal', 'Nope'], { env });
    assert.equal(named.code, 4);
    assert.equal(
      named.stderr,
      'error: No deal view has the id or name "Nope".\ndeal views: "Twin", "Twin".\n',
    );
    const twins = await runWs(['views', 'get', 'deal', 'Twin'], { env });
    assert.equal(twins.code, 2);
    assert.match(
      twins.stderr,
      /^error: 2 deal views are named "Twin": [0-9a-f-]{36}, [0-9a-f-]{36}\.\nPass the id of the one you mean\.\n$/,
    );
  });

  it('a view of another object type is not found', async () => {
    const id = await create('--name', 'Deal view');
    const r = await runWs(['views', 'get', 'organization', id], { env });
    assert.equal(r.code, 4);
  });
});

describe('ws views list', () => {
  it('a table on a terminal with id, name, type, group by and updated', async () => {
    const a = await create('--name', 'Alpha');
    const b = await create('--name', 'Board', '--type', 'kanban', '--group-by', 'stage');
    const [va, vb] = dealViews();
    const r = await runWs(['views', 'list', 'deal'], { env: ttyEnv, tty: true });
    assert.equal(r.code, 0, r.stderr);
    const row = (id: string, name: string, type: string, group: string, updated: string) =>
      `${id.padEnd(36)}  ${name.padEnd(5)}  ${type.padEnd(6)}  ${group.padEnd(8)}  ${updated}`.trimEnd();
    assert.equal(
      r.stdout,
      [
        row('ID', 'NAME', 'TYPE', 'GROUP BY', 'UPDATED'),
        row(a, 'Alpha', 'grid', '', va!.updated_at),
        row(b, 'Board', 'kanban', 'stage', vb!.updated_at),
      ].join('\n') + '\n',
    );
  });

  it('piped: tsv rows; --json: an array of bundles; --fields picks', async () => {
    const a = await create('--name', 'Alpha', '--where', 'amount>1');
    const va = dealViews()[0]!;
    const tsv = await runWs(['views', 'list', 'deal'], { env });
    assert.equal(tsv.stdout, `${a}\tAlpha\tgrid\t\t${va.updated_at}\n`);
    const json = await runWs(['views', 'list', 'deal', '--json'], { env });
    assert.deepEqual(JSON.parse(json.stdout), [JSON.parse(JSON.stringify(va))]);
    const fields = await runWs(['views', 'list', 'deal', '--fields', 'name,filter,combinator'], {
      env,
    });
    assert.equal(fields.stdout, 'Alpha\t[{"amount":{">":"1"}}]\tAND\n');
    const unknown = await runWs(['views', 'list', 'deal', '--fields', 'nme'], { env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown field "nme"/);
  });

  it('reads every page of the listing', async () => {
    for (let i = 0; i < 55; i++) {
      const res = await fetch(`${t.sandbox.url}/v2/prism/${t.sandbox.teamId}/deal/views`, {
        method: 'POST',
        headers: { 'x-api-key': t.sandbox.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `V${i}`, view_type: 'grid' }),
      });
      assert.equal(res.status, 201);
    }
    const r = await runWs(['views', 'list', 'deal', '--fields', 'name'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split('\n').filter(Boolean).length, 55);
  });

  it('no views: an empty table says how to create one; --json is []', async () => {
    const tty = await runWs(['views', 'list', 'document'], { env: ttyEnv, tty: true });
    assert.equal(tty.code, 0);
    assert.equal(tty.stdout, '');
    assert.equal(
      tty.stderr,
      'No document views. Create one with `ws views create document --name NAME`.\n',
    );
    const json = await runWs(['views', 'list', 'document', '--json'], { env });
    assert.equal(json.stdout, '[]\n');
  });
});

describe('ws views update', () => {
  it('replaces select, filter and sort wholesale and keeps the rest', async () => {
    const id = await create(
      '--name',
      'Old',
      '--select',
      'name,amount',
      '--where',
      'amount>1',
      '--where',
      'name~a',
      '--or',
      '--sort',
      '-amount',
      '--group-by',
      'stage',
    );
    const r = await runWs(
      [
        'views',
        'update',
        'deal',
        id,
        '--name',
        'New',
        '--select',
        'name',
        '--where',
        'stage=won',
        '--sort',
        'name',
      ],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    const view = dealViews()[0]!;
    assert.equal(view.name, 'New');
    assert.deepEqual(view.select, ['name']);
    assert.deepEqual(view.filter, [{ stage: { '=': 'won' } }]);
    assert.equal(view.combinator, 'AND', 'a new filter combines with AND unless --or');
    assert.deepEqual(view.sort, [{ name: 'asc' }]);
    assert.equal(view.group_by, 'stage');
    assert.equal(r.stderr, `✓ Updated deal view "New" (${id}).\n`);
    assert.match(r.stdout, new RegExp(`^id\t${id}\nname\tNew\nview_type\tgrid\nselect\tname\n`));
  });

  it('--or or --and alone change only the combinator; --clear-* empty the lists', async () => {
    const id = await create(
      '--name',
      'V',
      '--where',
      'amount>1',
      '--sort',
      'name',
      '--group-by',
      'stage',
    );
    await runWs(['views', 'update', 'deal', id, '--or'], { env });
    assert.equal(dealViews()[0]!.combinator, 'OR');
    assert.deepEqual(dealViews()[0]!.filter, [{ amount: { '>': '1' } }]);
    await runWs(['views', 'update', 'deal', id, '--and'], { env });
    assert.equal(dealViews()[0]!.combinator, 'AND');
    const r = await runWs(
      [
        'views',
        'update',
        'deal',
        id,
        '--clear-filter',
        '--clear-sort',
        '--clear-group-by',
        '--json',
      ],
      {
        env,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    const view = dealViews()[0]!;
    assert.deepEqual([view.filter, view.sort, view.group_by], [[], [], null]);
    assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(view)));
  });

  it('on a terminal, by name, shows the updated view', async () => {
    await create('--name', 'Mine');
    const r = await runWs(
      ['views', 'update', 'deal', 'Mine', '--type', 'list', '--no-group-hide-empty'],
      {
        env: ttyEnv,
        tty: true,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^id {16}[0-9a-f-]{36}\nname {14}Mine\nview_type {9}list\n/);
    assert.equal(dealViews()[0]!.group_hide_empty, false);
  });

  it('nothing to update, clashing flags, a bad where, an unknown slug: exit 2; an unknown view: exit 4', async () => {
    const id = await create('--name', 'Same', '--where', 'amount>1');
    const before = JSON.stringify(dealViews()[0]);
    const cases: [string[], number, RegExp][] = [
      [[], 2, /^error: Nothing to update: pass at least one flag that changes the view\./],
      [['--or', '--and'], 2, /--or and --and cannot be used together/],
      [
        ['--clear-filter', '--where', 'a=1'],
        2,
        /--clear-filter and --where\/--filter-json cannot be used together/,
      ],
      [['--clear-sort', '--sort', 'name'], 2, /--clear-sort and --sort cannot be used together/],
      [['--where', 'amount'], 2, /Bad --where "amount": no operator follows "amount"/],
      [['--sort', 'nmae'], 2, /Unknown property "nmae" in --sort "nmae".*\nDid you mean "name"\?/],
      [['--name', ''], 2, /--name cannot be empty/],
    ];
    for (const [flags, code, message] of cases) {
      const r = await runWs(['views', 'update', 'deal', id, ...flags], { env });
      assert.equal(r.code, code, flags.join(' '));
      assert.match(r.stderr, message);
    }
    assert.equal(JSON.stringify(dealViews()[0]), before, 'nothing changed');
    const missing = await runWs(
      ['views', 'update', 'deal', '00000000-0000-4000-8000-000000000000', '--name', 'x'],
      {
        env,
      },
    );
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /List the deal views with `ws views list deal`/);
  });
});

describe('ws views delete', () => {
  it('on a terminal, asks first (with the name) and deletes on yes', async () => {
    const id = await create('--name', 'Doomed');
    const prompter = scriptedPrompter({ 'Delete deal view': true });
    const r = await runWs(['views', 'delete', 'deal', id], { env: ttyEnv, tty: true, prompter });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(prompter.asked, [`Delete deal view "Doomed" (${id})?`]);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `✓ Deleted deal view "Doomed" (${id}).\n`);
    assert.equal(dealViews().length, 0);
  });

  it('answering no cancels (exit 1) and keeps the view', async () => {
    const id = await create('--name', 'Kept');
    const prompter = scriptedPrompter({ 'Delete deal view': false });
    const r = await runWs(['views', 'delete', 'deal', id], { env: ttyEnv, tty: true, prompter });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Cancelled: nothing was changed\./);
    assert.equal(dealViews().length, 1);
  });

  it('piped without --yes: refused (exit 2), nothing deleted; with --yes deleted', async () => {
    const id = await create('--name', 'Piped');
    const refused = await runWs(['views', 'delete', 'deal', id], { env });
    assert.equal(refused.code, 2);
    assert.equal(
      refused.stderr,
      `error: Not deleting deal view ${id} without confirmation.\nPass --yes to confirm without a prompt.\n`,
    );
    assert.equal(dealViews().length, 1);
    const yes = await runWs(['views', 'delete', 'deal', 'Piped', '--yes', '--json'], { env });
    assert.equal(yes.code, 0, yes.stderr);
    assert.deepEqual(JSON.parse(yes.stdout), { deleted: id });
    assert.equal(dealViews().length, 0);
  });

  it('an unknown view exits 4', async () => {
    const r = await runWs(
      ['views', 'rm', 'deal', '00000000-0000-4000-8000-000000000000', '--yes'],
      { env },
    );
    assert.equal(r.code, 4);
    assert.match(r.stderr, /No deal view has the id 00000000-0000-4000-8000-000000000000/);
  });
});

describe('a service without the listing and deleting extensions', () => {
  const VIEW = {
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Hosted view',
    view_type: 'grid',
  };

  /** Run ws against a stub answering with `answer`; returns the result and the requests. */
  async function against(
    answer: (req: { method: string; url: string }) => StubAnswer,
    argv: string[],
  ) {
    const stub = await startStub(answer);
    try {
      // WS_BASE_URL and WS_API_KEY override the default profile's.
      const r = await runWs(argv, {
        env: { ...env, WS_BASE_URL: stub.url, WS_API_KEY: 'wsk_stub_0123456789' },
      });
      return {
        ...r,
        requests: stub.requests.map((q) => `${q.method} ${q.url}`),
        bodies: stub.requests.map((q) => q.body),
      };
    } finally {
      await stub.close();
    }
  }
  const notFound: StubAnswer = {
    status: 404,
    body: { error: { code: 'not_found', message: 'Not Found' } },
  };
  const notAllowed: StubAnswer = { status: 405, body: { message: 'Method Not Allowed' } };

  for (const [status, answer] of [
    [404, notFound],
    [405, notAllowed],
  ] as const) {
    it(`list: a ${status} is explained (exit 1, code operation_unavailable)`, async () => {
      const r = await against(() => answer, ['views', 'list', 'deal']);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(
        r.stderr,
        new RegExp(
          `^error: This service does not offer listing views \\(it answered GET /v2/prism/${t.sandbox.teamId}/deal/views with ${status}: `,
        ),
      );
      assert.match(
        r.stderr,
        /\nListing views is an extension of the ws sandbox, not part of the documented API\. Open a view whose id you know with `ws views get TYPE ID`/,
      );
      const json = await against(() => answer, ['views', 'list', 'deal', '--json']);
      const err = JSON.parse(json.stderr).error;
      assert.equal(err.status, status);
      assert.equal(err.code, 'operation_unavailable');
    });
  }

  it('delete: a 405 is explained', async () => {
    const r = await against(
      (req) => (req.method === 'DELETE' ? notAllowed : { status: 200, body: VIEW }),
      ['views', 'delete', 'deal', VIEW.id, '--yes'],
    );
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /^error: This service does not offer deleting views \(it answered DELETE .* with 405: Method Not Allowed\)\./,
    );
    assert.match(r.stderr, /Delete the view in the workspace app instead\./);
    assert.deepEqual(r.requests, [`DELETE /v2/prism/${t.sandbox.teamId}/deal/views/${VIEW.id}`]);
  });

  it('delete: a 404 for a view that exists is explained; for one that does not, exit 4', async () => {
    const exists = await against(
      (req) => (req.method === 'DELETE' ? notFound : { status: 200, body: VIEW }),
      ['views', 'delete', 'deal', VIEW.id, '--yes'],
    );
    assert.equal(exists.code, 1);
    assert.match(exists.stderr, /^error: This service does not offer deleting views/);
    assert.deepEqual(exists.requests, [
      `DELETE /v2/prism/${t.sandbox.teamId}/deal/views/${VIEW.id}`,
      `GET /v2/prism/${t.sandbox.teamId}/deal/views/${VIEW.id}`,
    ]);
    const gone = await against(() => notFound, ['views', 'delete', 'deal', VIEW.id, '--yes']);
    assert.equal(gone.code, 4);
    assert.match(
      gone.stderr,
      new RegExp(
        `^error: No deal view has the id ${VIEW.id}\\.\\nList the deal views with \`ws views list deal\`\\.`,
      ),
    );
  });

  it('a view named by name cannot be looked up there: exit 2, pass the id', async () => {
    const r = await against(() => notFound, ['views', 'get', 'deal', 'Hosted view']);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      'error: "Hosted view" is not a view id (a UUID), and this service does not list views, so a name cannot be looked up.\nPass the view\'s id instead; it is shown in the workspace app.\n',
    );
  });

  it('create: when the definitions cannot be read, slugs are not checked, with a warning', async () => {
    const r = await against(
      (req) => (req.method === 'POST' ? { status: 201, body: VIEW } : notFound),
      [
        'views',
        'create',
        'deal',
        '--name',
        'Hosted view',
        '--where',
        'amount>=5',
        '--fields',
        'id',
      ],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${VIEW.id}\n`);
    assert.match(
      r.stderr,
      /^warning: could not read the deal property definitions, so slugs are not checked here: /,
    );
    assert.equal(r.requests.length, 2);
    assert.ok(r.requests[0]!.startsWith(`GET /v2/prism/${t.sandbox.teamId}/deal/properties`));
    assert.equal(r.requests[1], `POST /v2/prism/${t.sandbox.teamId}/deal/views`);
    assert.deepEqual(JSON.parse(r.bodies[1]!), {
      name: 'Hosted view',
      view_type: 'grid',
      filter: [{ amount: { '>=': '5' } }],
      combinator: 'AND',
    });
  });

  it('get by id works without the extensions', async () => {
    const r = await against(
      () => ({ status: 200, body: VIEW }),
      ['views', 'get', 'deal', VIEW.id, '--fields', 'id,name'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `id\t${VIEW.id}\nname\tHosted view\n`);
  });
});
