// Tables fitted to the terminal's width: the widest columns shrink first, cells are cut
// with "…", columns that cannot fit are left out from the right (and stderr says which),
// no row is ever wider than the terminal; and the display width of the text they measure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Column } from '../../src/output/format.ts';
import { renderObject, renderRows } from '../../src/output/render.ts';
import { drawTable } from '../../src/output/table.ts';
import { cutToWidth, displayWidth, fitLine, fitWidths, oneLine } from '../../src/output/width.ts';
import { testIO } from '../helpers/io.ts';

const ID = '7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a';

interface Contact {
  id: string;
  name: string;
  title: string;
  email: string;
  status: string | null;
}

const contacts: Contact[] = [
  {
    id: ID,
    name: 'Ada Lovelace',
    title: 'CEO',
    email: 'ada.lovelace@northwind.example',
    status: null,
  },
  {
    id: ID.replace('7d', '8e'),
    name: 'Dmitri Kowalski',
    title: 'Head of Operations',
    email: 'dmitri.kowalski@cedarstone.example',
    status: null,
  },
];
const contactColumns: Column<Contact>[] = [
  { key: 'id' },
  { key: 'name' },
  { key: 'title' },
  { key: 'email' },
  { key: 'status' },
];

function widest(text: string): number {
  return Math.max(...text.trimEnd().split('\n').map(displayWidth));
}

describe('display width', () => {
  it('counts wide characters as two columns and combining marks as none', () => {
    assert.equal(displayWidth('abc'), 3);
    assert.equal(displayWidth('日本語'), 6);
    assert.equal(displayWidth('e\u0301te\u0301'), 3);
    assert.equal(displayWidth('ok 👍'), 5);
    assert.equal(displayWidth('Zoë'), 3);
  });

  it('cuts text to a width with an ellipsis, never splitting a wide character', () => {
    assert.equal(cutToWidth('Ada Lovelace', 12), 'Ada Lovelace');
    assert.equal(cutToWidth('Ada Lovelace', 8), 'Ada Lov…');
    assert.equal(cutToWidth('日本語のテキスト', 6), '日本…');
    assert.equal(displayWidth(cutToWidth('日本語のテキスト', 6)), 5);
    assert.equal(cutToWidth('abc', 0), '');
  });

  it('puts a cell on one line and shows control characters instead of sending them', () => {
    assert.equal(oneLine('line one\nline two\r\n\tend'), 'line one line two end');
    assert.equal(oneLine('a\u001b[31mred'), 'a\ufffd[31mred');
    assert.equal(oneLine('plain'), 'plain');
  });
});

describe('fitting columns to a width', () => {
  it('keeps natural widths when they fit, or when there is no terminal', () => {
    assert.deepEqual(fitWidths([10, 5, 5], [8, 5, 5], 24), [10, 5, 5]);
    assert.deepEqual(fitWidths([10, 50, 5], [8, 8, 5], undefined), [10, 50, 5]);
  });

  it('shrinks the widest column first, then the widest ones together', () => {
    // 36 + 15 + 19 + 34 + 3 gaps of 2 = 110 columns; 80 leaves 38 for the last three.
    assert.deepEqual(fitWidths([36, 15, 19, 34], [36, 8, 8, 8], 80), [36, 13, 13, 12]);
    // Only the widest needs to give way.
    assert.deepEqual(fitWidths([10, 10, 40], [10, 8, 8], 60), [10, 10, 36]);
  });

  it('never cuts a column narrower than its least width: it leaves out columns from the right', () => {
    assert.deepEqual(fitWidths([36, 15, 19, 34], [36, 8, 8, 8], 60), [36, 10, 10, null]);
    assert.deepEqual(fitWidths([36, 15, 19, 34], [36, 8, 8, 8], 40), [36, null, null, null]);
  });

  it('cuts the first column only when it alone is wider than the terminal', () => {
    assert.deepEqual(fitWidths([36, 15], [36, 8], 30), [30, null]);
  });

  it('draws rows no wider than the width, cutting cells with "…"', () => {
    const t = drawTable(
      [
        { header: 'ID', align: 'left', cells: ['a', 'b'] },
        { header: 'NAME', align: 'left', cells: ['Northwind Traders: Platform license', 'x'] },
        { header: 'AMOUNT', align: 'right', cells: ['95000', '1'] },
      ],
      2,
      24,
      (s) => s,
    );
    assert.equal(
      t.text,
      ['ID  NAME          AMOUNT', 'a   Northwind T…   95000', 'b   x                  1', ''].join(
        '\n',
      ),
    );
    assert.deepEqual(t.dropped, []);
  });
});

