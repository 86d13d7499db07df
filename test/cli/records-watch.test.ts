// `ws records watch` spawned as users run it, against the sandbox: --where shows the records
// matching before or after a change (and refuses a dot-path), --from reads on after a
// position, --poll finds changes by reading the records again (created, updated, deleted;
// entered and left with --where), a service without the realtime route is explained with
// --poll offered, and the flags that cannot go together are usage errors before anything.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resources } from '../../src/sandbox/resources/index.ts';
import { launchSandbox } from '../../src/sandbox/sandbox.ts';
import { runWs, tempConfigDir } from '../helpers/run.ts';
import {
  sandboxCall,
  startTestSandbox,
  type TestSandbox,
  writeProfiles,
} from '../helpers/sandbox.ts';
import { type Spawned, spawnWs, wsEnv } from '../helpers/spawned.ts';

let t: TestSandbox;
const running: Spawned[] = [];

before(async () => {
  t = await startTestSandbox();
});
after(async () => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await t.stop();
});

function watch(args: string[]): Spawned {
  const s = spawnWs(['records', 'watch', ...args], wsEnv(t.configDir));
  running.push(s);
  return s;
}

const api = (method: string, rest: string, body?: unknown) =>
  sandboxCall(t, method, `/v2/prism/${t.sandbox.teamId}/${rest}`, body);

async function stop(s: Spawned): Promise<void> {
  s.child.kill('SIGINT');
  assert.equal(await s.exited, 130);
}

describe('ws records watch (the realtime stream)', () => {
  it('--where: changes of records matching before or after, each with what changed', async () => {
    const s = watch(['deals', '--where', 'amount>=1000']);
    await s.waitForStderr(/Watching for changes/);
    const small = (await api('POST', 'deal', { default: { name: 'Small', amount: 10 } })).body.id;
    const big = (await api('POST', 'deal', { default: { name: 'Big', amount: 5000 } })).body.id;
    await api('PATCH', `deal/${small}`, { default: { amount: 2000 } }); // enters
    await api('PATCH', `deal/${big}`, { default: { amount: 50 } }); // leaves
    await api('PATCH', `deal/${big}`, { default: { amount: 60 } }); // outside: not shown
    await api('POST', 'contact', { default: { name: 'Not a deal' } });
    await s.waitFor((l) => l.includes('"from":5000'), 'big leaving');
    await api('POST', 'deal', { default: { name: 'Last', amount: 1000 } });
    await s.waitFor((l) => l.includes('"Last"'), 'the last');
    await stop(s);
    const events = s.lines.map((l) => JSON.parse(l));
    assert.deepEqual(
      events.map((e) => [e.record.default.name, e.change, e.changes.amount ?? null]),
      [
        ['Big', 'created', { from: null, to: 5000 }],
        ['Small', 'updated', { from: 10, to: 2000 }],
        ['Big', 'updated', { from: 5000, to: 50 }],
        ['Last', 'created', { from: null, to: 1000 }],
      ],
    );
    assert.match(events[0].position, /^[0-9a-f]{8}-\d+$/);
    assert.match(s.stderr(), /Stopped: 4 changes shown\./);
  });

  it('--from reads on after a position: exactly the changes since', async () => {
    const s = watch(['contact']);
    await s.waitForStderr(/Watching for changes/);
    await api('POST', 'contact', { default: { name: 'one' } });
    const line = JSON.parse(await s.waitFor((l) => l.includes('"one"')));
    await stop(s);
    for (const name of ['two', 'three']) await api('POST', 'contact', { default: { name } });
    const again = watch(['contact', '--from', line.position, '--fields', 'change,record']);
    await again.waitFor((l) => l.includes('"three"'), 'three');
    await stop(again);
    const events = again.lines.map((l) => JSON.parse(l));
    assert.deepEqual(
      events.map((e) => Object.keys(e)),
      [
        ['change', 'record'],
        ['change', 'record'],
      ],
    );
    assert.deepEqual(
      events.map((e) => [e.change, e.record.default.name]),
      [
        ['created', 'two'],
        ['created', 'three'],
      ],
    );
  });
});

