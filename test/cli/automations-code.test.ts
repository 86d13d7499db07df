// Automations as code against a real sandbox: export → apply → diff round-trips to no
// change; diff exits 0 same, 1 differs, 2 on a bad file; apply creates, replaces and (with
// --prune and --yes) deletes; validate reports every problem at its line and column with the
// closest valid name, before anything is written.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { sandboxCall, startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
type Body = any;

let t: TestSandbox;
let env: Record<string, string>;
let dir: string;

const http = (method: string, path: string, body?: unknown) => sandboxCall(t, method, path, body);
const prism = (path: string) => `/v2/prism/${t.sandbox.teamId}/${path}`;

async function all(type: string): Promise<Body[]> {
  return (await http('GET', prism(`${type}/triggered_automations`))).body.data;
}

/** What an automation does, without its ids and times. */
function shape(a: Body) {
  const { id, created_at, updated_at, team_id, user_id, ...rest } = a;
  return rest;
}

before(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  env = { ...(t.env as Record<string, string>), WS_NO_CACHE: '1' };
  dir = mkdtempSync(join(tmpdir(), 'ws-autocode-'));
  const w = await http('POST', `/v2/webhooks/${t.sandbox.teamId}`, {
    name: 'Deal alerts',
    url: 'https://example.com/hooks/deals',
  });
  assert.equal(w.status, 201);
});
after(() => t.stop());

beforeEach(async () => {
  for (const type of ['deal', 'contact']) {
    for (const a of await all(type))
      await http('DELETE', prism(`${type}/triggered_automations/${a.id}`));
  }
});

async function ws(...argv: string[]) {
  return runWs(argv, { env });
}

async function makeSome(): Promise<void> {
  const sets = [
    [
      'deal',
      '--name',
      'Deal won',
      '--on-change',
      'stage:to=won',
      '--where',
      'amount>=1000',
      '--webhook',
      'Deal alerts',
      '--wait',
      '1d',
    ],
    [
      'deal',
      '--name',
      'Crossed',
      '--on-change',
      'amount:from<1000',
      '--on-change',
      'amount:to>=1000',
      '--on-change',
      'stage',
      '--any',
    ],
    [
      'deal',
      '--name',
      'Mornings',
      '--on-update',
      '--where',
      'organization.industry=software',
      '--where',
      'stage:in=won,lost',
      '--or',
      '--wait-cron',
      '0 9 * * 1-5',
      '--timezone',
      'Europe/Paris',
      '--disabled',
    ],
    [
      'contact',
      '--name',
      'New lead',
      '--on-create',
      '--on-delete',
      '--where',
      'email:is_not_null',
      '--agent',
      '4c6e3d2b-8f5a-4b7c-8d9e-1f2a3b4c5d6e',
    ],
  ];
  const view = await http('PUT', '/__sandbox/contact_views/7f9b6a5e-1c8d-4e0f-9a2b-4c5d6e7f8091', {
    name: 'Champions',
    filter: [],
    combinator: 'AND',
  });
  assert.ok(view.status < 300, JSON.stringify(view.body));
  const actions = join(dir, 'email.yaml');
  writeFileSync(
    actions,
    '- email: {recipient_view: Champions, recipient_email_property: email, send_as_user_id: u1, template_id: 8a0c7b6f-2d9e-4f1a-8b3c-5d6e7f809102, subject: "Hi {{ contact.name }}"}\n',
  );
  sets.push(['deal', '--name', 'Mail', '--on-change', 'stage', '--action-file', actions]);
  for (const s of sets) {
    const r = await ws('automations', 'create', ...s);
    assert.equal(r.code, 0, r.stderr);
  }
}

