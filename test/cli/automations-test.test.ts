// ws automations test: its verdicts (exit 0 fires, 1 not) agree with what the sandbox fires
// when the same change is made; the verdict shows each condition and the values it compared;
// --before/--after and dot-paths through references.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { sandboxCall, startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
type Body = any;

let t: TestSandbox;
let env: Record<string, string>;
let orgSoft: string;
let orgRetail: string;

const http = (method: string, path: string, body?: unknown) => sandboxCall(t, method, path, body);
const prism = (path: string) => `/v2/prism/${t.sandbox.teamId}/${path}`;

/** Automations of every shape the test covers, made through the CLI. */
const AUTOMATIONS: string[][] = [
  ['--name', 'Won', '--on-change', 'stage:to=won'],
  ['--name', 'Left lead', '--on-change', 'stage:from=lead'],
  ['--name', 'Any stage', '--on-change', 'stage'],
  ['--name', 'Crossed 1000', '--on-change', 'amount:from<1000', '--on-change', 'amount:to>=1000'],
  ['--name', 'Won or big', '--on-change', 'stage:to=won', '--on-change', 'amount:to>5000', '--any'],
  [
    '--name',
    'Won software',
    '--on-change',
    'stage:to=won',
    '--where',
    'organization.industry=Software',
  ],
  ['--name', 'Named big', '--on-change', 'name', '--where', 'amount>=1000'],
  ['--name', 'Off', '--on-change', 'stage', '--disabled'],
];

before(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  env = { ...(t.env as Record<string, string>), WS_NO_CACHE: '1' };
  const orgs = await http('POST', prism('organization'), {
    default: { name: 'Soft Co', industry: 'Software' },
  });
  orgSoft = orgs.body.id;
  const retail = await http('POST', prism('organization'), {
    default: { name: 'Shop Co', industry: 'Retail' },
  });
  orgRetail = retail.body.id;
  for (const flags of AUTOMATIONS) {
    const r = await runWs(['automations', 'create', 'deal', ...flags], { env });
    assert.equal(r.code, 0, r.stderr);
  }
});
after(() => t.stop());

async function lastSequence(): Promise<number> {
  const r = await http('GET', '/__sandbox/automation_runs?limit=1000');
  const data = r.body.data as Body[];
  return data.length === 0 ? 0 : data[data.length - 1].sequence;
}

/** The automations `ws automations test` says fire for `--set` on the record. */
async function predicted(id: string, sets: string[]): Promise<string[]> {
  const fired: string[] = [];
  for (const flags of AUTOMATIONS) {
    const name = flags[1]!;
    const r = await runWs(
      ['automations', 'test', 'deal', name, '--record', id, ...sets.flatMap((s) => ['--set', s])],
      {
        env,
      },
    );
    assert.ok(r.code === 0 || r.code === 1, `${name}: exit ${r.code}: ${r.stderr}`);
    if (r.code === 0) fired.push(name);
  }
  return fired.sort();
}

/** The automations the sandbox fires when the change is made. */
async function fired(id: string, values: Record<string, unknown>): Promise<string[]> {
  const after = await lastSequence();
  const r = await http('PATCH', prism(`deal/${id}`), { default: values });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const runs = await http('GET', `/__sandbox/automation_runs?limit=1000&after=${after}`);
  return (runs.body.data as Body[]).map((x) => x.automation_name).sort();
}

describe('ws automations test agrees with the sandbox', () => {
  const cases: {
    start: Record<string, unknown>;
    sets: string[];
    values: Record<string, unknown>;
  }[] = [
    { start: { stage: 'lead', amount: 500 }, sets: ['stage=won'], values: { stage: 'won' } },
    {
      start: { stage: 'lead', amount: 500 },
      sets: ['stage=qualified', 'amount=2000'],
      values: { stage: 'qualified', amount: 2000 },
    },
    {
      start: { stage: 'qualified', amount: 2000 },
      sets: ['amount=6000'],
      values: { amount: 6000 },
    },
    { start: { stage: 'qualified', amount: 500 }, sets: ['stage=won'], values: { stage: 'won' } },
    { start: { stage: 'won', amount: 500 }, sets: ['stage=won'], values: { stage: 'won' } },
    { start: { stage: 'lead', amount: 1500 }, sets: ['name=Renamed'], values: { name: 'Renamed' } },
    { start: { stage: 'lead', amount: 10 }, sets: ['name=Renamed'], values: { name: 'Renamed' } },
  ];
  for (const [i, c] of cases.entries()) {
    for (const org of ['soft', 'retail'] as const) {
      it(`case ${i + 1} (${org}): ${c.sets.join(' ')} from ${JSON.stringify(c.start)}`, async () => {
        const organization = org === 'soft' ? orgSoft : orgRetail;
        const made = await http('POST', prism('deal'), {
          default: { name: `Deal ${i}`, ...c.start, organization },
        });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        const id = made.body.id;
        const says = await predicted(id, c.sets);
        const does = await fired(id, c.values);
        assert.deepEqual(says, does);
      });
    }
  }

  it('the cases are not trivial: each automation fires in some and not in others', async () => {
    const all = await http('GET', '/__sandbox/automation_runs?limit=1000');
    const names = new Set((all.body.data as Body[]).map((x) => x.automation_name));
    for (const flags of AUTOMATIONS.filter((f) => !f.includes('--disabled')))
      assert.ok(names.has(flags[1]!), `${flags[1]} fired in some case`);
    assert.ok(!names.has('Off'));
  });
});

