// Tables at a real terminal of 80 and 120 columns: every row stays on one line of the
// screen (cells cut with "…", columns left out with a note), headers are words in
// capitals, and a column empty on every row is not shown. The demo workspace is what a
// new user sees first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { noTerminal, Terminal } from './terminal.ts';

let s: TestSandbox;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s/;

/** What `ws ARGS…` shows at a terminal `columns` wide, and its exit code. */
async function shown(columns: number, args: string[]) {
  const term = new Terminal({ columns }, { ...s.env, NO_COLOR: '1' });
  try {
    await term.start(args);
    const end = await term.finished();
    return { code: end.code, lines: end.screen.split('\n') };
  } finally {
    await term.close();
  }
}

describe('tables at a terminal', { skip: noTerminal }, () => {
  before(async () => {
    s = await startTestSandbox({ seed: 'demo' });
  });
  after(async () => {
    await s?.stop();
  });

  for (const columns of [80, 120]) {
    it(`records list at ${columns} columns: one screen line per row, cut with "…" where needed`, async () => {
      const r = await shown(columns, ['records', 'list', 'contacts', '--limit', '4']);
      assert.equal(r.code, 0, r.lines.join('\n'));
      assert.match(r.lines[0]!, /^ID {36}NAME +TITLE +EMAIL$/);
      for (const line of r.lines.slice(1, 5)) assert.match(line, UUID, r.lines.join('\n'));
      assert.equal(
        r.lines[5],
        'Showing 4 contact records; more exist: use --limit N or --all.',
        r.lines.join('\n'),
      );
      assert.equal(r.lines.length, 6, r.lines.join('\n'));
      // Nothing of the empty STATUS column; at 80 the e-mail addresses are cut.
      assert.doesNotMatch(r.lines[0]!, /STATUS/);
      if (columns === 80) assert.match(r.lines[1]!, /…$/);
      else assert.match(r.lines[1]!, /ada\.lovelace@northwind\.example$/);
    });
  }

  it('deals at 80 columns: headers in words (CLOSE DATE), every row on its line', async () => {
    const r = await shown(80, ['records', 'list', 'deals', '--limit', '3']);
    assert.equal(r.code, 0);
    assert.match(r.lines[0]!, /^ID +NAME +STAGE +AMOUNT +CLOSE DATE$/);
    for (const line of r.lines.slice(1, 4)) assert.match(line, UUID, r.lines.join('\n'));
    assert.match(r.lines[4]!, /^Showing 3 deal records; more exist/);
  });

  it('props list --options at 120 and 80 columns: one line per property', async () => {
    for (const columns of [120, 80]) {
      const r = await shown(columns, ['props', 'list', 'deals', '--options']);
      assert.equal(r.code, 0);
      assert.match(r.lines[0]!, /^SLUG +NAME +TYPE +SCOPE +OPTIONS$/);
      const slugs = r.lines.slice(1).map((l) => l.split(' ')[0]);
      assert.deepEqual(
        slugs,
        [
          'amount',
          'close_date',
          'contact',
          'name',
          'notes',
          'organization',
          'probability',
          'stage',
        ],
        r.lines.join('\n'),
      );
      assert.match(r.lines.find((l) => l.startsWith('stage'))!, /Lead \(lead\), .*…$/);
    }
  });

  it('a terminal too narrow for every column leaves some out and says which', async () => {
    const r = await shown(50, ['profile', 'list']);
    assert.equal(r.code, 0);
    const [header, row, ...note] = r.lines;
    assert.match(header!, /^NAME +DEFAULT +BASE URL +TEAM ID +API KEY$/);
    assert.match(row!, /^sandbox +yes +http:\S+… +[0-9a-f-]+… +…\w{4}$/);
    assert.match(note.join(' '), /Left out to fit the terminal's width: rate_limit/);
  });
});