describe('ws records watch --poll', () => {
  it('created, updated and deleted, found by reading the records again', async () => {
    const kept = (await api('POST', 'action', { default: { title: 'Keep' } })).body.id;
    const s = watch(['actions', '--poll', '--interval', '1']);
    await s.waitForStderr(/Watching \d+ records? by reading them every 1 s \(1 request a look/);
    const made = (await api('POST', 'action', { default: { title: 'New' } })).body.id;
    await api('PATCH', `action/${kept}`, { default: { title: 'Kept' } });
    await s.waitFor((l) => l.includes('"Kept"'), 'the update');
    await api('DELETE', `action/${made}`);
    await s.waitFor((l) => l.includes('"deleted"'), 'the deletion');
    await stop(s);
    const events = s.lines.map((l) => JSON.parse(l));
    assert.deepEqual(
      events.map((e) => [e.id, e.change, e.position, e.source]).sort(),
      [
        [kept, 'updated', null, null],
        [made, 'created', null, null],
        [made, 'deleted', null, null],
      ].sort(),
    );
    const update = events.find((e) => e.change === 'updated');
    assert.deepEqual(update.changes, { title: { from: 'Keep', to: 'Kept' } });
  });

  it('with --where: entered and left', async () => {
    const id = (await api('POST', 'document', { default: { title: 'Doc', size: 1 } })).body.id;
    const s = watch(['documents', '--poll', '--interval', '1', '--where', 'size>100']);
    await s.waitForStderr(/Watching 0 records/);
    await api('PATCH', `document/${id}`, { default: { size: 500 } });
    await s.waitFor((l) => l.includes('"entered"'), 'entered');
    await api('PATCH', `document/${id}`, { default: { size: 5 } });
    await s.waitFor((l) => l.includes('"left"'), 'left');
    await stop(s);
  });
});

describe('ws records watch: a service without the stream, and usage', () => {
  it('a 404 on the ticket says so and offers --poll (exit 1); --poll works there', async () => {
    const sandbox = await launchSandbox(
      {},
      resources.filter((r) => r.name !== 'realtime'),
    );
    const { dir, cleanup } = tempConfigDir();
    try {
      writeProfiles(
        dir,
        { old: { base_url: sandbox.url, team_id: sandbox.teamId, api_key: sandbox.apiKey } },
        'old',
      );
      const r = await runWs(['records', 'watch', 'deals'], { env: { WS_CONFIG_DIR: dir } });
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /^error: This service has no realtime stream \(it answered POST \/v2\/realtime\/ticket with 404\)\.\n/,
      );
      assert.match(r.stderr, /Watch by polling instead: add --poll/);
      const json = await runWs(['records', 'watch', 'deals', '--format', 'ndjson'], {
        env: { WS_CONFIG_DIR: dir },
      });
      assert.equal(JSON.parse(json.stderr).error.code, 'operation_unavailable');
      const poll = spawnWs(['records', 'watch', 'deals', '--poll'], wsEnv(dir));
      running.push(poll);
      await poll.waitForStderr(/Watching 0 records by reading them every 5 s/);
      await stop(poll);
    } finally {
      cleanup();
      await sandbox.close();
    }
  });

  it('flags that cannot go together, and formats that cannot hold a stream: exit 2, nothing sent', async () => {
    const env = { WS_CONFIG_DIR: t.configDir };
    for (const [args, message] of [
      [['--json'], /--format json cannot hold it/],
      [['deals', '--format', 'csv'], /--format csv cannot hold it/],
      [['--where', 'amount>1'], /--where needs an object type/],
      [['deals', '--poll', '--from', 'abc-1'], /--from reads on after a position/],
      [['deals', '--interval', '3'], /--interval is the pause between looks of --poll/],
      [['deals', '--fields', 'nope'], /Unknown field "nope"/],
      [['deals', '--where', 'organization.name=Acme'], /a dot-path reads other records/],
      [['widgets'], /Unknown object type "widgets"/],
    ] as const) {
      const r = await runWs(['records', 'watch', ...args], { env });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    const badFrom = await runWs(['records', 'watch', 'deals', '--from', 'yesterday'], { env });
    assert.equal(badFrom.code, 2);
    assert.match(badFrom.stderr, /The stream refused the request: query\.after/);
  });
});
