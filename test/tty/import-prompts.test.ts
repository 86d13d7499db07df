// `ws import` asks, at a terminal, about a column that matches no property: its summary
// times the import, not the person reading and answering the questions, so the duration
// and the rate it shows agree with each other (the duration used to count the answers and
// the rate not).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as wait } from 'node:timers/promises';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { noTerminal, Terminal } from './terminal.ts';

let s: TestSandbox;
let work: string;

/** How long each question waits for its answer. */
const THINK_MS = 3000;

describe('import questions at a terminal', { skip: noTerminal }, () => {
  before(async () => {
    s = await startTestSandbox();
    work = mkdtempSync(join(tmpdir(), 'ws-tty-prompts-'));
    const r = await runWs(['props', 'list', 'contacts'], { env: s.env });
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => {
    await s?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('leaves the time spent answering out of the duration, which then agrees with the rate', async () => {
    const rows = ['name,email,Favourite colour'];
    for (let i = 0; i < 200; i++) rows.push(`Person ${i},person${i}@example.com,blue`);
    writeFileSync(join(work, 'people.csv'), `${rows.join('\n')}\n`);
    const term = new Terminal({ columns: 100, rows: 80 }, { ...s.env, NO_COLOR: '1' });
    try {
      await term.start(['import', 'contacts', 'people.csv', '--json'], { cwd: work });
      await term.waitFor(/Column "Favourite colour" matches no property/);
      await wait(THINK_MS);
      await term.keys('-l', 'Skip');
      await term.keys('Enter');
      await term.waitFor(/Save this mapping to .* for the next run\?/);
      await wait(THINK_MS);
      await term.keys('n', 'Enter');
      const end = await term.finished();
      assert.equal(end.code, 0, end.screen);
      const number = (key: string) => {
        const m = new RegExp(`"${key}": (\\d+)`).exec(end.screen);
        assert.ok(m, `${key} in:\n${end.screen}`);
        return Number(m[1]);
      };
      const [created, duration, rate] = [
        number('created'),
        number('duration_ms'),
        number('rows_per_second'),
      ];
      assert.equal(created, 200);
      assert.ok(duration < 2 * THINK_MS, `the answers are in the duration: ${duration} ms`);
      assert.equal(rate, Math.round((200 * 1000) / duration), end.screen);
    } finally {
      await term.close();
    }
  });
});
