// ws records watch at a real terminal (a tmux pane, ./terminal.ts): one line per change with
// what changed before → after, cut to the terminal's width; Ctrl-C stops it with exit 130
// and the terminal left in its usual mode.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sandboxCall, startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { cooked, noTerminal, Terminal } from './terminal.ts';

let t: TestSandbox;
const terminals: Terminal[] = [];

before(async () => {
  t = await startTestSandbox();
});
after(async () => {
  for (const term of terminals) await term.close();
  await t.stop();
});

const api = (method: string, rest: string, body?: unknown) =>
  sandboxCall(t, method, `/v2/prism/${t.sandbox.teamId}/${rest}`, body);

describe('ws records watch at a terminal', { skip: noTerminal }, () => {
  it('a line per change, before → after, until Ctrl-C (exit 130)', async () => {
    const term = new Terminal(
      { columns: 120 },
      { ...(t.env as Record<string, string>), NO_COLOR: '1' },
    );
    terminals.push(term);
    await term.start(['records', 'watch', 'deals']);
    await term.waitFor(/Watching for changes… Press Ctrl-C to stop\./);
    const id = (await api('POST', 'deal', { default: { name: 'Acme', amount: 100 } })).body.id;
    await api('PATCH', `deal/${id}`, { default: { amount: 250, stage: 'won' } });
    await api('PATCH', `deal/${id}`, { default: { notes: 'x'.repeat(300) } });
    await api('DELETE', `deal/${id}`);
    const screen = await term.waitFor(/deleted +"Acme"/);
    const lines = screen.split('\n');
    const at = (change: string) => lines.find((l) => l.includes(` ${change} `)) ?? '';
    assert.match(
      at('created'),
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d  deal {8}${id}  created   name: Acme · amount: 100$`),
    );
    assert.match(at('updated'), /updated {3}amount: 100 → 250 · stage: — → won$/);
    // A long value is cut to the terminal's width: one line per change.
    const long = lines.find((l) => l.includes('notes: —'))!;
    assert.ok(long.length <= 120 && long.endsWith('…'), long);
    await term.keys('C-c');
    const end = await term.finished();
    assert.equal(end.code, 130, end.screen);
    assert.ok(cooked(end.stty), end.stty);
    assert.match(end.screen, /Stopped: 4 changes shown\./);
    assert.doesNotMatch(end.screen, /error:/);
  });
});
