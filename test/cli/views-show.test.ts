// ws views show: a view's records as a table of its columns, page after page, and kanban
// views group by group.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordsOf } from '../../src/sandbox/index.ts';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let t: TestSandbox;
let env: Record<string, string>;
let ttyEnv: Record<string, string>;

const STAGES = ['lead', 'qualified', 'proposal', 'won', 'lost'];
const COUNT = 120;
/** Deal i (1..120): "Deal 00i", amount i*100, stage STAGES[i % 5], organization Acme or Globex. */
const deal = (i: number) => ({
  name: `Deal ${String(i).padStart(3, '0')}`,
  amount: i * 100,
  stage: STAGES[i % 5]!,
  org: i % 2 === 0 ? 'Acme' : 'Globex',
});

before(async () => {
  t = await startTestSandbox();
  env = { ...(t.env as Record<string, string>), WS_NO_CACHE: '1' };
  ttyEnv = { ...env, NO_COLOR: '1' };
  const records = recordsOf(t.sandbox.store);
  const orgs = {
    Acme: records.create('organization', { default: { name: 'Acme' } }).id,
    Globex: records.create('organization', { default: { name: 'Globex' } }).id,
  };
  for (let i = 1; i <= COUNT; i++) {
    const d = deal(i);
    records.create('deal', {
      default: {
        name: d.name,
        amount: d.amount,
        stage: d.stage,
        organization: orgs[d.org as 'Acme'],
      },
    });
  }
});
after(() => t.stop());