describe('tables on a terminal', () => {
  it('fit 80 columns: no row is wider, and the widest cells are cut', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' }, columns: 80 });
    await renderRows(t.io, contacts, contactColumns.slice(0, 4), { format: 'table' });
    const out = t.stdout();
    assert.ok(widest(out) <= 80, out);
    assert.equal(out.trimEnd().split('\n').length, 3);
    assert.match(out, /^ID {36}NAME {11}TITLE {10}EMAIL\n/);
    assert.match(out, /Dmitri Kowal… +Head of Oper… +dmitri\.kowa…\n$/);
    assert.equal(t.stderr(), '');
  });

  it('at 120 columns show every cell whole', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' }, columns: 120 });
    await renderRows(t.io, contacts, contactColumns, { format: 'table' });
    assert.match(t.stdout(), /dmitri\.kowalski@cedarstone\.example\n$/);
    assert.doesNotMatch(t.stdout(), /…/);
  });

  it('leave out the columns that cannot fit, say which once, and keep --fields columns even when empty', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' }, columns: 60 });
    const opts = { format: 'table' as const, fields: ['id', 'name', 'title', 'email', 'status'] };
    await renderRows(t.io, contacts, contactColumns, opts);
    await renderRows(t.io, contacts, contactColumns, opts);
    assert.ok(widest(t.stdout()) <= 60, t.stdout());
    assert.match(t.stdout(), /^ID +NAME +TITLE\n/);
    assert.equal(
      t.stderr(),
      // Broken between words at the width of stderr's terminal.
      "Left out to fit the terminal's width: email, status (--wide\nshows every column; --fields chooses them).\n",
    );
  });

  it('are not fitted when stdout is no terminal (--format table into a pipe)', async () => {
    const t = testIO({ tty: false, env: { NO_COLOR: '1' }, columns: null });
    await renderRows(t.io, contacts, contactColumns, { format: 'table' });
    assert.match(t.stdout(), /dmitri\.kowalski@cedarstone\.example\n$/);
  });

  it('leave out a column empty on every row, unless --fields names it', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' } });
    await renderRows(t.io, contacts, contactColumns, { format: 'table' });
    assert.match(t.stdout(), /^ID +NAME +TITLE +EMAIL\n/);
    const named = testIO({ tty: true, env: { NO_COLOR: '1' } });
    await renderRows(named.io, contacts, contactColumns, {
      format: 'table',
      fields: ['id', 'status'],
    });
    assert.match(named.stdout(), /^ID {36}STATUS\n/);
  });

  it('head every column with its words in capitals', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' } });
    const cols: Column<{ close_date: string; n: number }>[] = [
      { key: 'close_date' },
      { key: 'n', header: 'rate_limit' },
    ];
    await renderRows(t.io, [{ close_date: '2026-03-31', n: 1 }], cols, { format: 'table' });
    assert.equal(t.stdout(), 'CLOSE DATE  RATE LIMIT\n2026-03-31           1\n');
  });

  it('keep a row on one line when a value holds line breaks', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' } });
    await renderRows(
      t.io,
      [{ id: 'r1', notes: 'line one\nline two' }],
      [{ key: 'id' }, { key: 'notes' }],
      {
        format: 'table',
      },
    );
    assert.equal(t.stdout(), 'ID  NOTES\nr1  line one line two\n');
  });
});

