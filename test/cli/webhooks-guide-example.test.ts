// The worked example of webhooks in docs/webhooks.md ("A worked example: from an event to
// your handler"), run as printed: its shell blocks are read from the guide and run by bash with
// `ws` on PATH against a sandbox (only the handler's port 3000 is swapped for a free one).
// So the example a user copies works: listen forwards to the handler, the automation made
// with `ws automations create` fires on the deal moved to won, and the delivery is in listen's output, the
// handler's, `ws deliveries list` and `ws deliveries get`; Ctrl-C removes listen's webhook.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { wsEnv, wsOnPath } from '../helpers/spawned.ts';
import { freePort } from '../helpers/webhook-receiver.ts';

const GUIDE = new URL('../../docs/webhooks.md', import.meta.url).pathname;

/** The ```sh blocks of the guide's worked example, in order. */
function exampleBlocks(): string[] {
  const text = readFileSync(GUIDE, 'utf8');
  const start = text.indexOf('## A worked example: from an event to your handler');
  assert.ok(start >= 0, 'docs/webhooks.md has the worked example');
  const end = text.indexOf('\n## ', start + 10);
  const section = text.slice(start, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    m[1]!.replace(/^ {3}/gm, '').trim(),
  );
}

interface Shell {
  out: () => string;
  err: () => string;
  pid: number;
  exited: Promise<number | null>;
  waitFor(pattern: RegExp, what: string): Promise<void>;
}

/** `bash -c SCRIPT` with ws on PATH; `exec` in the script makes its pid the command's. */
function bash(script: string, env: NodeJS.ProcessEnv): Shell {
  const child = spawn('bash', ['-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  let done = false;
  void exited.then(() => (done = true));
  return {
    out: () => out,
    err: () => err,
    pid: child.pid!,
    exited,
    async waitFor(pattern, what) {
      const deadline = Date.now() + 60_000;
      while (!pattern.test(out + err)) {
        if (done || Date.now() > deadline)
          throw new Error(`never saw ${what}; stdout: ${out}\nstderr: ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

let t: TestSandbox;
let dir: string;
let env: NodeJS.ProcessEnv;
const shells: Shell[] = [];

before(async () => {
  t = await startTestSandbox();
  dir = wsOnPath('ws-readme-');
  env = wsEnv(t.configDir, { PATH: `${dir}:${process.env.PATH}` });
});
after(async () => {
  for (const s of shells) {
    try {
      process.kill(s.pid, 'SIGKILL');
    } catch {}
    await s.exited;
  }
  rmSync(dir, { recursive: true, force: true });
  await t.stop();
});

describe('the worked example of webhooks (docs/webhooks.md)', () => {
  it('runs as printed: from a deal moved to won to the handler and the delivery log', async () => {
    const blocks = exampleBlocks();
    assert.equal(blocks.length, 5, blocks.join('\n---\n'));
    const [handlerBlock, listenBlock, automationBlock, recordBlock, logBlock] = blocks as [
      string,
      string,
      string,
      string,
      string,
    ];
    const port = String(await freePort());
    const local = (s: string) => s.replaceAll('3000', port);

    // The handler: run in the foreground of its own shell, so that it can be stopped.
    assert.match(handlerBlock, /&$/);
    const handler = bash(`exec ${local(handlerBlock).replace(/&$/, '')}`, env);
    shells.push(handler);
    const listen = bash(`cd ${JSON.stringify(dir)} && exec ${local(listenBlock)}`, env);
    shells.push(listen);
    await listen.waitFor(
      /Ready: listening on .* forwarding to http:\/\/localhost:\d+\/hooks/,
      'ready',
    );
    assert.equal(readFileSync(join(dir, '.whsec'), 'utf8').slice(0, 6), 'whsec_');

    const steps = bash(
      [
        'set -e',
        automationBlock,
        recordBlock,
        // listen and the handler get the event after the write answers: wait for it.
        'for i in $(seq 1 100); do ws deliveries list --webhook "$hook" --type delivery --status success --fields event | grep -q deal.updated && break; sleep 0.1; done',
        'echo "=== log"',
        logBlock,
      ].join('\n'),
      env,
    );
    assert.equal(await steps.exited, 0, steps.err());
    assert.doesNotMatch(steps.err(), /warning|error/i);
    const [setup, log] = steps.out().split('=== log\n') as [string, string];
    // create, piped, prints the automation as key<TAB>value lines.
    const field = (key: string) => new RegExp(`^${key}\\t(.*)$`, 'm').exec(setup)?.[1];
    const automation = { id: field('id'), name: field('name'), when: field('when') };
    assert.equal(automation.name, 'Deal won');
    assert.equal(automation.when, '--on-change stage:to=won');
    assert.match(automation.id ?? '', /^[0-9a-f-]{36}$/);
    assert.match(log, /^[0-9a-f-]{36}\tdeal\.updated\tsuccess\t200\t1\t/m);
    assert.match(log, /^[0-9a-f-]{36}\tverification\tsuccess\t200\t1\t/m);
    const [, deliveryId] = /^([0-9a-f-]{36})\tdeal\.updated/m.exec(log)!;
    // get, piped, prints key<TAB>value lines, the attempt history as JSON.
    assert.match(log, new RegExp(`^delivery_id\\t${deliveryId}$`, 'm'));
    assert.match(log, /^event\tdeal\.updated$/m);
    assert.match(log, /^status\tsuccess$/m);
    const history = log.split('\n').find((l) => l.startsWith('attempt_history\t'));
    assert.ok(history?.includes(automation.id!), log);
    assert.ok(history?.includes('won'), log);

    await handler.waitFor(
      new RegExp(`^deal\\.updated \\{"id":"${deliveryId}"`, 'm'),
      'the handler',
    );
    await listen.waitFor(
      new RegExp(`deal\\.updated\\t${deliveryId}\\t[0-9a-f-]{36}\\tvalid\\t200\\t200`),
      'the delivery in listen',
    );

    // Ctrl-C stops listen, which removes its webhook.
    process.kill(listen.pid, 'SIGINT');
    assert.equal(await listen.exited, 130, listen.err());
    const left = await runWs(['webhooks', 'list', '--json'], {
      env: t.env as Record<string, string>,
    });
    assert.deepEqual(JSON.parse(left.stdout), []);
  });
});