/** Create a deal view through the CLI; returns its id. */
async function createView(...args: string[]): Promise<string> {
  const r = await runWs(['views', 'create', 'deal', ...args, '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).id;
}

/** The API, for what the CLI does not do (a view the CLI would not create as it is). */
async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.sandbox.url}/v2/prism/${t.sandbox.teamId}${path}`, {
    method,
    headers: { 'x-api-key': t.sandbox.apiKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Deals by amount, descending: the order of a view sorted by -amount. */
const byAmountDesc = Array.from({ length: COUNT }, (_, k) => deal(COUNT - k));
const tsv = (deals: ReturnType<typeof deal>[]) =>
  deals.map((d) => `${d.name}\t${d.amount}\t${d.org}\n`).join('');

describe('ws views show: a grid view over several pages', () => {
  let id: string;
  before(async () => {
    id = await createView(
      '--name',
      'All',
      '--select',
      'name,amount,organization.name',
      '--sort',
      '-amount',
    );
  });

  it('by default, one page of 50, and a note that more match', async () => {
    const r = await runWs(['views', 'show', 'deal', id], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, tsv(byAmountDesc.slice(0, 50)));
    assert.equal(
      r.stderr,
      'Showing the first 50 records of deal view "All"; more match it: pass --limit N or --all.\n',
    );
    const one = await runWs(['views', 'show', 'deal', id, '--limit', '1'], { env });
    assert.equal(
      one.stderr,
      'Showing the first 1 record of deal view "All"; more match it: pass --limit N or --all.\n',
    );
  });

  it('--limit N reads N records over as many pages as that takes, with progress on stderr', async () => {
    const r = await runWs(['views', 'show', 'deal', 'All', '--limit', '70'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, tsv(byAmountDesc.slice(0, 70)));
    assert.equal(
      r.stderr,
      'Reading the records of deal view "All": 50 of 70\n' +
        'Showing the first 70 records of deal view "All"; more match it: pass --limit N or --all.\n',
    );
    const exact = await runWs(['views', 'show', 'deal', id, '--limit', '120'], { env });
    assert.equal(exact.stdout, tsv(byAmountDesc));
    assert.equal(exact.stderr, 'Reading the records of deal view "All": 50 of 120\n');
  });

  it('--all reads to the end; --quiet silences the progress', async () => {
    const r = await runWs(['views', 'show', 'deal', id, '--all'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, tsv(byAmountDesc));
    assert.equal(r.stderr, 'Reading the records of deal view "All": 50\n');
    const quiet = await runWs(
      ['views', 'show', 'deal', id, '--all', '--quiet', '--format', 'ndjson'],
      {
        env,
      },
    );
    assert.equal(quiet.stderr, '');
    const lines = quiet.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, COUNT);
    assert.deepEqual(Object.keys(lines[0]), ['id', 'properties']);
    assert.equal(lines[0].properties.name, 'Deal 120');
    assert.deepEqual(lines[0].properties.organization.properties, { name: 'Acme' });
  });

  it('--json: one document { view, records, has_more, groups }', async () => {
    const r = await runWs(['views', 'show', 'deal', id, '--json', '--limit', '60'], { env });
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(doc), ['view', 'records', 'has_more', 'groups']);
    assert.equal(doc.view.id, id);
    assert.deepEqual(doc.view.select, ['name', 'amount', 'organization.name']);
    assert.equal(doc.records.length, 60);
    assert.deepEqual(
      doc.records.map((row: { properties: { name: string } }) => row.properties.name),
      byAmountDesc.slice(0, 60).map((d) => d.name),
    );
    assert.equal(doc.has_more, true);
    assert.equal(doc.groups, null);
    const all = JSON.parse(
      (await runWs(['views', 'show', 'deal', id, '--json', '--all'], { env })).stdout,
    );
    assert.equal(all.records.length, COUNT);
    assert.equal(all.has_more, false);
  });

  it('--fields picks columns by select path (and id); csv has them as headers', async () => {
    const r = await runWs(
      [
        'views',
        'show',
        'deal',
        id,
        '--limit',
        '2',
        '--format',
        'csv',
        '--fields',
        'organization.name,name',
      ],
      {
        env,
      },
    );
    assert.equal(r.stdout, 'organization.name,name\r\nAcme,Deal 120\r\nGlobex,Deal 119\r\n');
    const json = await runWs(
      ['views', 'show', 'deal', id, '--limit', '1', '--json', '--fields', 'id,amount'],
      {
        env,
      },
    );
    const [row] = JSON.parse(json.stdout).records;
    assert.deepEqual(Object.keys(row), ['id', 'amount']);
    assert.equal(row.amount, 12000);
    const bad = await runWs(['views', 'show', 'deal', id, '--fields', 'amont'], { env });
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /Unknown field "amont".*\nAvailable fields: id, name, amount, organization\.name\./,
    );
  });

  it('on a terminal: a table headed by the select paths in capitals, numbers to the right', async () => {
    const small = await createView(
      '--name',
      'Top',
      '--select',
      'name,amount,organization.name',
      '--where',
      'amount>=11800',
      '--sort',
      '-amount',
    );
    const r = await runWs(['views', 'show', 'deal', small], { env: ttyEnv, tty: true });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        'NAME      AMOUNT  ORGANIZATION.NAME',
        'Deal 120   12000  Acme',
        'Deal 119   11900  Globex',
        'Deal 118   11800  Acme',
        '',
      ].join('\n'),
    );
    assert.equal(r.stderr, '');
  });

  it('a view nothing matches: a message on a terminal, [] records in JSON', async () => {
    const none = await createView(
      '--name',
      'None',
      '--where',
      'amount>99999999',
      '--select',
      'name',
    );
    const tty = await runWs(['views', 'show', 'deal', none], { env: ttyEnv, tty: true });
    assert.equal(tty.code, 0);
    assert.equal(tty.stdout, '');
    assert.equal(tty.stderr, 'No records match deal view "None".\n');
    const json = JSON.parse(
      (await runWs(['views', 'show', 'deal', none, '--json'], { env })).stdout,
    );
    assert.deepEqual([json.records, json.has_more], [[], false]);
  });

  it('flag errors exit 2; an unknown view exits 4', async () => {
    const both = await runWs(['views', 'show', 'deal', id, '--all', '--limit', '5'], { env });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /^error: --all and --limit cannot be used together\./);
    const zero = await runWs(['views', 'show', 'deal', id, '--limit', '0'], { env });
    assert.equal(zero.code, 2);
    assert.match(zero.stderr, /--limit takes a whole number at least 1, not "0"/);
    const missing = await runWs(['views', 'show', 'deal', '00000000-0000-4000-8000-000000000000'], {
      env,
    });
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /List the deal views with `ws views list deal`/);
    const type = await runWs(['views', 'show', 'contacts', id], { env });
    assert.equal(type.code, 2);
  });
});

describe('ws views show: a kanban view', () => {
  it('on a terminal: one group after another in option order, with counts', async () => {
    // Deals 1..3: qualified, proposal, won; lead and lost are empty.
    const id = await createView(
      '--name',
      'Board',
      '--type',
      'kanban',
      '--group-by',
      'stage',
      '--select',
      'name,amount,stage',
      '--where',
      'amount<=300',
      '--sort',
      'name',
    );
    const r = await runWs(['views', 'show', 'deal', id], { env: ttyEnv, tty: true });
    assert.equal(r.code, 0, r.stderr);
    const group = (label: string, d?: ReturnType<typeof deal>) =>
      d
        ? `${label} (1)\nNAME      AMOUNT  STAGE\n${d.name}  ${String(d.amount).padStart(6)}  ${d.stage}\n`
        : `${label} (0)\n  no records\n`;
    assert.equal(
      r.stdout,
      [
        group('Lead'),
        group('Qualified', deal(1)),
        group('Proposal', deal(2)),
        group('Won', deal(3)),
        group('Lost'),
      ].join('\n'),
    );
    assert.equal(r.stderr, '');

    const json = JSON.parse((await runWs(['views', 'show', 'deal', id, '--json'], { env })).stdout);
    assert.deepEqual(json.groups, [
      { value: 'lead', label: 'Lead', count: 0 },
      { value: 'qualified', label: 'Qualified', count: 1 },
      { value: 'proposal', label: 'Proposal', count: 1 },
      { value: 'won', label: 'Won', count: 1 },
      { value: 'lost', label: 'Lost', count: 0 },
    ]);
    assert.equal(json.records.length, 3);

    // Piped, the records come as the view returns them, without headings.
    const piped = await runWs(['views', 'show', 'deal', id], { env });
    assert.equal(
      piped.stdout,
      'Deal 001\t100\tqualified\nDeal 002\t200\tproposal\nDeal 003\t300\twon\n',
    );
  });

  it('group_hide_empty hides empty groups; group_hidden_option_ids hides those options', async () => {
    const id = await createView(
      '--name',
      'Compact',
      '--type',
      'kanban',
      '--group-by',
      'stage',
      '--group-hide-empty',
      '--select',
      'name,stage',
      '--where',
      'amount<=1000',
    );
    const won = (await api('GET', '/deal/properties')).deal as Record<
      string,
      { slug: string; options?: { id: string; slug: string }[] }
    >;
    const stage = Object.values(won).find((d) => d.slug === 'stage')!;
    await api('PATCH', `/deal/views/${id}`, {
      group_hidden_option_ids: [stage.options?.find((o) => o.slug === 'won')?.id ?? 'won'],
      filter: [{ amount: { '<=': '1000' } }, { stage: { '!=': 'lead' } }],
    });
    const json = JSON.parse((await runWs(['views', 'show', 'deal', id, '--json'], { env })).stdout);
    assert.deepEqual(
      json.groups.map((g: { value: string; count: number }) => [g.value, g.count]),
      [
        ['qualified', 2],
        ['proposal', 2],
        ['lost', 2],
      ],
    );
    const tty = await runWs(['views', 'show', 'deal', id], { env: ttyEnv, tty: true });
    assert.deepEqual(
      tty.stdout.split('\n').filter((l) => / \(\d+\)$/.test(l)),
      ['Qualified (2)', 'Proposal (2)', 'Lost (2)'],
    );
  });

  it('create adds the group_by property to a --select without it, and says so', async () => {
    const r = await runWs(
      [
        'views',
        'create',
        'deal',
        '--name',
        'Cards',
        '--type',
        'kanban',
        '--group-by',
        'stage',
        '--select',
        'name',
        '--json',
      ],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).select, ['name', 'stage']);
    assert.match(
      r.stderr,
      /^Added "stage" to --select: the records of a kanban view carry the property they are grouped by\.\n/,
    );
  });

  it('a kanban view that does not select its group_by is shown ungrouped, with a warning', async () => {
    const view = await api('POST', '/deal/views', {
      name: 'Bare',
      view_type: 'kanban',
      group_by: 'stage',
      select: ['name'],
      filter: [{ amount: { '<=': '200' } }],
      sort: [{ name: 'asc' }],
    });
    const r = await runWs(['views', 'show', 'deal', String(view.id)], { env: ttyEnv, tty: true });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'NAME\nDeal 001\nDeal 002\n');
    assert.equal(
      r.stderr,
      `warning: deal view "Bare" does not select "stage", the property it is grouped by, so its records are shown ungrouped. Add it: ws views update deal ${view.id} --select name,stage\n`,
    );
  });
});

describe('ws views show on a terminal over several pages', () => {
  it('a spinner on stderr while pages are read; the table on stdout', async () => {
    const id = await createView('--name', 'Sixty', '--select', 'name,amount', '--sort', '-amount');
    const r = await runWs(['views', 'show', 'deal', id, '--limit', '60'], {
      env: ttyEnv,
      tty: true,
    });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 61);
    assert.equal(lines[0], 'NAME      AMOUNT');
    assert.equal(lines[1], 'Deal 120   12000');
    assert.equal(lines[60], 'Deal 061    6100');
    assert.match(r.stderr, /Reading the records of deal view "Sixty": 50 of 60/);
    assert.match(r.stderr, /Showing the first 60 records of deal view "Sixty"; more match it/);
  });
});
