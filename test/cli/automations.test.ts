// ws automations list/get/create/update/delete/enable/disable/runs: the real CLI against a
// real sandbox over HTTP, piped and on a terminal, and against a service without the runs
// endpoint.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { runWs, scriptedPrompter, tempConfigDir } from '../helpers/run.ts';
import {
  sandboxCall,
  startTestSandbox,
  type TestSandbox,
  writeProfiles,
} from '../helpers/sandbox.ts';
import { startStub } from '../helpers/stub-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
type Body = any;

let t: TestSandbox;
let env: Record<string, string>;
let webhookId: string;

/** A call to the sandbox's API as any client makes it. */
const http = sandboxCall;

const prism = (path: string) => `/v2/prism/${t.sandbox.teamId}/${path}`;

async function dealAutomations(): Promise<Body[]> {
  const r = await http(t, 'GET', prism('deal/triggered_automations'));
  return r.body.data;
}

before(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  env = { ...(t.env as Record<string, string>), WS_NO_CACHE: '1' };
  const w = await http(t, 'POST', `/v2/webhooks/${t.sandbox.teamId}`, {
    name: 'Deal alerts',
    url: 'https://example.com/hooks/deals',
  });
  assert.equal(w.status, 201, JSON.stringify(w.body));
  webhookId = w.body.id;
});
after(() => t.stop());

beforeEach(async () => {
  for (const type of ['deal', 'contact']) {
    const list = await http(t, 'GET', prism(`${type}/triggered_automations`));
    for (const a of list.body.data)
      await http(t, 'DELETE', prism(`${type}/triggered_automations/${a.id}`));
  }
});

async function create(...args: string[]): Promise<Body> {
  const r = await runWs(['automations', 'create', ...args, '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('ws automations create', () => {
  it('builds the body from flags: changeset from/to, state with dot-paths, actions in order', async () => {
    const a = await create(
      'deals',
      '--name',
      'Deal won',
      '--on-change',
      'stage:to=won',
      '--on-change',
      'amount:from<1000',
      '--on-change',
      'amount:to>=1000',
      '--any',
      '--where',
      'organization.name~Acme',
      '--webhook',
      'Deal alerts',
      '--wait',
      '1d',
      '--wait-cron',
      '0 9 * * 1-5',
      '--timezone',
      'Europe/Paris',
    );
    const [stored] = await dealAutomations();
    assert.equal(stored.id, a.id);
    assert.deepEqual(
      {
        kind: stored.kind,
        name: stored.name,
        enabled: stored.enabled,
        changeset: stored.changeset,
        state: stored.state,
        actions: stored.actions,
      },
      {
        kind: 'update',
        name: 'Deal won',
        enabled: true,
        changeset: {
          combinator: 'OR',
          filter: [
            { stage: { to: { '=': 'won' } } },
            { amount: { from: { '<': '1000' }, to: { '>=': '1000' } } },
          ],
        },
        state: { combinator: 'AND', filter: [{ 'organization.name': { contains: 'Acme' } }] },
        actions: [
          { type: 'webhook', webhook_id: webhookId },
          { type: 'wait', delay_seconds: 86400 },
          { type: 'wait', cron_expression: '0 9 * * 1-5', timezone: 'Europe/Paris' },
        ],
      },
    );
  });

  it('a lifecycle automation: --on-create --on-delete with a state', async () => {
    const a = await create(
      'contact',
      '--name',
      'New lead',
      '--on-create',
      '--where',
      'name:is_not_null',
    );
    assert.equal(a.kind, 'lifecycle');
    assert.equal(a.on_create, true);
    assert.equal(a.on_delete, false);
    assert.equal(a.changeset, null);
  });

  it('refuses, before any write, an unknown slug, an unknown webhook and a bad wait, each with its flag (exit 2)', async () => {
    const r = await runWs(
      [
        'automations',
        'create',
        'deal',
        '--name',
        'Bad',
        '--on-change',
        'stag:to=won',
        '--webhook',
        'Deal alert',
        '--wait',
        'soon',
      ],
      { env },
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /Unknown property "stag" in --on-change "stag:to=won".*Did you mean "stage"/,
    );
    assert.match(
      r.stderr,
      /--webhook Deal alert: no webhook is named "Deal alert"\. .*Deal alerts/,
    );
    assert.match(r.stderr, /--wait soon: a wait takes a duration/);
    assert.deepEqual(await dealAutomations(), []);
  });

  it('a name is required', async () => {
    const r = await runWs(['automations', 'create', 'deal', '--on-update'], { env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /needs a name: --name NAME/);
  });

  it('reads email actions from --action-file, the view and property named', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'ws-auto-'));
    const views = await http(t, 'GET', '/__sandbox/contact_views');
    let view = views.body.data[0];
    if (!view) {
      const put = await http(
        t,
        'PUT',
        '/__sandbox/contact_views/7f9b6a5e-1c8d-4e0f-9a2b-4c5d6e7f8091',
        {
          name: 'Champions',
          filter: [],
          combinator: 'AND',
        },
      );
      assert.equal(put.status < 300, true, JSON.stringify(put.body));
      view = put.body;
    }
    const file = join(dir, 'email.yaml');
    writeFileSync(
      file,
      `- email:\n    recipient_view: ${view.name}\n    recipient_email_property: email\n    send_as_user_id: user-1\n    template_id: 8a0c7b6f-2d9e-4f1a-8b3c-5d6e7f809102\n    subject: "Hello {{ first_name }}"\n`,
    );
    const a = await create('deal', '--name', 'Mail', '--on-change', 'stage', '--action-file', file);
    assert.equal(a.actions[0].type, 'email');
    assert.equal(a.actions[0].recipient_view_id, view.id);
    assert.equal(a.actions[0].recipient_view_object_type, 'contact');
    assert.equal(a.actions[0].subject, 'Hello {{ first_name }}');
    writeFileSync(file, '- email:\n    recipient_view: Nobody\n');
    const bad = await runWs(
      ['automations', 'create', 'deal', '--name', 'X', '--on-update', '--action-file', file],
      { env },
    );
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /email\.yaml:2:5: \(actions\)\[0\]\.email: recipient_email_property is missing/,
    );
  });
});

