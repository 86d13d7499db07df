// ws deliveries list/get/replay against a sandbox delivering to receivers started here, and
// tail spawned from the built binary: filters and pages of the log, the attempt history
// with bodies pretty-printed and cuts marked, replays signed afresh (checked with an HMAC
// made here) in order, a cut body refused by name, and new deliveries followed until Ctrl-C.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deliveriesOf } from '../../src/sandbox/resources/webhooks/engine.ts';
import { runWs, tempConfigDir } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { spawnWs, wsEnv } from '../helpers/spawned.ts';
import {
  checking,
  echoChallenge,
  hmac,
  startReceiver,
  type TestReceiver,
} from '../helpers/webhook-receiver.ts';

let t: TestSandbox;
let env: Record<string, string>;
let good: TestReceiver;
let bad: TestReceiver;
let files: { dir: string; cleanup: () => void };
const secrets: Record<string, string> = {};
const ids: Record<string, string> = {};

interface Delivery {
  delivery_id: string;
  webhook_id: string;
  event: string;
  type: string;
  status: string;
  created_at: string;
}

async function list(...args: string[]): Promise<Delivery[]> {
  const r = await runWs(['deliveries', 'list', '--json', ...args], { env });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** Send an event to a webhook (as an automation would) and wait for its first attempt. */
async function dispatch(webhook: string, data: Record<string, unknown> = {}): Promise<string> {
  const res = deliveriesOf(t.sandbox.store).dispatch({
    teamId: t.sandbox.teamId,
    webhookId: ids[webhook]!,
    event: 'deal.updated',
    data,
  });
  assert.ok(res.dispatched);
  const id = (res as { deliveryId: string }).deliveryId;
  for (;;) {
    const r = await runWs(['deliveries', 'get', id, '--webhook', ids[webhook]!, '--json'], { env });
    if (JSON.parse(r.stdout).status !== 'pending') return id;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

before(async () => {
  t = await startTestSandbox({ webhooks: { retryDelaysMs: [3_600_000, 3_600_000] } });
  env = { ...(t.env as Record<string, string>), NO_COLOR: '1' };
  files = tempConfigDir();
  good = await startReceiver(checking(() => secrets.good!));
  bad = await startReceiver((req) => echoChallenge(req) ?? { status: 503, body: 'down' });
  for (const [name, receiver] of [
    ['good', good],
    ['bad', bad],
  ] as const) {
    const r = await runWs(
      ['webhooks', 'create', '--name', name, '--url', receiver.url, '--wait', '--json'],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    const created = JSON.parse(r.stdout);
    assert.equal(created.verified, true);
    secrets[name] = created.secret;
    ids[name] = created.id;
    writeFileSync(join(files.dir, `${name}.secret`), created.secret, { mode: 0o600 });
  }
  await dispatch('good', { n: 1 });
  await dispatch('bad', { n: 2 });
  await dispatch('good', { n: 3 });
});
after(async () => {
  await good.close();
  await bad.close();
  files.cleanup();
  await t.stop();
});

describe('ws deliveries list', () => {
  it('team-wide, newest first: every webhook, handshakes with --type all', async () => {
    assert.deepEqual(
      (await list()).map((d) => d.event),
      ['deal.updated', 'deal.updated', 'deal.updated'],
    );
    const all = await list('--type', 'all');
    assert.deepEqual(
      all.map((d) => [d.webhook_id === ids.good ? 'good' : 'bad', d.event, d.status]),
      [
        ['good', 'deal.updated', 'success'],
        ['bad', 'deal.updated', 'failed'],
        ['good', 'deal.updated', 'success'],
        ['bad', 'verification', 'success'],
        ['good', 'verification', 'success'],
      ],
    );
  });

  it('--webhook by name, --status, --type', async () => {
    assert.deepEqual(
      (await list('--webhook', 'good', '--type', 'delivery')).map((d) => d.status),
      ['success', 'success'],
    );
    const failed = await list('--status', 'failed');
    assert.deepEqual(
      failed.map((d) => d.webhook_id),
      [ids.bad],
    );
    assert.deepEqual(
      (await list('--type', 'verification')).map((d) => d.event),
      ['verification', 'verification'],
    );
  });

  it('--since, --after and --before filter by creation time; --limit stops early', async () => {
    assert.equal((await list('--since', '1h', '--type', 'all')).length, 5);
    const all = await list('--type', 'all');
    const middle = all[2]!.created_at;
    assert.deepEqual(
      (await list('--after', middle, '--type', 'all')).map((d) => d.delivery_id),
      all.slice(0, 2).map((d) => d.delivery_id),
    );
    assert.deepEqual(
      (await list('--before', middle, '--type', 'all')).map((d) => d.delivery_id),
      all.slice(3).map((d) => d.delivery_id),
    );
    assert.deepEqual(await list('--since', '2000-01-01', '--before', '2000-01-02'), []);
    assert.equal((await list('--limit', '2')).length, 2);
  });

  it('on a terminal: a table with webhook names', async () => {
    const r = await runWs(['deliveries', 'list', '--type', 'delivery'], { env, tty: true });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    // The event first, the delivery id last (whole: the terminal is 120 columns wide).
    assert.match(lines[0]!, /^EVENT\s+STATUS\s+CODE\s+ATTEMPTS\s+WEBHOOK\s+CREATED\s+ID$/);
    assert.match(lines[2]!, /^deal\.updated\s+failed\s+503\s+1\s+bad\s+\S+\s+[0-9a-f-]{36}$/);
  });

  it('an unknown webhook name is not found (exit 4)', async () => {
    const r = await runWs(['deliveries', 'list', '--webhook', 'nope'], { env });
    assert.equal(r.code, 4);
    assert.match(r.stderr, /No webhook has the id or name "nope"/);
  });
});

describe('ws deliveries get', () => {
  it('--json: the delivery with its attempt history, found without --webhook', async () => {
    const [latest] = await list('--webhook', 'bad', '--type', 'delivery');
    const r = await runWs(['deliveries', 'get', latest!.delivery_id, '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const d = JSON.parse(r.stdout);
    assert.equal(d.webhook_id, ids.bad);
    assert.equal(d.attempt_history.length, 1);
    assert.equal(d.attempt_history[0].status_code, 503);
    assert.equal(d.attempt_history[0].response_body, 'down');
    assert.deepEqual(JSON.parse(d.attempt_history[0].request_body).data, { n: 2 });
  });

  it('on a terminal: each attempt with its error and both bodies, JSON pretty-printed', async () => {
    const [latest] = await list('--webhook', 'bad', '--type', 'delivery');
    const r = await runWs(['deliveries', 'get', latest!.delivery_id, '--webhook', 'bad'], {
      env,
      tty: true,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^status\s+failed$/m);
    assert.match(r.stdout, /^Attempt 1 {2}\S+ {2}failed {2}503 {2}\d+ms$/m);
    assert.match(r.stdout, /^ {2}error {2}answered 503; deliveries need a 2xx answer$/m);
    assert.match(r.stdout, /^ {2}request body\n {4}\{\n {6}"id": "[0-9a-f-]{36}",$/m);
    assert.match(r.stdout, /^ {6}"data": \{\n {8}"n": 2\n {6}\}$/m);
    assert.match(r.stdout, /^ {2}response body\n {4}down$/m);
  });

  it('a body the log cut is marked as such', async () => {
    const id = await dispatch('good', { blob: 'x'.repeat(70_000) });
    const r = await runWs(['deliveries', 'get', id, '--webhook', 'good'], { env, tty: true });
    assert.match(r.stdout, /request body \(truncated: the log keeps only the first 64 KiB\)/);
    assert.match(r.stdout, /… cut here/);
    const j = JSON.parse((await runWs(['deliveries', 'get', id, '--json'], { env })).stdout);
    assert.equal(j.attempt_history[0].request_body_truncated, true);
  });

  it('an unknown delivery is not found (exit 4); a malformed id is a usage error', async () => {
    const none = await runWs(['deliveries', 'get', '00000000-0000-4000-8000-000000000009'], {
      env,
    });
    assert.equal(none.code, 4);
    assert.match(none.stderr, /No webhook of the team has a delivery with the id/);
    const bad = await runWs(['deliveries', 'get', 'd-1'], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /"d-1" is not a delivery id/);
  });
});

describe('ws deliveries replay', () => {
  it('re-sends the logged bodies, oldest first, freshly signed, with their ids', async () => {
    const logged = (await list('--webhook', 'good', '--type', 'delivery')).slice(-2);
    const to = await startReceiver();
    try {
      // Named newest first: sent oldest first.
      const r = await runWs(
        [
          'deliveries',
          'replay',
          ...logged.map((d) => d.delivery_id),
          '--to',
          to.url,
          '--secret-file',
          join(files.dir, 'good.secret'),
          '--json',
        ],
        { env },
      );
      assert.equal(r.code, 0, r.stderr);
      const rows = JSON.parse(r.stdout);
      assert.deepEqual(
        rows.map((x: { delivery_id: string; status: number }) => [x.delivery_id, x.status]),
        [
          [logged[1]!.delivery_id, 200],
          [logged[0]!.delivery_id, 200],
        ],
      );
      const posts = to.posts();
      for (const [i, d] of [logged[1]!, logged[0]!].entries()) {
        const detail = JSON.parse(
          (
            await runWs(['deliveries', 'get', d.delivery_id, '--webhook', 'good', '--json'], {
              env,
            })
          ).stdout,
        );
        assert.equal(posts[i]!.body.toString(), detail.attempt_history[0].request_body);
        assert.equal(posts[i]!.headers['x-service-delivery-id'], d.delivery_id);
        assert.equal(posts[i]!.headers['x-service-event'], 'deal.updated');
        const [, ts, v1] = /^t=(\d+),v1=(\w+)$/.exec(
          String(posts[i]!.headers['x-service-signature']),
        )!;
        assert.equal(v1, hmac(secrets.good!, ts!, posts[i]!.body));
        assert.ok(Math.abs(Number(ts) - Date.now() / 1000) < 300, 'signed now');
      }
    } finally {
      await to.close();
    }
  });

  it('--status failed --since 1h picks the failed ones; --dry-run sends nothing', async () => {
    const to = await startReceiver();
    try {
      const dry = await runWs(
        [
          'deliveries',
          'replay',
          '--status',
          'failed',
          '--since',
          '1h',
          '--to',
          to.url,
          '--dry-run',
          '--json',
        ],
        { env },
      );
      assert.equal(dry.code, 0, dry.stderr);
      const planned = JSON.parse(dry.stdout);
      assert.deepEqual(
        planned.map((p: { event: string; sent: boolean }) => [p.event, p.sent]),
        [['deal.updated', false]],
      );
      assert.match(dry.stderr, /Dry run: 1 delivery would be sent to .*; nothing was sent/);
      assert.equal(to.requests.length, 0);
      const sent = await runWs(
        ['deliveries', 'replay', '--status', 'failed', '--since', '1h', '--to', to.url],
        { env: { ...env, WS_WEBHOOK_SECRET: secrets.bad! } },
      );
      assert.equal(sent.code, 0, sent.stderr);
      assert.equal(to.posts().length, 1);
      assert.deepEqual(JSON.parse(to.posts()[0]!.body.toString()).data, { n: 2 });
    } finally {
      await to.close();
    }
  });

  it('a body the log cut is refused by name and nothing is sent; --skip-truncated sends the rest', async () => {
    const cut = (await list('--webhook', 'good', '--type', 'delivery'))[0]!;
    const whole = (await list('--webhook', 'good', '--type', 'delivery'))[1]!;
    const to = await startReceiver();
    const secretFile = join(files.dir, 'good.secret');
    try {
      const r = await runWs(
        [
          'deliveries',
          'replay',
          cut.delivery_id,
          whole.delivery_id,
          '--to',
          to.url,
          '--secret-file',
          secretFile,
        ],
        { env },
      );
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        new RegExp(`The log cut the body of delivery ${cut.delivery_id} .*Nothing was sent`),
      );
      assert.match(r.stderr, /--skip-truncated/);
      assert.equal(to.requests.length, 0);
      const skip = await runWs(
        [
          'deliveries',
          'replay',
          cut.delivery_id,
          whole.delivery_id,
          '--to',
          to.url,
          '--secret-file',
          secretFile,
          '--skip-truncated',
        ],
        { env },
      );
      assert.equal(skip.code, 0, skip.stderr);
      assert.match(
        skip.stderr,
        new RegExp(`left out delivery ${cut.delivery_id}: the log cut its body`),
      );
      assert.deepEqual(
        to.posts().map((p) => p.headers['x-service-delivery-id']),
        [whole.delivery_id],
      );
    } finally {
      await to.close();
    }
  });

  it('a URL that does not acknowledge is a partial failure (exit 5); a handshake cannot be replayed', async () => {
    // The newest is the one whose body the log cut: the one before it.
    const [, one] = await list('--webhook', 'good', '--type', 'delivery', '--limit', '2');
    const r = await runWs(
      ['deliveries', 'replay', one!.delivery_id, '--to', bad.url, '--format', 'table'],
      { env: { ...env, WS_WEBHOOK_SECRET: secrets.good! } },
    );
    assert.equal(r.code, 5);
    assert.match(
      r.stdout,
      new RegExp(`✗ ${one!.delivery_id}\\s+deal\\.updated\\s+→ 503 in \\d+ms`),
    );
    assert.match(r.stderr, /1 of 1 replayed deliveries were not acknowledged/);
    const [hs] = await list('--type', 'verification', '--limit', '1');
    const h = await runWs(['deliveries', 'replay', hs!.delivery_id, '--to', bad.url, '--dry-run'], {
      env,
    });
    assert.equal(h.code, 2);
    assert.match(h.stderr, /is a handshake \(type verification\): it has no body to replay/);
  });
});

describe('ws deliveries tail', () => {
  it('shows each new delivery once its first attempt ends, until Ctrl-C (exit 130)', async () => {
    const s = spawnWs(
      ['deliveries', 'tail', '--interval', '1', '--format', 'ndjson'],
      wsEnv(t.configDir),
    );
    try {
      await s.waitForStderr(/Waiting for new deliveries/);
      const before = await list();
      const ping = await runWs(['webhooks', 'ping', 'bad', '--json'], { env });
      const id = JSON.parse(ping.stdout).delivery_id;
      const line = JSON.parse(await s.waitFor((l) => l.includes(id), 'the pinged delivery'));
      assert.equal(line.status, 'failed');
      assert.equal(line.status_code, 503);
      const second = await dispatch('good', { n: 4 });
      assert.equal(JSON.parse(await s.waitFor((l) => l.includes(second))).status, 'success');
      s.child.kill('SIGINT');
      assert.equal(await s.exited, 130);
      const shown = s.lines.map((l) => JSON.parse(l).delivery_id);
      assert.equal(new Set(shown).size, shown.length, 'each delivery once');
      assert.ok(!shown.some((x) => before.some((b) => b.delivery_id === x)), 'none from before');
      assert.match(s.stderr(), /Stopped: 2 deliveries shown, \d+ requests spent\./);
      assert.doesNotMatch(s.stderr(), /error:/);
    } finally {
      if (s.child.exitCode === null) s.child.kill('SIGKILL');
      await s.exited;
    }
  });

  it('shows a delivery whose first attempt ends after a newer one was shown', async () => {
    const answer = good.answer;
    good.answer = (req) =>
      req.body.includes('"slow":true') ? { ...answer(req), delayMs: 2500 } : answer(req);
    const s = spawnWs(
      ['deliveries', 'tail', '--interval', '1', '--format', 'ndjson'],
      wsEnv(t.configDir),
    );
    try {
      await s.waitForStderr(/Waiting for new deliveries/);
      const slow = deliveriesOf(t.sandbox.store).dispatch({
        teamId: t.sandbox.teamId,
        webhookId: ids['good']!,
        event: 'deal.updated',
        data: { slow: true },
      });
      assert.ok(slow.dispatched);
      const quick = await dispatch('bad', { n: 6 });
      await s.waitFor((l) => l.includes(quick), 'the quick delivery');
      const late = JSON.parse(await s.waitFor((l) => l.includes(slow.deliveryId), 'the slow one'));
      assert.equal(late.status, 'success');
      const shown = s.lines.map((l) => JSON.parse(l).delivery_id);
      assert.deepEqual(shown, [quick, slow.deliveryId], 'the slow one after the quick one');
      s.child.kill('SIGINT');
      assert.equal(await s.exited, 130);
    } finally {
      good.answer = answer;
      if (s.child.exitCode === null) s.child.kill('SIGKILL');
      await s.exited;
    }
  });

  it('--webhook and --status narrow what is shown', async () => {
    const s = spawnWs(
      [
        'deliveries',
        'tail',
        '--webhook',
        'good',
        '--status',
        'success',
        '--interval',
        '1',
        '--format',
        'ndjson',
      ],
      wsEnv(t.configDir),
    );
    try {
      await s.waitForStderr(/Waiting for new deliveries of webhook good/);
      await runWs(['webhooks', 'ping', 'bad', '--wait'], { env });
      const id = await dispatch('good', { n: 5 });
      const line = JSON.parse(await s.waitFor((l) => l.includes(id)));
      assert.equal(line.webhook_id, ids.good);
      s.child.kill('SIGINT');
      await s.exited;
      assert.deepEqual(
        s.lines.map((l) => JSON.parse(l).webhook_id),
        [ids.good],
      );
    } finally {
      if (s.child.exitCode === null) s.child.kill('SIGKILL');
      await s.exited;
    }
  });
});

describe('ws deliveries list, page after page', () => {
  it('50 by default; --limit and --all read 100 a request, following the cursor', async () => {
    const s = await startTestSandbox();
    const receiver = await startReceiver();
    try {
      const e = { ...(s.env as Record<string, string>), NO_COLOR: '1' };
      const created = await runWs(
        ['webhooks', 'create', '--name', 'busy', '--url', receiver.url, '--wait', '--json'],
        { env: e },
      );
      const hook = JSON.parse(created.stdout);
      assert.equal(hook.verified, true, created.stderr);
      for (let i = 0; i < 130; i++) {
        const res = deliveriesOf(s.sandbox.store).dispatch({
          teamId: s.sandbox.teamId,
          webhookId: hook.id,
          event: 'deal.updated',
          data: { i },
        });
        assert.ok(res.dispatched);
      }
      const run = async (...args: string[]) => {
        const r = await runWs(['deliveries', 'list', '--json', '--debug', ...args], { env: e });
        assert.equal(r.code, 0, r.stderr);
        const requests = r.stderr.split('\n').filter((l) => l.startsWith('→ GET')).length;
        return { rows: JSON.parse(r.stdout) as Delivery[], requests };
      };
      // A delivery is listed once its first attempt has ended.
      for (let tries = 0; (await run('--all', '--webhook', hook.id)).rows.length < 130; tries++) {
        assert.ok(tries < 200, 'every delivery ends');
        await new Promise((r) => setTimeout(r, 50));
      }
      const byDefault = await run();
      assert.deepEqual([byDefault.rows.length, byDefault.requests], [50, 1]);
      const limited = await run('--limit', '120', '--type', 'delivery');
      assert.deepEqual([limited.rows.length, limited.requests], [120, 2]);
      const all = await run('--all', '--webhook', hook.id, '--type', 'all');
      assert.deepEqual([all.rows.length, all.requests], [131, 2]);
      // Newest first, each once, across the pages.
      assert.equal(new Set(all.rows.map((d) => d.delivery_id)).size, 131);
      assert.equal(all.rows.at(-1)!.type, 'verification');
      const both = await runWs(['deliveries', 'list', '--all', '--limit', '5'], { env: e });
      assert.equal(both.code, 2);
    } finally {
      await receiver.close();
      await s.stop();
    }
  });
});
