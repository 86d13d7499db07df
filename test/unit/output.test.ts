import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../../src/errors.ts';
import {
  type Column,
  chooseColumns,
  csvEscape,
  resolveFormat,
  tsvEscape,
} from '../../src/output/format.ts';
import { createRowWriter, renderObject, renderRows } from '../../src/output/render.ts';
import { testIO } from '../helpers/io.ts';

interface Row {
  id: string;
  name: string | null;
  tags: string[];
  amount: number;
  nested: { a: number };
}

const rows: Row[] = [
  { id: 'r1', name: 'Ada, "the first"', tags: ['a', 'b'], amount: 10, nested: { a: 1 } },
  { id: 'r2', name: null, tags: [], amount: 2.5, nested: { a: 2 } },
];
const columns: Column<Row>[] = [
  { key: 'id' },
  { key: 'name' },
  { key: 'tags' },
  { key: 'amount', align: 'right' },
  { key: 'nested.a', default: false },
];

describe('output formats', () => {
  it('defaults to table on a terminal and tsv when piped; --json wins over --format', () => {
    assert.equal(resolveFormat({}, testIO({ tty: true }).io), 'table');
    assert.equal(resolveFormat({}, testIO({ tty: false }).io), 'tsv');
    assert.equal(resolveFormat({ json: true, format: 'csv' }, testIO().io), 'json');
    assert.equal(resolveFormat({ format: 'ndjson' }, testIO().io), 'ndjson');
    assert.throws(() => resolveFormat({ format: 'xml' }, testIO().io), UsageError);
  });

  it('tsv has no header, escapes tabs and newlines, joins arrays with ;', async () => {
    const t = testIO();
    await renderRows(t.io, [{ ...rows[0]!, name: 'a\tb\nc' }, rows[1]!], columns, {
      format: 'tsv',
    });
    assert.equal(t.stdout(), 'r1\ta\\tb\\nc\ta;b\t10\nr2\t\t\t2.5\n');
  });

  it('csv has a header, quotes what needs quoting, and neutralises formulas on request', async () => {
    const t = testIO();
    await renderRows(t.io, rows, columns, { format: 'csv' });
    assert.equal(
      t.stdout(),
      'id,name,tags,amount\r\nr1,"Ada, ""the first""",a;b,10\r\nr2,,,2.5\r\n',
    );
    assert.equal(csvEscape('=SUM(A1)', true), "'=SUM(A1)");
    assert.equal(csvEscape('-12.5', true), '-12.5');
    assert.equal(csvEscape('=SUM(A1)'), '=SUM(A1)');
    assert.equal(tsvEscape('a\\b'), 'a\\\\b');
    assert.equal(tsvEscape('plain text é'), 'plain text é');
    assert.equal(tsvEscape('a\tb\nc\rd'), 'a\\tb\\nc\\rd');
  });

  it('json prints one array document; ndjson one object per line', async () => {
    const j = testIO();
    await renderRows(j.io, rows, columns, { format: 'json' });
    assert.deepEqual(JSON.parse(j.stdout()), rows);
    const n = testIO();
    await renderRows(n.io, rows, columns, { format: 'ndjson' });
    const lines = n.stdout().trimEnd().split('\n');
    assert.equal(lines.length, 2);
    assert.deepEqual(
      lines.map((l) => JSON.parse(l)),
      rows,
    );
  });

  it('json streams page by page into one valid array, and an empty list is []', async () => {
    const t = testIO();
    const w = createRowWriter(t.io, columns, { format: 'json' });
    await w.write([rows[0]!]);
    await w.write([]);
    await w.write([rows[1]!]);
    await w.end();
    assert.deepEqual(JSON.parse(t.stdout()), rows);
    const e = testIO();
    const w2 = createRowWriter(e.io, columns, { format: 'json' });
    await w2.end();
    assert.equal(e.stdout(), '[]\n');
  });

  it('--fields picks and orders columns, dot paths included, in every format', async () => {
    const t = testIO();
    await renderRows(t.io, rows, columns, { format: 'json', fields: ['nested.a', 'id'] });
    assert.deepEqual(JSON.parse(t.stdout()), [
      { 'nested.a': 1, id: 'r1' },
      { 'nested.a': 2, id: 'r2' },
    ]);
    const c = testIO();
    await renderRows(c.io, rows, columns, { format: 'csv', fields: ['amount'] });
    assert.equal(c.stdout(), 'amount\r\n10\r\n2.5\r\n');
  });

  it('an unknown field is a usage error that lists the available ones', () => {
    assert.throws(
      () => chooseColumns(columns, ['id', 'nope']),
      (e: unknown) =>
        e instanceof UsageError &&
        e.exitCode === 2 &&
        /"nope"/.test(e.message) &&
        e.hint === 'Available fields: id, name, tags, amount, nested.a.',
    );
  });

  it('a table aligns columns with bold headers only when colour is on', async () => {
    const t = testIO({ tty: true, env: { FORCE_COLOR: '0' } });
    await renderRows(t.io, rows, columns, { format: 'table' });
    assert.equal(
      t.stdout(),
      [
        'ID  NAME              TAGS  AMOUNT',
        'r1  Ada, "the first"  a, b      10',
        'r2                             2.5',
        '',
      ].join('\n'),
    );
    const c = testIO({ tty: true, env: { FORCE_COLOR: '1' } });
    await renderRows(c.io, rows, columns, { format: 'table' });
    assert.match(c.stdout(), /\u001b\[1mID/);
  });

  it('a table right-aligns a column whose values are all numbers, unless told otherwise', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' } });
    const cols: Column<{ n: number | null; s: string }>[] = [{ key: 'n' }, { key: 's' }];
    await renderRows(
      t.io,
      [
        { n: 5, s: 'a' },
        { n: 1500, s: 'bb' },
        { n: null, s: 'c' },
      ],
      cols,
      { format: 'table' },
    );
    assert.equal(t.stdout(), '   N  S\n   5  a\n1500  bb\n      c\n');
  });

  it('an empty table prints nothing on stdout and the empty message on stderr', async () => {
    const t = testIO({ tty: true });
    await renderRows(t.io, [], columns, { format: 'table', emptyMessage: 'No rows.' });
    assert.equal(t.stdout(), '');
    assert.equal(t.stderr(), 'No rows.\n');
  });

  it('one object renders as key/value lines on a terminal and as one document in json', async () => {
    const t = testIO({ tty: true, env: { NO_COLOR: '1' } });
    await renderObject(t.io, rows[0]!, columns, { format: 'table' });
    assert.equal(t.stdout(), 'id      r1\nname    Ada, "the first"\ntags    a, b\namount  10\n');
    const j = testIO();
    await renderObject(j.io, rows[0]!, columns, { format: 'json', fields: ['id'] });
    assert.equal(j.stdout(), '{\n  "id": "r1"\n}\n');
  });
});