describe('ws automations list and get', () => {
  it('list: one line each, piped as TSV; --kind filters; --json the API objects', async () => {
    await create('deal', '--name', 'Won', '--on-change', 'stage:to=won', '--webhook', webhookId);
    await create('deal', '--name', 'Gone', '--on-delete', '--disabled');
    const r = await runWs(
      ['automations', 'list', 'deal', '--fields', 'name,kind,enabled,when,then'],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.stdout.split('\n').filter(Boolean).sort(),
      [
        'Gone\tlifecycle\tfalse\tdelete\t',
        'Won\tupdate\ttrue\tchange: stage:to=won\twebhook',
      ].sort(),
    );
    const k = await runWs(['automations', 'list', 'deals', '--kind', 'lifecycle', '--json'], {
      env,
    });
    assert.deepEqual(
      JSON.parse(k.stdout).map((a: Body) => a.name),
      ['Gone'],
    );
    const one = await runWs(['automations', 'list', 'deal', '--limit', '1', '--json'], { env });
    assert.equal(JSON.parse(one.stdout).length, 1);
  });

  it('get by name prints one line per condition and action, as flags, with the webhook by name', async () => {
    await create(
      'deal',
      '--name',
      'Deal won',
      '--on-change',
      'stage:to=won',
      '--where',
      'amount>=1000',
      '--webhook',
      webhookId,
      '--wait',
      '1d',
    );
    const r = await runWs(['automations', 'get', 'deal', 'deal WON'], {
      env: { ...env, NO_COLOR: '1' },
      tty: true,
    });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('when'));
    assert.deepEqual(
      lines.slice(at, at + 4).map((l) => l.trimEnd()),
      [
        'when         --on-change stage:to=won',
        "             --where 'amount>=1000'",
        "then         --webhook 'Deal alerts'",
        '             --wait 1d',
      ],
    );
  });

  it('an automation naming a deleted webhook says so in get and list; export warns that the file will not validate', async () => {
    const gone = await http(t, 'POST', `/v2/webhooks/${t.sandbox.teamId}`, {
      name: 'Old alerts',
      url: 'https://example.com/hooks/old',
    });
    await create(
      'deal',
      '--name',
      'Big deal lost',
      '--on-change',
      'stage',
      '--webhook',
      gone.body.id,
    );
    await http(t, 'DELETE', `/v2/webhooks/${t.sandbox.teamId}/${gone.body.id}`);
    const get = await runWs(['automations', 'get', 'deal', 'Big deal lost'], { env });
    assert.equal(get.code, 0, get.stderr);
    assert.match(
      get.stdout,
      new RegExp(`then\\t--webhook ${gone.body.id} \\(no webhook has this id: it was deleted\\)`),
    );
    const list = await runWs(['automations', 'list', 'deal', '--fields', 'name,then'], { env });
    assert.equal(list.stdout, 'Big deal lost\twebhook (deleted)\n');
    const exported = await runWs(['automations', 'export', 'deal'], { env });
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, new RegExp(`- webhook: ${gone.body.id}`));
    assert.match(
      exported.stderr,
      new RegExp(
        `deal automation "Big deal lost" names webhook ${gone.body.id}, which no longer exists: \`ws automations validate\` and \`apply\` refuse the file`,
      ),
    );
    // A hint quotes a name as a shell reads it.
    const nothing = await runWs(['automations', 'update', 'deal', 'Big deal lost'], { env });
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /`ws automations get deal 'Big deal lost'` shows it as it is/);
  });

  it('a name that several automations have is a usage error listing them; an unknown name is exit 4 with the closest', async () => {
    const a = await create('deal', '--name', 'Twin', '--on-update');
    const b = await create('deal', '--name', 'Twin', '--on-create');
    const r = await runWs(['automations', 'get', 'deal', 'Twin'], { env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /2 deal automations are named "Twin"/);
    assert.ok(r.stderr.includes(a.id) && r.stderr.includes(b.id), r.stderr);
    const u = await runWs(['automations', 'get', 'deal', 'Twim'], { env });
    assert.equal(u.code, 4, u.stderr);
    assert.match(u.stderr, /No deal automation has the id or name "Twim"/);
    assert.match(u.stderr, /Twin/);
  });
});

