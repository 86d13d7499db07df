// `ws records delete TYPE --where …` at a real terminal: the count and the first records
// that match are on the screen before the question, and the answer decides.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { noTerminal, Terminal } from './terminal.ts';

let s: TestSandbox;

async function names(): Promise<string[]> {
  const r = await runWs(['records', 'list', 'contacts', '--all', '--fields', 'name'], {
    env: s.env,
  });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim().split('\n');
}

describe('records delete --where at a terminal', { skip: noTerminal }, () => {
  before(async () => {
    s = await startTestSandbox();
    for (const name of ['Old One', 'Old Two', 'Old Three', 'Keep Me']) {
      const r = await runWs(['records', 'create', 'contacts', '--set', `name=${name}`], {
        env: s.env,
      });
      assert.equal(r.code, 0, r.stderr);
    }
  });
  after(async () => {
    await s?.stop();
  });

  for (const [answer, left] of [
    ['n', ['Old One', 'Old Two', 'Old Three', 'Keep Me']],
    ['y', ['Keep Me']],
  ] as const) {
    it(`shows the count and the matches, then asks: ${answer}`, async () => {
      const term = new Terminal({ columns: 100 }, { ...s.env, NO_COLOR: '1' });
      try {
        await term.start(['records', 'delete', 'contacts', '--where', 'name^=Old']);
        const screen = await term.waitFor(/Delete 3 contacts\? .*\(y\/N\)/s);
        assert.match(screen, /3 contacts match name\^=Old:\n {2}\S+ {2}Old One\n/);
        assert.match(screen, / {2}\S+ {2}Old Three\n/);
        await term.keys(answer, 'Enter');
        const end = await term.finished();
        assert.equal(end.code, answer === 'y' ? 0 : 1, end.screen);
        if (answer === 'y') assert.match(end.screen, /Deleted 3 of 3 contacts\./);
        else assert.match(end.screen, /Cancelled: nothing was changed\./);
      } finally {
        await term.close();
      }
      assert.deepEqual((await names()).sort(), [...left].sort());
    });
  }
});
