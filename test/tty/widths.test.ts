// No line wraps at a terminal of 80 columns: the import's progress line, the rows of
// `ws deliveries tail` and `ws webhooks listen`, listen's `Ready:` line and the note that
// names the columns a table left out. The terminal would break them anywhere (a word in
// two, the spinner's line redrawn on top of itself); ws fits them to the width instead.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { setFaults, startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { startReceiver, type TestReceiver } from '../helpers/webhook-receiver.ts';
import { noTerminal, Terminal } from './terminal.ts';

let s: TestSandbox;
let env: Record<string, string>;
let receiver: TestReceiver;
let work: string;
const terminals: Terminal[] = [];

async function open(args: string[], opts: { cwd?: string } = {}): Promise<Terminal> {
  const term = new Terminal({ columns: 80 }, { ...env, NO_COLOR: '1' });
  terminals.push(term);
  await term.start(args, opts);
  return term;
}

describe('lines at a terminal of 80 columns', { skip: noTerminal }, () => {
  before(async () => {
    s = await startTestSandbox({ seed: 'demo' });
    env = s.env as Record<string, string>;
    receiver = await startReceiver();
    work = mkdtempSync(join(tmpdir(), 'ws-tty-widths-'));
  });
  after(async () => {
    for (const term of terminals) await term.close();
    await setFaults(s.sandbox, { latency_ms: 0 });
    await receiver?.close();
    await s?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("the import's progress line stays on its line", async () => {
    const rows = ['name,email'];
    for (let i = 0; i < 3000; i++) rows.push(`Person ${i},person${i}@example.com`);
    const file = 'contacts-exported-from-the-old-crm-on-2026-03-01.csv';
    writeFileSync(join(work, file), `${rows.join('\n')}\n`);
    // The definitions are read (and cached) first; then the chunks sent wait on the
    // service, so the line shows for as long as the test looks.
    const props = await runWs(['props', 'list', 'contacts'], { env });
    assert.equal(props.code, 0, props.stderr);
    await setFaults(s.sandbox, { latency_ms: 60_000 });
    try {
      const term = await open(
        ['import', 'contacts', file, '--chunk-size', '50', '--concurrency', '2'],
        { cwd: work },
      );
      const screen = await term.waitFor(/[1-9][\d,]* sent · 0 processed/);
      assert.deepEqual(await term.wrapped(), [], screen);
      assert.match(
        screen,
        /Importing contacts-export\S*…: [\d,]+ read · 100 sent · 0 processed · 0 failed/,
      );
      await term.keys('C-c');
      await term.keys('C-c');
      await term.finished();
    } finally {
      await setFaults(s.sandbox, { latency_ms: 0 });
    }
  });

  it('webhooks listen: the Ready line broken between words, and each row on one line', async () => {
    const term = await open(['webhooks', 'listen']);
    const ready = await term.waitFor(/Press Ctrl-C to stop\./);
    assert.deepEqual(await term.wrapped(), [], ready);
    const from = ready.slice(ready.indexOf('Ready:'));
    const sentence = from
      .slice(0, from.indexOf('Press Ctrl-C to stop.') + 21)
      .split('\n')
      .join(' ');
    assert.match(
      sentence,
      /^Ready: listening on http:\/\/127\.0\.0\.1:\d+\/ as webhook ws-listen-\S+ \([0-9a-f-]{36}\)\. Press Ctrl-C to stop\.$/,
    );
    const list = await runWs(['webhooks', 'list', '--json'], { env });
    const [hook] = JSON.parse(list.stdout) as { name: string }[];
    const ping = await runWs(['webhooks', 'ping', hook!.name, '--wait'], { env });
    assert.equal(ping.code, 0, ping.stderr);
    const screen = await term.waitFor(/webhook\.test +✓ signature ok/);
    assert.deepEqual(await term.wrapped(), [], screen);
    assert.match(
      screen,
      /^\d\d:\d\d:\d\d {2}webhook\.test {6}✓ signature ok( {2}[0-9a-f-]{36})?$/m,
    );
    await term.keys('C-c');
    assert.equal((await term.finished()).code, 130);
  });

  it('deliveries tail: each row on one line, the name before the delivery id', async () => {
    const name = 'Order notifications for the warehouse team';
    const created = await runWs(
      ['webhooks', 'create', '--name', name, '--url', receiver.url, '--wait', '--json'],
      { env },
    );
    assert.equal(created.code, 0, created.stderr);
    const term = await open(['deliveries', 'tail', '--interval', '1']);
    await term.waitFor(/Waiting for new deliveries… Press Ctrl-C to stop\./);
    const ping = await runWs(['webhooks', 'ping', name, '--wait'], { env });
    assert.equal(ping.code, 0, ping.stderr);
    const screen = await term.waitFor(/webhook\.test +success +200 +Order/);
    assert.deepEqual(await term.wrapped(), [], screen);
    assert.match(
      screen,
      /^\d\d:\d\d:\d\d {2}webhook\.test {6}success {2}200 {2}Order notifications for the wareh\S*…$/m,
    );
    await term.keys('C-c');
    assert.equal((await term.finished()).code, 130);
  });

  it('the note that names the columns left out is broken between words', async () => {
    const term = await open(['deliveries', 'list']);
    const end = await term.finished();
    assert.equal(end.code, 0, end.screen);
    assert.deepEqual(await term.wrapped(), [], end.screen);
    const note = end.screen.slice(end.screen.indexOf('Left out to fit')).split('\n').join(' ');
    assert.match(
      note,
      /^Left out to fit the terminal's width: [a-z_, ]+ \(--wide shows every column; --fields chooses them\)\.$/,
    );
  });
});