describe('ws automations update, enable, disable, delete', () => {
  it('update reads, changes what the flags say and PUTs the whole automation', async () => {
    const a = await create(
      'deal',
      '--name',
      'Won',
      '--on-change',
      'stage:to=won',
      '--where',
      'amount>=5',
      '--webhook',
      'Deal alerts',
    );
    const r = await runWs(
      [
        'automations',
        'update',
        'deal',
        'Won',
        '--name',
        'Won big',
        '--where',
        'amount>=1000',
        '--json',
      ],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    const [stored] = await dealAutomations();
    assert.equal(stored.id, a.id);
    assert.equal(stored.name, 'Won big');
    assert.deepEqual(stored.changeset, a.changeset);
    assert.deepEqual(stored.state.filter, [{ amount: { '>=': '1000' } }]);
    assert.deepEqual(stored.actions, a.actions);
    const w = await runWs(['automations', 'update', 'deal', a.id, '--wait', '2h'], { env });
    assert.equal(w.code, 0, w.stderr);
    assert.deepEqual((await dealAutomations())[0].actions, [{ type: 'wait', delay_seconds: 7200 }]);
    const none = await runWs(['automations', 'update', 'deal', a.id], { env });
    assert.equal(none.code, 2);
  });

  it('disable and enable flip enabled and keep the rest', async () => {
    const a = await create('deal', '--name', 'Won', '--on-change', 'stage:to=won');
    assert.equal((await runWs(['automations', 'disable', 'deal', 'Won'], { env })).code, 0);
    let [stored] = await dealAutomations();
    assert.equal(stored.enabled, false);
    assert.deepEqual(stored.changeset, a.changeset);
    assert.equal((await runWs(['automations', 'enable', 'deal', a.id], { env })).code, 0);
    [stored] = await dealAutomations();
    assert.equal(stored.enabled, true);
  });

  it('delete asks on a terminal, refuses piped without --yes, deletes with --yes', async () => {
    await create('deal', '--name', 'Won', '--on-change', 'stage:to=won');
    const refused = await runWs(['automations', 'delete', 'deal', 'Won'], { env });
    assert.notEqual(refused.code, 0);
    assert.equal((await dealAutomations()).length, 1);
    const no = scriptedPrompter({ 'Delete deal automation': false });
    const asked = await runWs(['automations', 'delete', 'deal', 'Won'], {
      env,
      tty: true,
      prompter: no,
    });
    assert.notEqual(asked.code, 0);
    assert.equal(no.asked.length, 1);
    assert.equal((await dealAutomations()).length, 1);
    const yes = await runWs(['automations', 'delete', 'deal', 'Won', '--yes'], { env });
    assert.equal(yes.code, 0, yes.stderr);
    assert.deepEqual(await dealAutomations(), []);
  });
});

describe('ws automations runs', () => {
  it('lists the runs the sandbox recorded, with their steps', async () => {
    await create(
      'deal',
      '--name',
      'Won',
      '--on-change',
      'stage:to=won',
      '--webhook',
      'Deal alerts',
      '--wait',
      '1d',
    );
    const deal = await http(t, 'POST', prism('deal'), {
      default: { name: 'Runs deal', stage: 'lead' },
    });
    await http(t, 'PATCH', prism(`deal/${deal.body.id}`), { default: { stage: 'won' } });
    const r = await runWs(
      [
        'automations',
        'runs',
        'deal',
        'Won',
        '--fields',
        'automation_name,record_id,event,status,steps',
      ],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    const [row] = r.stdout
      .trim()
      .split('\n')
      .filter((l) => l.includes(deal.body.id));
    const [name, record, event, status, steps] = row!.split('\t');
    assert.deepEqual(
      [name, record, event, status],
      ['Won', deal.body.id, 'deal.updated', 'waiting'],
    );
    assert.match(steps!, /^webhook \w+;wait until \d{4}-/);
    const s = await runWs(['automations', 'runs', '--record', deal.body.id, '--steps', '--json'], {
      env,
    });
    assert.deepEqual(
      JSON.parse(s.stdout).map((x: Body) => [x.index, x.type]),
      [
        [0, 'webhook'],
        [1, 'wait'],
      ],
    );
  });

  it('against a service without the runs endpoint, explains operation_unavailable (exit 1)', async () => {
    const stub = await startStub(() => ({ status: 404, body: { message: 'Not Found' } }));
    const { dir, cleanup } = tempConfigDir();
    try {
      writeProfiles(
        dir,
        { other: { base_url: stub.url, team_id: t.sandbox.teamId, api_key: 'k', rate_limit: 0 } },
        'other',
      );
      const r = await runWs(['automations', 'runs'], {
        env: { WS_CONFIG_DIR: dir, WS_NO_CACHE: '1' },
      });
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /does not offer automation runs: they are a feature of the ws sandbox/,
      );
      assert.match(r.stderr, /ws automations test/);
    } finally {
      cleanup();
      await stub.close();
    }
  });
});
