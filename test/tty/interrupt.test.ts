// Ctrl-C at a real terminal stops every long command (export, import, batch-delete,
// list --all), a read of stdin typed at the terminal, and every prompt: exit 130 with the message the README documents, and the
// terminal left in its usual mode with the cursor shown. The keystroke is typed into a
// tmux pane, as a person types it, while a spinner runs.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { setFaults, startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { cooked, noTerminal, Terminal } from './terminal.ts';

let s: TestSandbox;
let work: string;

/** Run ws in an 100-column terminal, type Ctrl-C once `ready` shows, and wait for the end. */
async function interrupt(args: string[], ready: RegExp, presses = 1) {
  const term = new Terminal({ columns: 100 }, { ...s.env, NO_COLOR: '1' });
  try {
    await term.start(args, { cwd: work });
    await term.waitFor(ready);
    for (let i = 0; i < presses; i++) await term.keys('C-c');
    const end = await term.finished();
    return { ...end, cursor: await term.cursorVisible() };
  } finally {
    await term.close();
  }
}

describe('Ctrl-C at a terminal', { skip: noTerminal }, () => {
  before(async () => {
    s = await startTestSandbox({ seed: 'demo' });
    work = mkdtempSync(join(tmpdir(), 'ws-tty-work-'));
    // The definitions are cached before the answers slow down, so each command reaches its
    // spinner at once and then waits on a slow page or chunk.
    for (const type of ['contacts', 'deals']) {
      const r = await runWs(['props', 'list', type], { env: s.env });
      assert.equal(r.code, 0, r.stderr);
    }
  });
  after(async () => {
    await setFaults(s.sandbox, { latency_ms: 0 });
    await s?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('stops an export while its spinner runs: exit 130, the file untouched, the terminal as it was', async () => {
    await setFaults(s.sandbox, { latency_ms: 60_000 });
    const out = join(work, 'all.csv');
    const r = await interrupt(
      ['records', 'export', 'contacts', '--output', out],
      /Exporting contact records/,
    );
    assert.equal(r.code, 130, r.screen);
    assert.match(r.screen, /Export stopped after 0 contacts\./);
    assert.match(r.screen, /all\.csv was not written\./);
    assert.match(r.screen, /error: Interrupted\./);
    assert.equal(existsSync(out), false);
    assert.ok(cooked(r.stty), `the terminal is left raw:\n${r.stty}`);
    assert.ok(r.cursor, 'the cursor is hidden after ws exited');
  });

  it('stops a batch-delete while its spinner runs: the chunk in flight reported not attempted', async () => {
    await setFaults(s.sandbox, { latency_ms: 0 });
    const ids = (
      await runWs(['records', 'list', 'deals', '--all', '--fields', 'id'], { env: s.env })
    ).stdout;
    writeFileSync(join(work, 'ids.txt'), ids);
    const n = ids.trim().split('\n').length;
    await setFaults(s.sandbox, { latency_ms: 60_000 });
    const r = await interrupt(
      ['records', 'batch-delete', 'deals', '--file', 'ids.txt', '--yes'],
      /Deleting \d+ deals/,
    );
    assert.equal(r.code, 130, r.screen);
    assert.match(r.screen, new RegExp(`Deleted 0 of ${n} deals; ${n} not attempted\\.`));
    assert.match(r.screen, /error: Interrupted\./);
    assert.ok(cooked(r.stty), `the terminal is left raw:\n${r.stty}`);
  });

  it('stops list --all while it waits for a page (no spinner: --debug shows the request)', async () => {
    // The answer would come after the wait for the end (60 s), and the request's timeout
    // later still: only the abort of the request in flight ends the command in time.
    await setFaults(s.sandbox, { latency_ms: 120_000 });
    const r = await interrupt(
      ['records', 'list', 'contacts', '--all', '--debug', '--timeout', '180'],
      /→ GET \S+\/contact\?limit=50/,
    );
    assert.equal(r.code, 130, r.screen);
    assert.match(r.screen, /Interrupted\./);
    assert.ok(cooked(r.stty), `the terminal is left raw:\n${r.stty}`);
  });

  it('stops an import at the next chunk, with the command to resume, and twice abandons the chunks in flight', async () => {
    await setFaults(s.sandbox, { latency_ms: 0 });
    const rows = ['name,email'];
    for (let i = 0; i < 3000; i++) rows.push(`Person ${i},person${i}@example.com`);
    writeFileSync(join(work, 'people.csv'), `${rows.join('\n')}\n`);
    await setFaults(s.sandbox, { latency_ms: 500 });
    const args = ['import', 'contacts', 'people.csv', '--chunk-size', '50', '--concurrency', '2'];
    const once = await interrupt(args, /Importing people\.csv/);
    assert.equal(once.code, 130, once.screen);
    assert.match(once.screen, /Stopping: waiting for \d chunks? in flight to finish/);
    assert.match(
      once.screen,
      /Resume with: ws import contacts people\.csv --chunk-size 50 --concurrency 2 --resume/,
    );
    assert.ok(cooked(once.stty), `the terminal is left raw:\n${once.stty}`);
    assert.ok(once.cursor, 'the cursor is hidden after ws exited');

    // Twice: the chunks in flight are abandoned, and the summary and the command that
    // resumes still follow, on lines of their own after the terminal's ^C.
    await setFaults(s.sandbox, { latency_ms: 60_000 });
    const twice = await interrupt([...args, '--resume'], /Importing people\.csv/, 2);
    assert.equal(twice.code, 130, twice.screen);
    assert.match(twice.screen, /Abandoning 2 chunks in flight; --resume sends their rows again/);
    assert.match(twice.screen, /! Stopped importing people\.csv into contact in /);
    assert.match(twice.screen, /100 rows in flight abandoned by the second Ctrl-C/);
    assert.match(
      twice.screen,
      /\nResume with: ws import contacts people\.csv --chunk-size 50 --concurrency 2 --resume\n?$/,
    );
    assert.doesNotMatch(twice.screen, /\^C./, 'the ^C line is ended');
    assert.ok(cooked(twice.stty), `the terminal is left raw:\n${twice.stty}`);
    assert.ok(twice.cursor, 'the cursor is hidden after ws exited');
  });

  it('stops a read of stdin from the terminal, which says how to end the input', async () => {
    await setFaults(s.sandbox, { latency_ms: 0 });
    const args = ['api', 'POST', '/v2/prism/{teamId}/contact/query', '--input', '-'];
    const r = await interrupt(args, /Reading stdin from the terminal: end the input with Ctrl-D/);
    assert.equal(r.code, 130, r.screen);
    assert.match(r.screen, /error: Interrupted\./);
    assert.ok(cooked(r.stty), `the terminal is left raw:\n${r.stty}`);

    const term = new Terminal({ columns: 100 }, { ...s.env, NO_COLOR: '1' });
    try {
      await term.start(args);
      await term.waitFor(/Reading stdin from the terminal/);
      await term.keys('-l', '{"query":{"select":["name"],"limit":1}}');
      await term.keys('Enter', 'C-d');
      const end = await term.finished();
      assert.equal(end.code, 0, end.screen);
      assert.match(end.screen, /"name": "Ada Lovelace"/);
    } finally {
      await term.close();
    }
  });

  it('cancels a confirmation prompt: exit 130, nothing deleted, the terminal out of raw mode', async () => {
    await setFaults(s.sandbox, { latency_ms: 0 });
    const id = (
      await runWs(['records', 'list', 'contacts', '--limit', '1', '--fields', 'id'], {
        env: s.env,
      })
    ).stdout.trim();
    const r = await interrupt(['records', 'delete', 'contacts', id], /Delete contact .*\(y\/N\)/s);
    assert.equal(r.code, 130, r.screen);
    assert.match(r.screen, /error: Cancelled\./);
    assert.ok(cooked(r.stty), `the terminal is left raw:\n${r.stty}`);
    const still = await runWs(['records', 'get', 'contacts', id, '--fields', 'id'], { env: s.env });
    assert.equal(still.code, 0);
  });

  it('stops a foreground sandbox: exit 130 after "Sandbox stopped.", no error line', async () => {
    const r = await interrupt(
      ['sandbox', 'start', '--port', '0', '--no-profile'],
      /Press Ctrl-C to stop\./,
    );
    assert.equal(r.code, 130, r.screen);
    assert.match(r.screen, /Sandbox stopped\.$/);
    assert.doesNotMatch(r.screen, /error:/);
    assert.ok(cooked(r.stty), `the terminal is left raw:\n${r.stty}`);
  });
});
