// `ws import` stores each value as the file means it, or fails its row saying why: numbers
// and dates in the file's locale (given, or shown by its own cells), percents and Excel
// dates only when told what they mean, text trimmed, preamble and footer lines skipped,
// files in the encodings spreadsheets write, dedupe keys checked in the file, every
// problem of a row reported, and references found by name (--lookup).
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recordsOf } from '../../src/sandbox/index.ts';
import { type RecordsSandbox, useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();

function write(name: string, text: string | Buffer): string {
  const to = join(ctx.dir, name);
  writeFileSync(to, text);
  rmSync(to.replace(/\.(csv|tsv|txt)$/, '.failed.$1'), { force: true });
  return to;
}

/** The records of a type that are not deleted: id and values. */
const records = (type: 'contact' | 'deal' | 'organization') =>
  [...recordsOf(ctx.s.t.sandbox.store).records(type)]
    .filter((r) => !r.deleted_at)
    .map((r): Record<string, unknown> => ({ id: r.id, ...r.default }));

/** The contacts by name: the values stored. */
const byName = () =>
  new Map(records('contact').map((c) => [c['name'] as string, c as Record<string, unknown>]));

const ws = (argv: string[], opts: Parameters<RecordsSandbox['ws']>[1] = {}) =>
  ctx.s.ws(argv, { ...opts, env: { WS_NO_CACHE: '1', ...opts.env } });

async function importJson(argv: string[]) {
  const r = await ws([...argv, '--json']);
  return { ...r, summary: r.stdout ? JSON.parse(r.stdout) : undefined };
}

/** The --results lines of a run, by line number. */
function results(
  path: string,
): Map<number, { status: string; errors: { code: string; message: string }[] }> {
  return new Map(
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .map((r) => [r.line, r]),
  );
}

describe('ws import: numbers as spreadsheets write them', () => {
  it('a German Excel file: 1,234 and 12,5 read with a decimal comma, 1.234 as a thousand (the issue repro)', async () => {
    const path = write(
      'n.csv',
      'name;email;score\nB;b1@x.io;1,234\nC;c1@x.io;1.234\nD;d1@x.io;12,5\n',
    );
    const out = join(ctx.dir, 'r.ndjson');
    const dry = await ws(['import', 'contacts', path, '--dry-run', '--results', out]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stderr,
      /Reading .*n\.csv: ";"-separated; numbers with a decimal comma, as "12,5" on line 4 shows \(--locale to choose\)\./,
    );
    const r = await ws(['import', 'contacts', path]);
    assert.equal(r.code, 0, r.stderr);
    const c = byName();
    assert.deepEqual(
      ['B', 'C', 'D'].map((n) => c.get(n)!['score']),
      [1.234, 1234, 12.5],
    );
  });

  it('German whole numbers with a grouping dot, and a decimal comma with three decimals, in a file whose other cells show it is German', async () => {
    const path = write(
      'de.csv',
      'Name;Score\nA;1.000\nB;75.500\nC;12,375\nD;1.234.567,89\nE;-3,5\nF;0,125\n',
    );
    const r = await importJson(['import', 'contacts', path]);
    assert.equal(r.code, 0, r.stderr);
    const c = byName();
    assert.deepEqual(
      ['A', 'B', 'C', 'D', 'E', 'F'].map((n) => c.get(n)!['score']),
      [1000, 75500, 12.375, 1234567.89, -3.5, 0.125],
    );
    assert.equal(r.summary.reading.decimal_mark, ',');
    // 1.000, 75.500 and 12,375 read two ways; 1.234.567,89 only with a decimal comma.
    assert.match(
      r.summary.reading.detected.join('\n'),
      /decimal comma, as "1\.234\.567,89" on line 5/,
    );
  });

  it('--locale sets the decimal mark: de-DE, fr-FR (narrow no-break spaces), de-CH (apostrophes), en-US', async () => {
    const cases: [string, string[], number[]][] = [
      ['de-DE', ['1.234', '1,234', '75.500', '1.234,56 €'], [1234, 1.234, 75500, 1234.56]],
      [
        'fr-FR',
        ['1\u202f234,5', '1\u00a0234', '1 234,56 €', '12,5'],
        [1234.5, 1234, 1234.56, 12.5],
      ],
      ['de-CH', ["1'234.50", '1’234', 'CHF 1’234.50', '0.5'], [1234.5, 1234, 1234.5, 0.5]],
      ['en-US', ['1,234', '1.234', '$1,234.50', 'USD 12,345.00'], [1234, 1.234, 1234.5, 12345]],
    ];
    for (const [locale, cells, want] of cases) {
      ctx.s.reset();
      const path = write(
        `${locale}.csv`,
        `Name,Score\n${cells.map((v, i) => `N${i},"${v}"`).join('\n')}\n`,
      );
      const r = await ws(['import', 'contacts', path, '--locale', locale]);
      assert.equal(r.code, 0, `${locale}: ${r.stderr}`);
      const c = byName();
      assert.deepEqual(
        cells.map((_, i) => c.get(`N${i}`)!['score']),
        want,
        locale,
      );
    }
  });

  it('formatted numbers import when their reading is certain: currencies, groups, accounting negatives', async () => {
    const cells = [
      '"1,234.50"',
      '$1,234.50',
      'USD 12,345.00',
      '($1,234.50)',
      '-$5.00',
      '1.5E+03',
      '12.50',
    ];
    const path = write(
      'fmt.csv',
      `Name,Score\n${cells.map((v, i) => `N${i},${v.startsWith('"') ? v : `"${v}"`}`).join('\n')}\n`,
    );
    const r = await ws(['import', 'contacts', path]);
    assert.equal(r.code, 0, r.stderr);
    const c = byName();
    assert.deepEqual(
      cells.map((_, i) => c.get(`N${i}`)!['score']),
      [1234.5, 1234.5, 12345, -1234.5, -5, 1500, 12.5],
    );
  });

  it('a value that reads as two numbers is never guessed: the row fails naming both readings and the flag', async () => {
    const path = write('amb.csv', 'Name,Score\nA,1.234\nB,75.500\nC,42\n');
    const out = join(ctx.dir, 'amb.ndjson');
    const r = await ws(['import', 'contacts', path, '--results', out]);
    assert.equal(r.code, 5, r.stderr);
    const lines = results(out);
    assert.deepEqual(lines.get(2)!.errors, [
      {
        column: 'Score',
        code: 'ambiguous_number',
        message:
          '"1.234" reads as 1.234 (decimal point, as en-US writes it) or 1234 (decimal comma, as de-DE writes it): pass --locale (e.g. --locale en-US or --locale de-DE) to say which',
      },
    ]);
    assert.equal(lines.get(3)!.errors[0]!.code, 'ambiguous_number');
    assert.equal(lines.get(4)!.status, 'created');
    assert.deepEqual([...byName().keys()], ['C']);
  });

  it('a number the locale rules out fails, saying what it would be with the other mark', async () => {
    const path = write('x.csv', 'Name,Score\nA,12.5\n');
    const r = await ws(['import', 'contacts', path, '--locale', 'de-DE']);
    assert.equal(r.code, 5);
    assert.match(
      r.stderr,
      /"12\.5" is not a number written with a decimal comma \(--locale de-DE\); with the other mark it would be 12\.5: pass --locale en-US if that is meant \(invalid_number\)/,
    );
  });

  it('numbers written both ways decide nothing: each reading that is certain goes in, the others fail', async () => {
    const path = write('both.csv', 'Name,Score\nA,12.5\nB,"12,5"\nC,"1,234"\n');
    const r = await importJson(['import', 'contacts', path]);
    assert.equal(r.code, 5);
    const c = byName();
    assert.equal(c.get('A')!['score'], 12.5);
    assert.equal(c.get('B')!['score'], 12.5);
    assert.equal(c.has('C'), false);
    assert.equal(r.summary.reading.decimal_mark, null);
    assert.match(
      r.stderr,
      /numbers are written both ways: with a decimal point \("12\.5" on line 2\), with a decimal comma \("12,5" on line 3\): a number that reads two ways fails its row/,
    );
  });

  it('a percent is refused unless --percent says what it means', async () => {
    const path = write('pct.csv', 'Name,Score\nA,12%\nB,7.5 %\n');
    const refused = await ws(['import', 'contacts', path]);
    assert.equal(refused.code, 5);
    assert.match(
      refused.stderr,
      /"12%" is a percent: pass --percent points to store 12 or --percent fraction to store 0\.12 \(ambiguous_percent\)/,
    );
    assert.equal(byName().size, 0);
    await ws(['import', 'contacts', path, '--percent', 'points']);
    assert.deepEqual(
      ['A', 'B'].map((n) => byName().get(n)!['score']),
      [12, 7.5],
    );
    ctx.s.reset();
    await ws(['import', 'contacts', path, '--percent', 'fraction']);
    assert.deepEqual(
      ['A', 'B'].map((n) => byName().get(n)!['score']),
      [0.12, 0.075],
    );
  });

  it('a column of amounts in one currency: a second currency fails its row', async () => {
    const path = write('cur.csv', 'Name,Score\nA,$10.00\nB,€12.00\nC,$3.50\n');
    const r = await ws(['import', 'contacts', path]);
    assert.equal(r.code, 5);
    assert.match(r.stderr, /"€12\.00" is in EUR while the column's amounts are in USD/);
    assert.deepEqual(
      ['A', 'C'].map((n) => byName().get(n)!['score']),
      [10, 3.5],
    );
  });
});

describe("ws import: dates and booleans in the file's locale", () => {
  it("--locale gives the order of day and month; the file's own dates decide when it is absent", async () => {
    const path = write('d.csv', 'Name,Birthday\nA,03/04/2024\nB,12/01/2024\n');
    const refused = await ws(['import', 'contacts', path]);
    assert.equal(refused.code, 5);
    assert.match(
      refused.stderr,
      /"03\/04\/2024" reads as 2024-04-03 \(day first\) or 2024-03-04 \(month first\): pass --date-format dmy or --date-format mdy \(or --locale\) to say which \(ambiguous_date\)/,
    );
    for (const [locale, a, b] of [
      ['en-GB', '2024-04-03', '2024-01-12'],
      ['en-US', '2024-03-04', '2024-12-01'],
    ]) {
      ctx.s.reset();
      const r = await ws(['import', 'contacts', path, '--locale', locale!]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        ['A', 'B'].map((n) => byName().get(n)!['birthday']),
        [a, b],
      );
    }
    ctx.s.reset();
    const shown = write('d2.csv', 'Name,Birthday\nA,03/04/2024\nB,25/12/2024\n');
    const r = await ws(['import', 'contacts', shown]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /dates day first, as "25\/12\/2024" on line 3 shows/);
    assert.equal(byName().get('A')!['birthday'], '2024-04-03');
  });

  it('month names, AM/PM times, and Excel serial dates only with --excel-dates', async () => {
    const path = write(
      'm.csv',
      'Name,Birthday\nA,31 Mar 2024\nB,"Mar 31, 2024"\nC,31. März 2024\nD,3/31/2024 2:22 PM\nE,45382\n',
    );
    const r = await ws(['import', 'contacts', path]);
    assert.equal(r.code, 5);
    assert.match(
      r.stderr,
      /"45382" is a number; as an Excel serial date it is 2024-03-31: pass --excel-dates/,
    );
    const c = byName();
    assert.deepEqual(
      ['A', 'B', 'C', 'D'].map((n) => c.get(n)!['birthday']),
      ['2024-03-31', '2024-03-31', '2024-03-31', '2024-03-31T14:22:00.000Z'],
    );
    ctx.s.reset();
    const excel = await ws(['import', 'contacts', path, '--excel-dates']);
    assert.equal(excel.code, 0, excel.stderr);
    assert.equal(byName().get('E')!['birthday'], '2024-03-31');
  });

  it('booleans in the words Excel writes in German and French', async () => {
    const path = write('b.csv', 'Name;Subscribed\nA;WAHR\nB;FALSCH\nC;VRAI\nD;FAUX\n');
    const r = await ws(['import', 'contacts', path]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      ['A', 'B', 'C', 'D'].map((n) => byName().get(n)!['subscribed']),
      [true, false, true, false],
    );
  });
});

describe('ws import: text', () => {
  it('is trimmed of leading and trailing spaces (no-break too), counted; inner newlines and quotes survive', async () => {
    const path = write(
      't.csv',
      'Name,City,Notes\n"  Padded Name  ",\u00a0Paris\u00a0,"line one\nsaid ""hi""  "\n',
    );
    const r = await importJson(['import', 'contacts', path]);
    assert.equal(r.code, 0, r.stderr);
    const c = byName().get('Padded Name')!;
    assert.equal(c['city'], 'Paris');
    assert.equal(c['notes'], 'line one\nsaid "hi"');
    assert.equal(r.summary.trimmed, 3);
    const human = await ws(['import', 'contacts', path, '--dry-run']);
    assert.match(
      human.stderr,
      /3 text cells trimmed of leading or trailing spaces \(--keep-whitespace keeps them\)/,
    );
  });

  it('--keep-whitespace keeps them', async () => {
    const path = write('t.csv', 'Name,City\n"  Padded  ", Paris\n');
    const r = await importJson(['import', 'contacts', path, '--keep-whitespace']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      records('contact').map((c) => [c['name'], c['city']]),
      [['  Padded  ', ' Paris']],
    );
    assert.equal(r.summary.trimmed, 0);
  });
});

describe('ws import: every problem of a row', () => {
  it('is in the failed-rows file and in --results, not only the first', async () => {
    const path = write(
      'p.csv',
      'Name,Score,Subscribed,Birthday\nA,two,maybe,2024-02-30\nB,1,yes,2024-01-01\n',
    );
    const out = join(ctx.dir, 'p.ndjson');
    const r = await ws(['import', 'contacts', path, '--results', out]);
    assert.equal(r.code, 5);
    const failed = readFileSync(join(ctx.dir, 'p.failed.csv'), 'utf8').split('\r\n')[1]!;
    assert.equal(
      failed,
      '2,invalid_number;invalid_boolean;invalid_date,"Score: score takes a number, not ""two""; Subscribed: subscribed takes true or false, not ""maybe""; Birthday: ""2024-02-30"" is not a real date",A,two,maybe,2024-02-30',
    );
    const line = results(out).get(2)!;
    assert.deepEqual(
      line.errors.map((e) => e.code),
      ['invalid_number', 'invalid_boolean', 'invalid_date'],
    );
    assert.deepEqual([...byName().keys()], ['B']);
  });
});

describe('ws import: files as programs write them', () => {
  it('a LinkedIn export: the notes before the header are skipped and said, never a contact', async () => {
    const path = write(
      'Connections.csv',
      'Notes:\n"When exporting your connection data, you may notice that some of the email addresses are missing. You will only see email addresses for connections who have allowed their connections to see or download their email address using this setting https://www.linkedin.com/psettings/privacy/email. You can learn more about this here: https://www.linkedin.com/help/linkedin/answer/261"\n\nFirst Name,Last Name,URL,Email Address,Company,Position,Connected On\nAda,Lovelace,https://www.linkedin.com/in/ada,ada@example.com,Analytical,Engineer,05 Jan 2024\n',
    );
    const r = await importJson([
      'import',
      'contacts',
      path,
      '--map',
      'First Name=name',
      '--map',
      'Email Address=email',
      '--map',
      'Position=title',
      '--skip',
      'Last Name',
      '--skip',
      'URL',
      '--skip',
      'Connected On',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /the header is on line 4; 2 lines before it skipped \("Notes:", "When exporting your connectio…"; --header-line 4 says so\)/,
    );
    assert.deepEqual(
      records('contact').map((c) => [c['name'], c['email'], c['company'], c['title']]),
      [['Ada', 'ada@example.com', 'Analytical', 'Engineer']],
    );
    assert.equal(r.summary.reading.header_line, 4);
    assert.deepEqual(r.summary.reading.preamble_lines, [1, 2]);
  });

  it('--header-line N says where the header is', async () => {
    const path = write(
      'h.csv',
      'Report: contacts,,\nExported 2024-03-31,,\nName,Email,City\nAda,ada@x.io,Paris\n',
    );
    const r = await ws(['import', 'contacts', path, '--header-line', '3']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      records('contact').map((c) => c['city']),
      ['Paris'],
    );
    const bad = await ws(['import', 'contacts', path, '--header-line', '9']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--header-line 9: the input has 4 lines\./);
  });

  it('a Salesforce report: the totals row and the "Generated By" footer are never records', async () => {
    const path = write(
      'report.csv',
      '"Owner","Name","Email","Score"\n"Jane","Ada","ada@x.io","$1,000.00"\n"Jane","Bob","bob@x.io","$2,000.00"\n"Total","","","$3,000.00"\n""\n""\n"Generated By:","Jane Doe","3/31/2024 10:15 AM"\n"Acme Corp"\n"Confidential Information - Do Not Distribute"\n',
    );
    const r = await importJson(['import', 'contacts', path, '--skip', 'Owner']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      records('contact').map((c) => [c['name'], c['score']]),
      [
        ['Ada', 1000],
        ['Bob', 2000],
      ],
    );
    assert.equal(r.summary.rows, 2);
    assert.equal(r.summary.footer_lines, 6);
    const human = await ws(['import', 'contacts', path, '--skip', 'Owner', '--dry-run']);
    assert.match(
      human.stderr,
      /the footer after the data skipped: lines 4-9 \("Total \$3,000\.00", "Generated By: Jane Doe 3\/31\/2024 10:15 …", "Acme Corp"\)/,
    );
  });

  it('a row whose mapped cells are all empty is never an empty record', async () => {
    const path = write(
      'e.csv',
      'Owner,Name,Email\nJane,Ada,ada@x.io\nTotal,,\nJane,Bob,bob@x.io\n',
    );
    const r = await ws(['import', 'contacts', path, '--skip', 'Owner']);
    assert.equal(r.code, 5);
    assert.match(
      r.stderr,
      /line 3: no column that fills a property has a value \(Name, Email\) \(empty_row\)/,
    );
    assert.deepEqual(
      records('contact').map((c) => c['name']),
      ['Ada', 'Bob'],
    );
  });

  for (const [name, bytes, how] of [
    [
      'utf8-bom.csv',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Name,City\nZoë,Málaga\n')]),
      undefined,
    ],
    [
      'utf16le.txt',
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('Name\tCity\r\nZoë\tMálaga\r\n', 'utf16le'),
      ]),
      'utf-16le',
    ],
    [
      'utf16be.txt',
      Buffer.concat([
        Buffer.from([0xfe, 0xff]),
        Buffer.from('Name\tCity\r\nZoë\tMálaga\r\n', 'utf16le').swap16(),
      ]),
      'utf-16be',
    ],
    [
      'cp1252.csv',
      Buffer.from([
        ...Buffer.from('Name,City,Notes\nZo'),
        0xeb,
        ...Buffer.from(',M'),
        0xe1,
        ...Buffer.from('laga,'),
        0x93,
        ...Buffer.from('hi'),
        0x94,
        0x20,
        0x80,
        ...Buffer.from('5\n'),
      ]),
      'windows-1252',
    ],
    [
      'macroman.csv',
      Buffer.from([
        ...Buffer.from('Name,City,Notes\nZo'),
        0x91,
        ...Buffer.from(',M'),
        0x87,
        ...Buffer.from('laga,'),
        0xd2,
        ...Buffer.from('hi'),
        0xd3,
        ...Buffer.from(' caf'),
        0x8e,
        0x0a,
      ]),
      'macintosh',
    ],
    ['cr-only.csv', Buffer.from('Name,City\rZoë,Málaga\r'), undefined],
  ] as const) {
    it(`reads ${name}${how ? `, saying it is ${how}` : ''}`, async () => {
      const path = write(name, bytes);
      const r = await importJson(['import', 'contacts', path]);
      assert.equal(r.code, 0, r.stderr);
      const [c] = records('contact');
      assert.equal(c!['name'], 'Zoë');
      assert.equal(c!['city'], 'Málaga');
      if (name === 'cp1252.csv') assert.equal(c!['notes'], '“hi” €5');
      if (name === 'macroman.csv') assert.equal(c!['notes'], '“hi” café');
      assert.equal(r.summary.reading.encoding, how ?? 'utf-8');
      if (how) {
        assert.match(r.stderr, new RegExp(`Reading .*${name}: ${how}, by `));
      }
    });
  }
});

describe('ws import: dedupe keys checked in the file', () => {
  it('a key repeated in one file fails the repeat, naming the line it repeats (default)', async () => {
    const path = write(
      'dup.csv',
      'Name,Email\nDupe One,dupe@x.io\nDupe Two,dupe@x.io\nOther,other@x.io\n',
    );
    const dry = await importJson(['import', 'contacts', path, '--dedupe-by', 'email', '--dry-run']);
    assert.equal(dry.code, 5);
    assert.equal(dry.summary.duplicate_keys, 1);
    const r = await importJson(['import', 'contacts', path, '--dedupe-by', 'email']);
    assert.equal(r.code, 5);
    assert.equal(r.summary.created, 2);
    assert.equal(r.summary.updated, 0);
    assert.equal(r.summary.duplicate_keys, 1);
    assert.deepEqual(
      records('contact').map((c) => c['name']),
      ['Dupe One', 'Other'],
    );
    const failed = readFileSync(join(ctx.dir, 'dup.failed.csv'), 'utf8');
    assert.match(
      failed,
      /3,duplicate_key_in_file,"Email: email ""dupe@x\.io"" repeats line 2: pass --on-duplicate first to keep that row, or --on-duplicate last to let this one update its record",Dupe Two,dupe@x\.io/,
    );
  });

  it('--on-duplicate first keeps the first row and reports the repeat as left out; last lets the last row win', async () => {
    const path = write('dup.csv', 'Name,Email\nDupe One,DUPE@x.io\nDupe Two,dupe@x.io\n');
    const out = join(ctx.dir, 'dup.ndjson');
    const first = await importJson([
      'import',
      'contacts',
      path,
      '--dedupe-by',
      'email',
      '--case-insensitive',
      '--on-duplicate',
      'first',
      '--results',
      out,
    ]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.summary.skipped, 1);
    assert.deepEqual(
      records('contact').map((c) => c['name']),
      ['Dupe One'],
    );
    assert.equal(results(out).get(3)!.status, 'skipped');
    const human = await ws([
      'import',
      'contacts',
      path,
      '--dedupe-by',
      'email',
      '--case-insensitive',
      '--on-duplicate',
      'first',
      '--dry-run',
    ]);
    assert.match(human.stderr, /1 of them left out \(--on-duplicate first\): line 3/);
    ctx.s.reset();
    const last = await importJson([
      'import',
      'contacts',
      path,
      '--dedupe-by',
      'email',
      '--case-insensitive',
      '--on-duplicate',
      'last',
    ]);
    assert.equal(last.code, 0, last.stderr);
    assert.equal(last.summary.created, 1);
    assert.equal(last.summary.updated, 1);
    assert.deepEqual(
      records('contact').map((c) => c['name']),
      ['Dupe Two'],
    );
  });

  it('a row with an empty key fails with missing_dedupe_key, unless --allow-missing-key: an export imports back without duplicating the contact that has no email', async () => {
    ctx.s.load('contact', [{ name: 'Has Email', email: 'has@x.io' }, { name: 'No Email' }]);
    const rt = join(ctx.dir, 'rt.csv');
    const exp = await ws(['records', 'export', 'contacts', '-o', rt]);
    assert.equal(exp.code, 0, exp.stderr);
    const r = await importJson(['import', 'contacts', rt, '--dedupe-by', 'email']);
    assert.equal(r.code, 5);
    assert.equal(r.summary.missing_keys, 1);
    assert.equal(r.summary.unchanged, 1);
    assert.equal(r.summary.created, 0);
    assert.deepEqual(
      records('contact')
        .map((c) => c['name'])
        .sort(),
      ['Has Email', 'No Email'],
    );
    assert.match(readFileSync(rt.replace('.csv', '.failed.csv'), 'utf8'), /missing_dedupe_key/);
    const allowed = await importJson([
      'import',
      'contacts',
      rt,
      '--dedupe-by',
      'email',
      '--allow-missing-key',
    ]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(allowed.summary.created, 1);
    assert.equal(allowed.summary.missing_keys, 1);
  });
});

describe('ws import --lookup', () => {
  it('fills a reference from the record whose name is the cell: hits, misses with the closest names, ties listing them', async () => {
    const [acme, , globex1, globex2] = ctx.s.load('organization', [
      { name: 'Acme' },
      { name: 'Initech Corporation' },
      { name: 'Globex' },
      { name: 'Globex' },
    ]);
    const path = write(
      'deals.csv',
      'Name,Company\nBig,Acme\nSmall,Acme\nLost,Initech Corp\nTied,Globex\nNone,\n',
    );
    const out = join(ctx.dir, 'deals.ndjson');
    const r = await importJson([
      'import',
      'deals',
      path,
      '--lookup',
      'Company=organization.name',
      '--results',
      out,
    ]);
    assert.equal(r.code, 5);
    const deals = new Map(records('deal').map((d) => [d['name'], d['organization']]));
    assert.equal(deals.get('Big'), acme);
    assert.equal(deals.get('Small'), acme);
    assert.equal(deals.has('None'), true);
    assert.equal(deals.has('Lost'), false);
    const lines = results(out);
    assert.deepEqual(lines.get(4)!.errors, [
      {
        column: 'Company',
        code: 'lookup_not_found',
        message: 'no organization has the name "Initech Corp"; closest: "Initech Corporation"',
      },
    ]);
    assert.equal(lines.get(5)!.errors[0]!.code, 'lookup_ambiguous');
    assert.match(
      lines.get(5)!.errors[0]!.message,
      new RegExp(`${globex1}.*${globex2}|${globex2}.*${globex1}`),
    );
    assert.equal(r.summary.lookup_queries, 2);
  });

  it('sends one query per 50 distinct values, never one per row', async () => {
    const names = Array.from({ length: 120 }, (_, i) => `Org ${i}`);
    ctx.s.load(
      'organization',
      names.map((name) => ({ name })),
    );
    let csv = 'Name,Company\n';
    for (let i = 0; i < 3000; i++) csv += `Deal ${i},Org ${(i * 7) % 120}\n`;
    const path = write('many.csv', csv);
    const before = ctx.s.count(/POST \S+\/organization\/query /);
    const r = await importJson(['import', 'deals', path, '--lookup', 'Company=organization.name']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(ctx.s.count(/POST \S+\/organization\/query /) - before, 3);
    assert.equal(r.summary.lookup_queries, 3);
    assert.equal(records('deal').length, 3000);
  });

  it('an export with a dot-path column imports back through --lookup: the deal keeps its organization', async () => {
    const [acme, globex] = ctx.s.load('organization', [{ name: 'Acme' }, { name: 'Globex' }]);
    ctx.s.load('deal', [
      { name: 'Big', amount: 1000, organization: acme },
      { name: 'Small', amount: 5, organization: globex },
    ]);
    const file = join(ctx.dir, 'deals-export.csv');
    const exp = await ws([
      'records',
      'export',
      'deals',
      '--select',
      'name,amount,organization.name',
      '-o',
      file,
    ]);
    assert.equal(exp.code, 0, exp.stderr);
    const withoutLookup = await ws(['import', 'deals', file, '--dedupe-by', 'name']);
    assert.equal(withoutLookup.code, 2);
    assert.match(withoutLookup.stderr, /--lookup "organization\.name"/);
    // Back into an empty workspace of deals: the same references, by name.
    for (const d of records('deal'))
      recordsOf(ctx.s.t.sandbox.store).softDelete('deal', d.id as string);
    const r = await importJson(['import', 'deals', file, '--lookup', 'organization.name']);
    assert.equal(r.code, 0, r.stderr);
    const deals = new Map(
      records('deal').map((d) => [d['name'], [d['amount'], d['organization']]]),
    );
    assert.deepEqual(deals.get('Big'), [1000, acme]);
    assert.deepEqual(deals.get('Small'), [5, globex]);
  });
});

describe('ws import: a mapping file keeps how each column is read', () => {
  it('--save-map records the locale, percent, dates and look-up of each column; --map-file makes the next month one command', async () => {
    const [mueller] = ctx.s.load('organization', [{ name: 'Müller GmbH' }]);
    const march = write(
      'umsatz-03.csv',
      'Titel;Firma;Betrag;Wahrscheinlichkeit;Abschluss;Notiz\nRahmenvertrag;Müller GmbH;1.234,50 €;75 %;31.03.2024;x\n',
    );
    const map = join(ctx.dir, 'umsatz.mapping.json');
    const first = await ws([
      'import',
      'deals',
      march,
      '--locale',
      'de-DE',
      '--percent',
      'points',
      '--lookup',
      'Firma=organization.name',
      '--map',
      'Titel=name',
      '--map',
      'Betrag=amount',
      '--map',
      'Wahrscheinlichkeit=probability',
      '--map',
      'Abschluss=close_date',
      '--skip',
      'Notiz',
      '--save-map',
      map,
    ]);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(readFileSync(map, 'utf8')), {
      columns: {
        Titel: 'name',
        Firma: { property: 'organization', lookup: 'organization.name' },
        // --percent is every number column's.
        Betrag: { property: 'amount', locale: 'de-DE', percent: 'points' },
        Wahrscheinlichkeit: { property: 'probability', locale: 'de-DE', percent: 'points' },
        Abschluss: { property: 'close_date', date_format: 'dmy', locale: 'de-DE' },
        Notiz: null,
      },
    });
    const april = write(
      'umsatz-04.csv',
      'Titel;Firma;Betrag;Wahrscheinlichkeit;Abschluss;Notiz\nWartung;Müller GmbH;1.000 €;10 %;03.04.2024;y\n',
    );
    const next = await ws(['import', 'deals', april, '--map-file', map]);
    assert.equal(next.code, 0, next.stderr);
    const wartung = records('deal').find((d) => d['name'] === 'Wartung')!;
    assert.deepEqual(
      [wartung['organization'], wartung['amount'], wartung['probability'], wartung['close_date']],
      [mueller, 1000, 10, '2024-04-03'],
    );
  });

  it("a decimal mark the file showed is saved as the column's decimal_mark", async () => {
    const path = write('s.csv', 'Name;Score\nA;12,5\n');
    const map = join(ctx.dir, 's.mapping.json');
    const r = await ws(['import', 'contacts', path, '--save-map', map]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(readFileSync(map, 'utf8')), {
      columns: { Name: 'name', Score: { property: 'score', decimal_mark: ',' } },
    });
  });
});