describe('one object', () => {
  const obj = { profile: 'main', base_url: 'http://x', team_id: ID, note: '' };
  const cols: Column<typeof obj>[] = [
    { key: 'profile' },
    { key: 'base_url' },
    { key: 'team_id' },
    { key: 'note' },
  ];

  it('piped, prints key<TAB>value lines, every field even when empty', async () => {
    const t = testIO();
    await renderObject(t.io, obj, cols, { format: 'tsv' });
    assert.equal(t.stdout(), `profile\tmain\nbase_url\thttp://x\nteam_id\t${ID}\nnote\t\n`);
  });

  it('prints one field alone as its value, and as a row when asked to', async () => {
    const one = testIO();
    await renderObject(one.io, obj, cols, { format: 'tsv', fields: ['team_id'] });
    assert.equal(one.stdout(), `${ID}\n`);
    const row = testIO();
    await renderObject(row.io, obj, cols, { format: 'tsv', row: true });
    assert.equal(row.stdout(), `main\thttp://x\t${ID}\t\n`);
  });

  it('on a terminal leaves out empty values unless --fields names them, and indents a value of several lines', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' } });
    await renderObject(t.io, { ...obj, note: 'one\ntwo' }, cols, { format: 'table' });
    await renderObject(t.io, obj, cols, { format: 'table', fields: ['profile', 'note'] });
    assert.equal(
      t.stdout(),
      `profile   main\nbase_url  http://x\nteam_id   ${ID}\nnote      one\n          two\n` +
        'profile  main\nnote\n',
    );
  });
});

describe('ids in tables', () => {
  const withId: Column<Contact>[] = [{ key: 'id', id: true }, ...contactColumns.slice(1)];

  it('come after the columns people read, whole where they fit', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' }, columns: 120 });
    await renderRows(t.io, contacts, withId, { format: 'table' });
    assert.match(t.stdout(), /^NAME +TITLE +EMAIL +ID\n/);
    assert.match(t.stdout(), new RegExp(`Ada Lovelace .* ${ID}\\n`));
    assert.equal(t.stderr(), '');
  });

  it('are left out, never cut, before another column is cut for them', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' }, columns: 80 });
    await renderRows(t.io, contacts, withId, { format: 'table' });
    assert.match(t.stdout(), /^NAME +TITLE +EMAIL\n/);
    assert.match(t.stdout(), /dmitri\.kowalski@cedarstone\.example\n$/);
    assert.doesNotMatch(t.stdout(), /…/);
    assert.match(t.stderr(), /^Left out to fit the terminal's width: id \(--wide/);
  });

  it('keep their place with --fields, and every format keeps the order and the whole id', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' }, columns: 50 });
    await renderRows(t.io, contacts, withId, { format: 'table', fields: ['id', 'name'] });
    assert.match(t.stdout(), new RegExp(`^ID +NAME\\n${ID}  Ada Lovelace\\n.*  Dmitri Kowa…\\n$`));
    for (const format of ['tsv', 'csv'] as const) {
      const p = testIO({ columns: null });
      await renderRows(p.io, contacts, withId, { format });
      assert.ok(
        p
          .stdout()
          .split(/\r?\n/)
          [format === 'csv' ? 1 : 0]!.startsWith(`${ID}${format === 'csv' ? ',' : '\t'}`),
      );
    }
  });

  it('--wide draws every column whole, even wider than the terminal', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' }, columns: 40 });
    t.io.wide = true;
    await renderRows(t.io, contacts, withId, { format: 'table' });
    assert.match(
      t.stdout(),
      new RegExp(
        `^NAME +TITLE +EMAIL +ID\\nAda Lovelace +CEO +ada\\.lovelace@northwind\\.example +${ID}\\n`,
      ),
    );
    assert.equal(t.stderr(), '');
  });
});

describe('a line of a stream of rows', () => {
  it('is fitted as a table is: the widest cell cut, an id whole or left out', () => {
    const cells = [
      { text: '12:00:00', width: 8 },
      { text: 'record.updated', width: 16 },
      { text: 'Order notifications', width: 19 },
      { text: ID, width: 36, whole: true },
    ];
    assert.equal(fitLine(cells, 120), `12:00:00  record.updated    Order notifications  ${ID}`);
    assert.equal(fitLine(cells, 60), '12:00:00  record.updated    Order notifications');
    assert.equal(fitLine(cells, 40), '12:00:00  record.updated  Order notific…');
    assert.equal(
      fitLine(cells, undefined),
      `12:00:00  record.updated    Order notifications  ${ID}`,
    );
    assert.deepEqual(fitWidths([10, 20, 36], [8, 8, 36], 80, [false, false, true]), [10, 20, 36]);
    assert.deepEqual(fitWidths([10, 20, 36], [8, 8, 36], 60, [false, false, true]), [10, 20, null]);
  });
});
