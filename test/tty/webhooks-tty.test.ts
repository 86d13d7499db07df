// ws webhooks and ws deliveries at a real terminal (a tmux pane, ./terminal.ts, typed into
// as a person types): listen and tail stopping on Ctrl-C with the terminal left in its usual
// mode, delete confirming, the secret's warning on create, verify waiting for the
// handshake. Assertions are on what the screen shows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { startReceiver, type TestReceiver } from '../helpers/webhook-receiver.ts';
import { cooked, noTerminal, Terminal } from './terminal.ts';

let t: TestSandbox;
let env: Record<string, string>;
let receiver: TestReceiver;
const terminals: Terminal[] = [];

/** Run `ws ARGS…` in a terminal wide enough that no line of it wraps. */
async function open(args: string[]): Promise<Terminal> {
  const term = new Terminal({ columns: 240 }, { ...env, NO_COLOR: '1' });
  terminals.push(term);
  await term.start(args);
  return term;
}

before(async () => {
  t = await startTestSandbox();
  env = t.env as Record<string, string>;
  receiver = await startReceiver();
});
after(async () => {
  for (const term of terminals) await term.close();
  await receiver.close();
  await t.stop();
});

async function names(): Promise<string[]> {
  const r = await runWs(['webhooks', 'list', '--json'], { env });
  return JSON.parse(r.stdout).map((w: { name: string }) => w.name);
}

describe('webhooks and deliveries at a terminal', { skip: noTerminal }, () => {
  it('create shows the secret once, with a warning, and waits for the handshake', async () => {
    const term = await open(['webhooks', 'create', '--name', 'tty-orders', '--url', receiver.url]);
    const end = await term.finished();
    assert.equal(end.code, 0, end.screen);
    assert.match(end.screen, /^secret\s+whsec_\S{32}$/m);
    assert.match(end.screen, /warning: this signing secret is shown only once: store it now/);
    assert.match(
      end.screen,
      /✓ Verified: http:\/\/127\.0\.0\.1:\d+\/hooks echoed the challenge in \d+ms\./,
    );
  });

  it('verify waits for the outcome without --wait', async () => {
    const end = await (await open(['webhooks', 'verify', 'tty-orders'])).finished();
    assert.equal(end.code, 0, end.screen);
    assert.match(end.screen, /✓ Verified: .* echoed the challenge/);
    assert.doesNotMatch(end.screen, /--wait/);
  });

  it('delete asks first: n keeps the webhook, y deletes it', async () => {
    const no = await open(['webhooks', 'delete', 'tty-orders']);
    await no.waitFor(
      /Delete webhook "tty-orders" \(http:\/\/127\.0\.0\.1:\d+\/hooks\) and its delivery log\?/,
    );
    await no.keys('n', 'Enter');
    const kept = await no.finished();
    assert.equal(kept.code, 1, kept.screen);
    assert.match(kept.screen, /Cancelled: nothing was changed/);
    assert.deepEqual(await names(), ['tty-orders']);
    const yes = await open(['webhooks', 'delete', 'tty-orders']);
    await yes.waitFor(/Delete webhook "tty-orders"/);
    await yes.keys('y', 'Enter');
    const deleted = await yes.finished();
    assert.equal(deleted.code, 0, deleted.screen);
    assert.match(deleted.screen, /✓ Deleted webhook "tty-orders"/);
    assert.deepEqual(await names(), []);
  });

  it('listen shows each event, and Ctrl-C removes its webhook and exits 130', async () => {
    const term = await open(['webhooks', 'listen']);
    await term.waitFor(
      /Ready: listening on http:\/\/127\.0\.0\.1:\d+\/ as webhook ws-listen-\S+ \(([0-9a-f-]{36})\)\. Press Ctrl-C to stop\./,
    );
    const [name] = await names();
    const ping = await runWs(['webhooks', 'ping', name!, '--wait'], { env });
    assert.equal(ping.code, 0, ping.stderr);
    await term.waitFor(/\d\d:\d\d:\d\d {2}webhook\.test {6}✓ signature ok {2}[0-9a-f-]{36}/);
    await term.keys('C-c');
    const end = await term.finished();
    assert.equal(end.code, 130, end.screen);
    assert.match(
      end.screen,
      new RegExp(`Stopped: 1 delivery received; removed webhook ${name}\\.`),
    );
    assert.doesNotMatch(end.screen, /error:/);
    assert.ok(cooked(end.stty), end.stty);
    assert.deepEqual(await names(), []);
  });

  it('tail shows the requests spent, new deliveries, and stops on Ctrl-C with exit 130', async () => {
    const created = await runWs(
      ['webhooks', 'create', '--name', 'tty-tail', '--url', receiver.url, '--wait', '--json'],
      { env },
    );
    assert.equal(created.code, 0, created.stderr);
    const term = await open(['deliveries', 'tail', '--interval', '1']);
    await term.waitFor(/Waiting for new deliveries… Press Ctrl-C to stop\./);
    await term.waitFor(/0 shown · next check in \d+s · \d+ requests spent/);
    await runWs(['webhooks', 'ping', 'tty-tail', '--wait'], { env });
    await term.waitFor(
      /\d\d:\d\d:\d\d {2}webhook\.test {6}success {2}200 {2}tty-tail +[0-9a-f-]{36}/,
    );
    await term.waitFor(/1 shown · next check in 1s/);
    await term.keys('C-c');
    const end = await term.finished();
    assert.equal(end.code, 130, end.screen);
    assert.match(end.screen, /Stopped: 1 delivery shown, \d+ requests spent\./);
    assert.doesNotMatch(end.screen, /error:/);
    assert.ok(cooked(end.stty), end.stty);
  });
});
