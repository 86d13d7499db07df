// The progress line of `ws import` at a real terminal: "read" counts the rows read from the
// file as they are read, so it is never behind "sent" (it used to move only as chunks
// finished: "0 read · 100 sent").
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { setFaults, startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { noTerminal, Terminal } from './terminal.ts';

let s: TestSandbox;
let work: string;

const count = (text: string) => Number(text.replace(/,/g, ''));

describe('import progress at a terminal', { skip: noTerminal }, () => {
  before(async () => {
    s = await startTestSandbox({ seed: 'demo' });
    work = mkdtempSync(join(tmpdir(), 'ws-tty-progress-'));
    const r = await runWs(['props', 'list', 'contacts'], { env: s.env });
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => {
    await setFaults(s.sandbox, { latency_ms: 0 });
    await s?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows the rows read ahead of the chunks in flight', async () => {
    const rows = ['name,email'];
    for (let i = 0; i < 3000; i++) rows.push(`Person ${i},person${i}@example.com`);
    writeFileSync(join(work, 'people.csv'), `${rows.join('\n')}\n`);
    // The chunks sent wait on the service: the file is read ahead while they do.
    await setFaults(s.sandbox, { latency_ms: 60_000 });
    const term = new Terminal({ columns: 120 }, { ...s.env, NO_COLOR: '1' });
    try {
      await term.start(
        ['import', 'contacts', 'people.csv', '--chunk-size', '50', '--concurrency', '2'],
        { cwd: work },
      );
      const screen = await term.waitFor(/[1-9][\d,]* sent/);
      const m = /([\d,]+) read · ([\d,]+) sent · ([\d,]+) processed/.exec(screen);
      assert.ok(m, screen);
      assert.equal(count(m[2]!), 100, screen);
      assert.ok(count(m[1]!) >= count(m[2]!), screen);
      assert.equal(count(m[3]!), 0, screen);
      await term.keys('C-c');
      await term.keys('C-c');
      assert.equal((await term.finished()).code, 130);
    } finally {
      await term.close();
    }
  });
});