describe('ws automations export, apply, diff', () => {
  it('export → apply into an empty workspace → diff: no change, the same automations', async () => {
    await makeSome();
    const beforeDeal = (await all('deal')).map(shape);
    const beforeContact = (await all('contact')).map(shape);
    const file = join(dir, 'automations.yaml');
    const e = await ws('automations', 'export', '--output', file);
    assert.equal(e.code, 0, e.stderr);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /webhook: Deal alerts/);
    assert.match(text, /wait: 1d/);
    const same = await ws('automations', 'diff', '-f', file);
    assert.equal(same.code, 0, same.stderr + same.stdout);
    assert.match(same.stderr, /No differences/);

    for (const type of ['deal', 'contact'])
      for (const a of await all(type))
        await http('DELETE', prism(`${type}/triggered_automations/${a.id}`));
    const differs = await ws('automations', 'diff', '-f', file);
    assert.equal(differs.code, 1);
    assert.match(
      differs.stdout,
      /^\+ deal "Deal won" \(change: stage:to=won; where amount>=1000\)$/m,
    );

    const applied = await ws('automations', 'apply', '-f', file);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stderr, /5 created, 0 updated, 0 deleted/);
    assert.match(text, /recipient_view: Champions/);
    const byName = (list: Body[]) => [...list].sort((a, b) => (a.name < b.name ? -1 : 1));
    assert.deepEqual(byName((await all('deal')).map(shape)), byName(beforeDeal));
    assert.deepEqual(byName((await all('contact')).map(shape)), byName(beforeContact));
    const again = await ws('automations', 'diff', '-f', file);
    assert.equal(again.code, 0, again.stdout);
    const nothing = await ws('automations', 'apply', '-f', file);
    assert.equal(nothing.code, 0);
    assert.match(nothing.stderr, /Nothing to do/);
  });

  it('a changed file: diff shows the fields, apply replaces in place, --prune deletes with --yes only', async () => {
    await makeSome();
    const file = join(dir, 'changed.yaml');
    assert.equal((await ws('automations', 'export', 'deal', '--output', file)).code, 0);
    const [won] = (await all('deal')).filter((a) => a.name === 'Deal won');
    let text = readFileSync(file, 'utf8');
    text = text.replace('stage:to=won', 'stage:to=lost');
    text = text.replace(/^ {4}- name: Crossed\n(?: {6}.*\n)+/m, '');
    writeFileSync(file, text);

    const d = await ws('automations', 'diff', '-f', file, '--prune');
    assert.equal(d.code, 1);
    assert.match(
      d.stdout,
      /^~ deal "Deal won"\n {4}on_change: \["stage:to=won"\] → \["stage:to=lost"\]$/m,
    );
    assert.match(d.stdout, /^- deal "Crossed"$/m);

    const dry = await ws('automations', 'apply', '-f', file, '--prune', '--dry-run');
    assert.equal(dry.code, 0);
    assert.equal((await all('deal')).length, 4);

    const refused = await ws('automations', 'apply', '-f', file, '--prune');
    assert.notEqual(refused.code, 0);
    assert.equal((await all('deal')).length, 4);

    const kept = await ws('automations', 'apply', '-f', file);
    assert.equal(kept.code, 0, kept.stderr);
    assert.match(kept.stderr, /left as they are \(--prune deletes them\): deal "Crossed"/);
    const after1 = await all('deal');
    const won2 = after1.find((a) => a.name === 'Deal won');
    assert.equal(won2.id, won.id, 'replaced in place');
    assert.deepEqual(won2.changeset.filter, [{ stage: { to: { '=': 'lost' } } }]);

    const pruned = await ws('automations', 'apply', '-f', file, '--prune', '--yes');
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.deepEqual((await all('deal')).map((a) => a.name).sort(), [
      'Deal won',
      'Mail',
      'Mornings',
    ]);
    assert.equal((await all('contact')).length, 1, 'types the file does not name are left alone');
  });
});

describe('ws automations validate', () => {
  it('every problem with file:line:column and the closest valid name; nothing is written', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      [
        'version: 1',
        'automations:',
        '  deal:',
        '    - name: Bad',
        '      on_change: [stag:to=won]',
        '      where: [amount>=10, organization.industri=x]',
        '      actions:',
        '        - webhook: Deal alert',
        '        - wait: {cron: "61 * * * *", timezone: Europe/Pariss}',
        '    - name: Bad',
        '      on_create: true',
        '',
      ].join('\n'),
    );
    const r = await ws('automations', 'validate', file);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /bad\.yaml:10:13: automations\.deal\[1\]\.name: "Bad" names automations\.deal\[0\] already/,
    );
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        '    - name: Bad\n      on_create',
        '    - name: Good\n      on_create',
      ),
    );
    const r2 = await ws('automations', 'validate', file);
    assert.equal(r2.code, 2, r2.stderr);
    const lines = r2.stderr;
    assert.match(lines, /bad\.yaml:5:19: .*"stag".*Did you mean "stage"/);
    assert.match(lines, /bad\.yaml:6:27: .*"industri".*industry/);
    assert.match(
      lines,
      /bad\.yaml:8:20: .*no webhook is named "Deal alert"\. Did you mean "Deal alerts"\?/,
    );
    assert.match(lines, /bad\.yaml:9:48: .*Europe\/Pariss/);
    assert.match(lines, /bad\.yaml:9:24: .*61 \* \* \* \*/);
    const a = await ws('automations', 'apply', '-f', file);
    assert.equal(a.code, 2);
    assert.deepEqual(await all('deal'), []);
  });

  it('a subject that would read a file is refused, naming the tag', async () => {
    await http('PUT', '/__sandbox/contact_views/7f9b6a5e-1c8d-4e0f-9a2b-4c5d6e7f8091', {
      name: 'Champions',
    });
    const file = join(dir, 'include.yaml');
    writeFileSync(
      file,
      [
        'version: 1',
        'automations:',
        '  deal:',
        '    - name: Leak',
        '      on_create: true',
        '      actions:',
        `        - email: {recipient_view: Champions, recipient_email_property: email, send_as_user_id: u1, template_id: 8a0c7b6f-2d9e-4f1a-8b3c-5d6e7f809102, subject: "{% include '.env' %}"}`,
        '',
      ].join('\n'),
    );
    const r = await ws('automations', 'validate', file);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /include\.yaml:7:\d+: .*subject uses \{% include %\}.*may not read files/,
    );
    const a = await ws('automations', 'apply', '-f', file, '--yes');
    assert.equal(a.code, 2);
    assert.deepEqual(await all('deal'), []);
  });

  it('a valid file', async () => {
    const file = join(dir, 'good.yaml');
    writeFileSync(
      file,
      'version: 1\nautomations:\n  deals:\n    - name: Won\n      on_change: [stage:to=won]\n      actions: [{webhook: Deal alerts}, {wait: 1d}]\n',
    );
    const r = await ws('automations', 'validate', file);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /good\.yaml is valid: 1 automation of 1 object type/);
    assert.deepEqual(await all('deal'), []);
  });
});
