// ws webhooks and ws deliveries on a terminal (a pseudo-terminal driven as a user drives
// it): listen and tail stopping on Ctrl-C, delete confirming, the secret's warning on
// create, verify waiting for the handshake. Assertions are on what the screen shows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runInPty } from '../helpers/pty.ts';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { wsEnv } from '../helpers/spawned.ts';
import { startReceiver, type TestReceiver } from '../helpers/webhook-receiver.ts';

let t: TestSandbox;
let env: Record<string, string>;
let receiver: TestReceiver;
const term = () => wsEnv(t.configDir, { TERM: 'xterm' });

before(async () => {
  t = await startTestSandbox();
  env = t.env as Record<string, string>;
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
  await t.stop();
});

async function names(): Promise<string[]> {
  const r = await runWs(['webhooks', 'list', '--json'], { env });
  return JSON.parse(r.stdout).map((w: { name: string }) => w.name);
}

describe('on a terminal', () => {
  it('create shows the secret once, with a warning, and waits for the handshake', async () => {
    const s = runInPty(
      ['webhooks', 'create', '--name', 'tty-orders', '--url', receiver.url],
      term(),
    );
    assert.equal(await s.exited, 0, s.screen());
    const screen = s.screen();
    assert.match(screen, /^secret\s+whsec_\S{32}$/m);
    assert.match(screen, /warning: this signing secret is shown only once: store it now/);
    assert.match(
      screen,
      /✓ Verified: http:\/\/127\.0\.0\.1:\d+\/hooks echoed the challenge in \d+ms\./,
    );
  });

  it('verify waits for the outcome without --wait', async () => {
    const s = runInPty(['webhooks', 'verify', 'tty-orders'], term());
    assert.equal(await s.exited, 0, s.screen());
    assert.match(s.screen(), /✓ Verified: .* echoed the challenge/);
    assert.doesNotMatch(s.screen(), /--wait/);
  });

  it('delete asks first: n keeps the webhook, y deletes it', async () => {
    const no = runInPty(['webhooks', 'delete', 'tty-orders'], term());
    await no.waitFor(
      /Delete webhook "tty-orders" \(http:\/\/127\.0\.0\.1:\d+\/hooks\) and its delivery log\?/,
    );
    no.type('n');
    no.type('\r');
    assert.equal(await no.exited, 1);
    assert.match(no.screen(), /Cancelled: nothing was changed/);
    assert.deepEqual(await names(), ['tty-orders']);
    const yes = runInPty(['webhooks', 'delete', 'tty-orders'], term());
    await yes.waitFor(/Delete webhook "tty-orders"/);
    yes.type('y');
    yes.type('\r');
    assert.equal(await yes.exited, 0, yes.screen());
    assert.match(yes.screen(), /✓ Deleted webhook "tty-orders"/);
    assert.deepEqual(await names(), []);
  });

  it('listen shows each event, and Ctrl-C removes its webhook and exits 130', async () => {
    const s = runInPty(['webhooks', 'listen'], term());
    await s.waitFor(
      /Ready: listening on http:\/\/127\.0\.0\.1:\d+\/ as webhook ws-listen-\S+ \(([0-9a-f-]{36})\)\. Press Ctrl-C to stop\./,
    );
    const [name] = await names();
    const ping = await runWs(['webhooks', 'ping', name!, '--wait'], { env });
    assert.equal(ping.code, 0, ping.stderr);
    await s.waitFor(/\d\d:\d\d:\d\d {2}webhook\.test {6}[0-9a-f-]{36} {2}✓ signature ok/);
    s.type('\x03');
    assert.equal(await s.exited, 130);
    assert.match(
      s.screen(),
      new RegExp(`Stopped: 1 delivery received; removed webhook ${name}\\.`),
    );
    assert.doesNotMatch(s.screen(), /error:/);
    assert.deepEqual(await names(), []);
  });

  it('tail shows the requests spent, new deliveries, and stops on Ctrl-C with exit 130', async () => {
    const created = await runWs(
      ['webhooks', 'create', '--name', 'tty-tail', '--url', receiver.url, '--wait', '--json'],
      { env },
    );
    assert.equal(created.code, 0, created.stderr);
    const s = runInPty(['deliveries', 'tail', '--interval', '1'], term());
    await s.waitFor(/Waiting for new deliveries… Press Ctrl-C to stop\./);
    await s.waitFor(/0 shown · next check in \d+s · \d+ requests spent/);
    await runWs(['webhooks', 'ping', 'tty-tail', '--wait'], { env });
    await s.waitFor(
      /\d\d:\d\d:\d\d {2}webhook\.test {6}success {2}200 {2}tty-tail {2}[0-9a-f-]{36}/,
    );
    await s.waitFor(/1 shown · next check in 1s/);
    s.type('\x03');
    assert.equal(await s.exited, 130);
    assert.match(s.screen(), /Stopped: 1 delivery shown, \d+ requests spent\./);
    assert.doesNotMatch(s.screen(), /error:/);
  });
});