describe('ws automations test: what it prints', () => {
  it('each condition with its verdict and the values compared; exit 1 when it does not fire', async () => {
    const made = await http('POST', prism('deal'), {
      default: { name: 'Print', stage: 'lead', amount: 500, organization: orgRetail },
    });
    const r = await runWs(
      [
        'automations',
        'test',
        'deal',
        'Won software',
        '--record',
        made.body.id,
        '--set',
        'stage=won',
      ],
      {
        env: { ...env, NO_COLOR: '1' },
        tty: true,
      },
    );
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      r.stdout,
      [
        `does not fire: deal automation "Won software" for the update of ${made.body.id}`,
        '  ✓ the change',
        '    ✓ stage changed    "lead" → "won"',
        '    ✓ stage:to=won    after: "won"',
        '  ✗ the record',
        '    ✗ organization.industry=Software    "retail"',
        '',
      ].join('\n'),
    );
    const j = await runWs(
      [
        'automations',
        'test',
        'deal',
        'Crossed 1000',
        '--record',
        made.body.id,
        '--set',
        'amount=1000',
        '--json',
      ],
      { env },
    );
    assert.equal(j.code, 0, j.stderr);
    const doc = JSON.parse(j.stdout);
    assert.equal(doc.fires, true);
    assert.deepEqual(
      doc.changeset.entries[0].conditions.map((c: Body) => [c.test, c.operator, c.values, c.holds]),
      [
        ['changed', undefined, [500, 1000], true],
        ['from', '<', [500], true],
        ['to', '>=', [1000], true],
      ],
    );
  });

  it('with no change given, the hint fits the automation: the event of a lifecycle one, a slug of its changeset', async () => {
    const made = await http('POST', prism('contact'), { default: { name: 'Lee' } });
    const lead = await runWs(
      [
        'automations',
        'create',
        'contact',
        '--name',
        'New lead',
        '--on-create',
        '--agent',
        made.body.id,
      ],
      { env },
    );
    assert.equal(lead.code, 0, lead.stderr);
    const r = await runWs(
      ['automations', 'test', 'contact', 'New lead', '--record', made.body.id],
      {
        env,
      },
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /"New lead" fires when a contact record is created, not on an update/);
    assert.match(
      r.stderr,
      new RegExp(
        `e\\.g\\. ws automations test contact 'New lead' --record ${made.body.id} --event created`,
      ),
    );
    assert.doesNotMatch(r.stderr, /stage=won/);
    const deal = await http('POST', prism('deal'), { default: { name: 'D', amount: 1 } });
    const u = await runWs(
      ['automations', 'test', 'deal', 'Crossed 1000', '--record', deal.body.id],
      {
        env,
      },
    );
    assert.equal(u.code, 2);
    assert.match(u.stderr, /--set amount=VALUE/);
  });

  it('--before and --after give both sides; a disabled automation says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ws-test-'));
    writeFileSync(join(dir, 'before.json'), JSON.stringify({ stage: 'lead', amount: 1 }));
    writeFileSync(join(dir, 'after.yaml'), 'default:\n  stage: won\n  amount: 1\n');
    const id = '00000000-0000-4000-8000-0000000000aa';
    const won = await runWs(
      [
        'automations',
        'test',
        'deal',
        'Won',
        '--record',
        id,
        '--before',
        join(dir, 'before.json'),
        '--after',
        join(dir, 'after.yaml'),
      ],
      { env },
    );
    assert.equal(won.code, 0, won.stderr);
    const off = await runWs(
      [
        'automations',
        'test',
        'deal',
        'Off',
        '--record',
        id,
        '--before',
        join(dir, 'before.json'),
        '--after',
        join(dir, 'after.yaml'),
      ],
      { env },
    );
    assert.equal(off.code, 1);
    assert.match(off.stdout, /✗ .*disabled/);
    const half = await runWs(
      ['automations', 'test', 'deal', 'Won', '--record', id, '--before', join(dir, 'before.json')],
      { env },
    );
    assert.equal(half.code, 2);
  });
});
