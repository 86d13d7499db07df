// Tables at a real terminal of 40, 80 and 120 columns: every row stays on one line of the
// screen (cells cut with "…", columns left out with a note), the name (or the event) comes
// first and the id last, whole or left out, headers are words in capitals, and a column
// empty on every row is not shown. The demo workspace is what a new user sees first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { noTerminal, Terminal } from './terminal.ts';

let s: TestSandbox;

const UUID_END = /\s[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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

  it('records list at 80 columns leads with the name; the id is left out, never cut', async () => {
    const r = await shown(80, ['records', 'list', 'contacts', '--limit', '4']);
    assert.equal(r.code, 0, r.lines.join('\n'));
    assert.match(r.lines[0]!, /^NAME +TITLE +EMAIL$/);
    assert.match(r.lines[1]!, /^Ada Lovelace +CEO +ada\.lovelace@northwind\.example$/);
    assert.equal(r.lines.filter((l) => /[0-9a-f]{8}-/.test(l)).length, 0, r.lines.join('\n'));
    assert.match(
      r.lines.slice(5).join(' '),
      /^Left out to fit the terminal's width: id \(--wide shows every column; --fields chooses them\)\. Showing 4 contact records; more exist: use --limit N or --all\.$/,
    );
    // Nothing of the empty STATUS column.
    assert.doesNotMatch(r.lines[0]!, /STATUS/);
  });

  it('records list at 120 columns shows the id whole, last', async () => {
    const r = await shown(120, ['records', 'list', 'contacts', '--limit', '4']);
    assert.equal(r.code, 0, r.lines.join('\n'));
    assert.match(r.lines[0]!, /^NAME +TITLE +EMAIL +ID$/);
    for (const line of r.lines.slice(1, 5)) assert.match(line, UUID_END, r.lines.join('\n'));
    assert.equal(r.lines[5], 'Showing 4 contact records; more exist: use --limit N or --all.');
  });

  it('deals at 80 columns: headers in words (CLOSE DATE), every row on its line', async () => {
    const r = await shown(80, ['records', 'list', 'deals', '--limit', '3']);
    assert.equal(r.code, 0);
    assert.match(r.lines[0]!, /^NAME +STAGE +AMOUNT +CLOSE DATE$/);
    assert.match(r.lines[1]!, /^Northwind Traders: Platform license +lead +95000 +2025-01-25$/);
    assert.ok(r.lines.every((l) => l.length <= 80));
  });

  it('webhooks, deliveries and automations at 80 columns lead with the name or the event', async () => {
    const env = s.env;
    const hook = await runWs(
      ['webhooks', 'create', '--name', 'Deal alerts', '--url', 'http://127.0.0.1:9/hook', '--wait'],
      { env },
    );
    // --wait: the handshake's delivery (refused: nothing listens on port 9) is in the log.
    assert.equal(hook.code, 0, hook.stderr);
    const auto = await runWs(
      [
        'automations',
        'create',
        'deal',
        '--name',
        'Deal won',
        '--on-change',
        'stage:to=won',
        '--webhook',
        'Deal alerts',
      ],
      { env },
    );
    assert.equal(auto.code, 0, auto.stderr);
    const webhooks = await shown(80, ['webhooks', 'list']);
    assert.match(webhooks.lines[0]!, /^NAME +URL +ENABLED +VERIFIED$/);
    assert.match(webhooks.lines[1]!, /^Deal alerts +http:\/\/127\.0\.0\.1:9\/hook +yes +no$/);
    const deliveries = await shown(80, ['deliveries', 'list', '--type', 'all']);
    assert.match(deliveries.lines[0]!, /^EVENT +STATUS +ATTEMPTS +WEBHOOK +CREATED$/);
    assert.match(deliveries.lines[1]!, /^verification +\w+ +\d +Deal alerts +\d{4}-/);
    const automations = await shown(80, ['automations', 'list', 'deal']);
    assert.match(automations.lines[0]!, /^NAME +KIND +ENABLED +WHEN +THEN +UPDATED AT$/);
    assert.match(automations.lines[1]!, /^Deal won +update +yes +change: stage:to=won +webhook/);
    for (const r of [webhooks, deliveries, automations]) {
      assert.ok(
        r.lines.every((l) => l.length <= 80),
        r.lines.join('\n'),
      );
      assert.match(
        r.lines.join(' '),
        /Left out to fit the terminal's width: (delivery_)?id \(--wide/,
      );
    }
    // With --wide the id is there whole (the rows then wrap at 80 columns).
    const wide = await shown(200, ['webhooks', 'list', '--wide']);
    assert.match(wide.lines[1]!, UUID_END);
  });

  it('at 40 columns the names still show', async () => {
    for (const [args, first] of [
      [['records', 'list', 'deals', '--limit', '3'], /^Northwind Traders: Platform license$/],
      [['records', 'list', 'contacts', '--limit', '3'], /^Ada Lovelace {2}/],
      [['webhooks', 'list'], /^Deal alerts {2}/],
      [['automations', 'list', 'deal'], /^Deal won {2}/],
      [['deliveries', 'list', '--type', 'all'], /^verification {2}/],
    ] as const) {
      const r = await shown(40, [...args]);
      assert.equal(r.code, 0, r.lines.join('\n'));
      assert.match(r.lines[1]!, first, r.lines.join('\n'));
      assert.ok(
        r.lines.every((l) => l.length <= 40),
        r.lines.join('\n'),
      );
    }
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
