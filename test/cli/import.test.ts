// `ws import`: reading cases (one fixture file each), mapping and prompts, typing, the
// failed-rows round trip, dry runs, dedupe, sync and async jobs, resume, status and jobs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { recordsOf } from '../../src/sandbox/index.ts';
import { runWs, scriptedPrompter, tempConfigDir } from '../helpers/run.ts';
import { writeProfiles } from '../helpers/sandbox.ts';
import { startStub } from '../helpers/stub-server.ts';
import { type RecordsSandbox, useRecordsSandbox } from './records-fixture.ts';

const FIXTURES = new URL('../fixtures/import/', import.meta.url).pathname;

const ctx = useRecordsSandbox();

/** A fixture copied into the test directory (so the failed-rows file lands there). */
function fixture(name: string): string {
  const to = join(ctx.dir, name);
  copyFileSync(join(FIXTURES, name), to);
  rmSync(failedOf(to), { force: true });
  return to;
}

function write(name: string, text: string | Buffer): string {
  const to = join(ctx.dir, name);
  writeFileSync(to, text);
  rmSync(failedOf(to), { force: true });
  return to;
}

function failedOf(path: string): string {
  return /\.(csv|tsv)$/.test(path)
    ? path.replace(/\.(csv|tsv)$/, '.failed.$1')
    : `${path}.failed.csv`;
}

const contacts = () =>
  [...recordsOf(ctx.s.t.sandbox.store).records('contact')].map((r) => r.default);

const names = () => contacts().map((c) => c['name']);

const ws = (argv: string[], opts: Parameters<RecordsSandbox['ws']>[1] = {}) =>
  ctx.s.ws(argv, { ...opts, env: { WS_NO_CACHE: '1', ...opts.env } });

async function importJson(argv: string[]) {
  const r = await ws([...argv, '--json']);
  return { ...r, summary: r.stdout ? JSON.parse(r.stdout) : undefined };
}

function rows(n: number, from = 0): string {
  let out = 'Name,Email,Score\n';
  for (let i = from; i < from + n; i++) out += `Person ${i},p${i}@example.com,${i}\n`;
  return out;
}

describe('ws import: reading', () => {
  it('reads UTF-8 with a byte-order mark and CRLF line ends', async () => {
    const r = await importJson(['import', 'contact', fixture('bom.csv')]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(contacts(), [
      { name: 'Ada Lovelace', email: 'ada@example.com', score: 12 },
      { name: 'Grace Hopper', email: 'grace@example.com', score: 7 },
    ]);
    assert.equal(r.summary.created, 2);
    assert.equal(r.summary.failed_file, null);
  });

  for (const [file, delim] of [
    ['semicolon.csv', ';'],
    ['tab.tsv', 'tab'],
    ['pipe.csv', '|'],
  ] as const) {
    it(`detects the ${delim} delimiter`, async () => {
      const r = await importJson(['import', 'contact', fixture(file)]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(names(), ['Ada Lovelace', 'Grace Hopper']);
      const cities = contacts().map((c) => c['city']);
      assert.equal(cities[0], 'London');
      if (file === 'semicolon.csv') assert.equal(cities[1], 'New York; NY');
    });
  }

  it('takes --delimiter over detection', async () => {
    const path = write('forced.csv', 'Name;Email\nAda,x;ada@example.com\n');
    const r = await importJson(['import', 'contact', path, '--delimiter', 'semicolon']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(contacts(), [{ name: 'Ada,x', email: 'ada@example.com' }]);
  });

  it('reads quoted fields with newlines, delimiters and doubled quotes', async () => {
    const r = await importJson(['import', 'contact', fixture('quoted-newlines.csv')]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      contacts().map((c) => c['notes']),
      ['First line\nsecond line, with a comma', 'She said "hello"\nthen left', 'plain'],
    );
  });

  it('reports ragged rows with their line numbers and imports the rest (exit 5)', async () => {
    const path = fixture('ragged.csv');
    const r = await ws(['import', 'contact', path]);
    assert.equal(r.code, 5, r.stderr);
    assert.deepEqual(names(), ['Ada Lovelace', 'Edsger Dijkstra', 'Barbara Liskov']);
    assert.match(r.stderr, /line 3: 2 fields where the header has 3 \(field_count\)/);
    assert.match(r.stderr, /line 4: 4 fields where the header has 3 \(field_count\)/);
    assert.match(r.stderr, /error: 2 of 5 rows failed; they are in .*ragged\.failed\.csv\./);
    assert.equal(
      readFileSync(failedOf(path), 'utf8'),
      'ws_line,ws_error_code,ws_error_message,Name,Email,City\r\n' +
        '3,field_count,line 3: 2 fields where the header has 3,Grace Hopper,grace@example.com,\r\n' +
        '4,field_count,line 4: 4 fields where the header has 3,Alan Turing,alan@example.com,Wilmslow,extra\r\n',
    );
  });

  it('reports an unclosed quote on its line and reads the lines it swallowed', async () => {
    const path = fixture('unclosed-quote.csv');
    const r = await ws(['import', 'contact', path]);
    assert.equal(r.code, 5, r.stderr);
    assert.deepEqual(names(), ['Ada Lovelace', 'Alan Turing', 'Barbara Liskov']);
    assert.match(
      r.stderr,
      /line 3: a quote opened on this line is not closed properly \(unclosed_quote\)/,
    );
  });

  it('stops at the first bad row with --strict (exit 2)', async () => {
    const r = await ws(['import', 'contact', fixture('ragged.csv'), '--strict']);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /error: Line 3: 2 fields where the header has 3 \(field_count\); stopped there \(--strict\)\./,
    );
    assert.deepEqual(names(), []);
  });

  it('reads Latin-1 with --encoding, and detects it (saying so) without', async () => {
    const path = fixture('latin1.csv');
    const detected = await ws(['import', 'contact', path]);
    assert.equal(detected.code, 0, detected.stderr);
    assert.match(
      detected.stderr,
      /Reading .*latin1\.csv: windows-1252, by it is not UTF-8 \(byte \d+\), and its letters read as Windows-1252 \(--encoding to choose\)\./,
    );
    assert.deepEqual(names(), ['Ada Lovelace', 'José María', 'Françoise Sagan']);
    ctx.s.reset();
    const r = await importJson(['import', 'contact', path, '--encoding', 'latin1']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(names(), ['Ada Lovelace', 'José María', 'Françoise Sagan']);
    assert.equal(contacts()[1]!['city'], 'Málaga');
  });

  it('reads UTF-16 with a byte-order mark', async () => {
    const text = 'Name,Email\nZoë Ångström,zoe@example.com\n';
    const path = write(
      'utf16.csv',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    );
    const r = await importJson(['import', 'contact', path]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(names(), ['Zoë Ångström']);
  });

  it('refuses an unknown encoding', async () => {
    const r = await ws(['import', 'contact', fixture('bom.csv'), '--encoding', 'klingon']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unknown encoding "klingon"/);
  });

  it('says an empty file is empty (exit 2)', async () => {
    const r = await ws(['import', 'contact', fixture('empty.csv')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /empty\.csv is empty: there is nothing to import\./);
    assert.equal(ctx.s.requests.length, 0);
  });

  it('says a header alone has no rows (exit 0, nothing sent)', async () => {
    const r = await importJson(['import', 'contact', fixture('header-only.csv')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /has a header but no rows: there is nothing to import\./);
    assert.equal(r.summary.status, 'empty');
    assert.equal(r.summary.rows, 0);
    assert.equal(ctx.s.count(/\/import /), 0);
  });

  it('skips blank lines and counts them', async () => {
    const path = write(
      'blank.csv',
      'Name,Email\n\nAda,ada@example.com\n,\n\nBob,bob@example.com\n',
    );
    const r = await importJson(['import', 'contact', path]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(names(), ['Ada', 'Bob']);
    assert.equal(r.summary.blank, 3);
  });

  it('reads stdin with -', async () => {
    const r = await ws(['import', 'contact', '-', '--json'], {
      stdin: 'Name,Email\nAda,ada@example.com\n',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).file, '-');
    assert.deepEqual(names(), ['Ada']);
  });

  it('reads a relative FILE from its working directory, and writes the failed rows of stdin there', async () => {
    const cwd = mkdtempSync(join(ctx.dir, 'cwd-'));
    writeFileSync(join(cwd, 'people.csv'), 'Name,Email,Score\nAda,ada@example.com,1\n');
    const relative = await ws(['import', 'contact', 'people.csv', '--json'], { cwd });
    assert.equal(relative.code, 0, relative.stderr);
    assert.equal(JSON.parse(relative.stdout).file, join(cwd, 'people.csv'));
    const r = await ws(['import', 'contact', '-', '--json'], {
      cwd,
      stdin: 'Name,Email,Score\nBob,bob@example.com,two\n',
    });
    assert.equal(r.code, 5, r.stderr);
    const failed: string = JSON.parse(r.stdout).failed_file;
    assert.equal(dirname(failed), cwd);
    assert.match(basename(failed), /^stdin-\d{8}-\d{6}\.failed\.csv$/);
    assert.match(
      readFileSync(failed, 'utf8'),
      /^ws_line,ws_error_code,ws_error_message,Name,Email,Score\r\n2,/,
    );
  });

  it('refuses - when nothing is piped in', async () => {
    const r = await ws(['import', 'contact', '-'], { stdinTTY: true });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /nothing is piped in/);
  });

  it('refuses a missing file and a directory', async () => {
    const r = await ws(['import', 'contact', join(ctx.dir, 'nope.csv')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /No such file: .*nope\.csv\./);
    const d = await ws(['import', 'contact', ctx.dir]);
    assert.equal(d.code, 2);
    assert.match(d.stderr, /is a directory/);
  });
});

describe('ws import: mapping', () => {
  const file = () =>
    write(
      'mapping.csv',
      'Full Name,E-mail address,Job Title,Mobile\nAda,ada@example.com,Countess,+44 1\n',
    );

  it('stops before sending when columns match no property, with the closest names (exit 2)', async () => {
    const r = await ws(['import', 'contact', file()]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /error: 3 columns match no property; nothing was sent:/);
    assert.match(r.stderr, /"E-mail address": did you mean email/);
    assert.match(r.stderr, /"Full Name": did you mean name/);
    assert.match(r.stderr, /On a terminal, ws asks about each one\./);
    assert.equal(ctx.s.count(/\/import /), 0);
    assert.deepEqual(names(), []);
  });

  it('matches headers by slug or name ignoring case and spaces; --map and --skip override', async () => {
    const r = await importJson([
      'import',
      'contact',
      file(),
      '--map',
      'Full Name=name',
      '--map',
      'E-mail address=email',
      '--skip',
      'Mobile',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(contacts(), [{ name: 'Ada', email: 'ada@example.com', title: 'Countess' }]);
  });

  it('reads a mapping file (JSON or Header=slug lines)', async () => {
    const json = write(
      'map.json',
      JSON.stringify({ 'Full Name': 'name', 'E-mail address': 'email', Mobile: null }),
    );
    const r = await importJson(['import', 'contact', file(), '--map-file', json]);
    assert.equal(r.code, 0, r.stderr);
    ctx.s.reset();
    const lines = write(
      'map.txt',
      '# mapping\nFull Name=name\nE-mail address=email\nMobile=phone\n',
    );
    const r2 = await importJson(['import', 'contact', file(), '--map-file', lines]);
    assert.equal(r2.code, 0, r2.stderr);
    assert.deepEqual(contacts(), [
      { name: 'Ada', email: 'ada@example.com', title: 'Countess', phone: '+44 1' },
    ]);
  });

  it('leaves unknown columns out with --ignore-unknown, with a warning', async () => {
    const r = await importJson(['import', 'contact', file(), '--ignore-unknown']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /warning: Left out 3 columns that match no property: "Full Name", "E-mail address", "Mobile"\./,
    );
    assert.deepEqual(contacts(), [{ title: 'Countess' }]);
  });

  it('refuses a --map to an unknown property or column', async () => {
    const r = await ws(['import', 'contact', file(), '--map', 'Full Name=nmae']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--map "Full Name=nmae": there is no property "nmae"\./);
    assert.match(r.stderr, /Did you mean name/);
    const r2 = await ws(['import', 'contact', file(), '--map', 'Phone=phone']);
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /the file has no column "Phone"/);
  });

  it('refuses two columns filling one property', async () => {
    const path = write('dup.csv', 'Name,Full name\nA,B\n');
    const r = await ws(['import', 'contact', path, '--map', 'Full name=name']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Columns "Name" and "Full name" both fill the property name\./);
  });

  it('asks about each unknown column on a terminal and saves the mapping', async () => {
    const real = scriptedPrompter({
      '"Full Name"': 'name',
      '"E-mail address"': 'email',
      '"Mobile"': null,
      'Save this mapping': true,
    });
    const path = file();
    const r = await ws(['import', 'contact', path], { tty: true, prompter: real });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      real.asked.map((q) => q.replace(/ Which.*| for the next.*/, '')),
      [
        'Column "Full Name" matches no property.',
        'Column "E-mail address" matches no property.',
        'Column "Mobile" matches no property.',
        `Save this mapping to ${join(ctx.dir, 'mapping.mapping.json')}`,
      ],
    );
    assert.deepEqual(contacts(), [{ name: 'Ada', email: 'ada@example.com', title: 'Countess' }]);
    const saved = JSON.parse(readFileSync(join(ctx.dir, 'mapping.mapping.json'), 'utf8'));
    assert.deepEqual(saved, {
      'Full Name': 'name',
      'E-mail address': 'email',
      'Job Title': 'title',
      Mobile: null,
    });
    ctx.s.reset();
    const again = await importJson([
      'import',
      'contact',
      path,
      '--map-file',
      join(ctx.dir, 'mapping.mapping.json'),
    ]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.summary.created, 1);
  });

  it('times the import, not the time spent at its questions: duration and rate agree', async () => {
    const answers = scriptedPrompter({ '"Full Name"': 'name', 'Save this mapping': false });
    const WAIT_MS = 1500;
    // A person who takes a while over the question.
    const slow = {
      ...answers,
      async select<T>(o: Parameters<typeof answers.select<T>>[0]): Promise<T> {
        await new Promise((r) => setTimeout(r, WAIT_MS));
        return answers.select(o);
      },
    };
    let csv = 'Full Name\n';
    for (let i = 0; i < 200; i++) csv += `Person ${i}\n`;
    const r = await ws(['import', 'contact', write('slow.csv', csv), '--json'], {
      tty: true,
      prompter: slow,
    });
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.equal(summary.created, 200);
    // The wait is not in the duration (200 rows into a local sandbox take far less than
    // the wait once more), and the rate is the rows over that duration.
    assert.ok(summary.duration_ms < 2 * WAIT_MS, `${summary.duration_ms}`);
    assert.equal(summary.rows_per_second, Math.round((200 * 1000) / summary.duration_ms));
  });

  it('does not ask without a terminal, or with --no-input', async () => {
    const prompter = scriptedPrompter({});
    const r = await ws(['import', 'contact', file(), '--no-input'], { tty: true, prompter });
    assert.equal(r.code, 2);
    assert.deepEqual(prompter.asked, []);
    assert.match(r.stderr, /3 columns match no property/);
  });
});

describe('ws import: typing', () => {
  let orgId: string;
  beforeEach(async () => {
    [orgId] = ctx.s.load('organization', [{ name: 'Analytical Engines Ltd' }]);
    for (const [name, type] of [
      ['Meta', 'jsonb'],
      ['Aliases', 'multi_str'],
    ]) {
      const r = await ws([
        'api',
        'POST',
        '/v2/prism/{teamId}/contact/properties',
        '-f',
        `name=${name}`,
        '-f',
        `type=${type}`,
      ]);
      assert.equal(r.code, 0, r.stderr);
    }
  });

  it('types every kind of value, and fails the rows whose cells do not fit', async () => {
    const template = readFileSync(join(FIXTURES, 'types.csv'), 'utf8').replaceAll(
      '{{ORG}}',
      orgId!,
    );
    const path = write('types.csv', template);
    const r = await ws(['import', 'contact', path, '--results', join(ctx.dir, 'types.ndjson')]);
    assert.equal(r.code, 5, r.stderr);
    const byName = new Map(contacts().map((c) => [c['name'], c]));
    assert.deepEqual(byName.get('Good'), {
      name: 'Good',
      score: 1234.5,
      subscribed: true,
      birthday: '1990-04-13',
      status: 'customer',
      tags: ['vip', 'partner'],
      organization: orgId!,
      meta: { a: [1, 2] },
      aliases: ['Ada', 'A. L.'],
    });
    assert.equal(byName.get('No')!['subscribed'], false);
    // 13/04/1990 on line 13 shows the file writes the day first: 03/04/1990 is 3 April.
    assert.equal(byName.get('Ambiguous')!['birthday'], '1990-04-03');
    assert.match(r.stderr, /dates day first, as "13\/04\/1990" on line 13 shows/);
    assert.deepEqual(
      ['DayFirst', 'Slashes', 'Dots', 'NoZone', 'Zone', 'Empty'].map(
        (n) => byName.get(n)?.['birthday'],
      ),
      [
        '1990-04-13',
        '1990-04-13',
        '1990-04-13',
        '1990-04-13T10:30:00.000Z',
        '1990-04-13T08:30:00.000Z',
        undefined,
      ],
    );
    const failed = readFileSync(failedOf(path), 'utf8')
      .split('\r\n')
      .slice(1, -1)
      .map((l) => l.split(',').slice(0, 2).join(' '));
    assert.deepEqual(failed, [
      '4 invalid_number',
      '5 invalid_boolean',
      '6 invalid_date',
      '8 unknown_option',
      '9 unknown_option',
      '10 invalid_reference',
      '11 invalid_json',
      '12 not_found',
    ]);
    const results = readFileSync(join(ctx.dir, 'types.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(results.length, 17);
    assert.deepEqual(results[0], {
      line: 2,
      id: results[0].id,
      status: 'created',
      error: null,
      errors: [],
    });
    assert.equal(results[10].status, 'failed');
    assert.equal(results[10].error.code, 'not_found');
  });

  it('reads ambiguous dates with --date-format, and clears values of empty cells with --empty-as-null', async () => {
    ctx.s.load('contact', [{ name: 'A', email: 'a@example.com', city: 'Paris' }]);
    const path = write('dates.csv', 'Name,Email,Birthday,City\nA,a@example.com,03/04/1990,\n');
    const r = await importJson([
      'import',
      'contact',
      path,
      '--date-format',
      'mdy',
      '--empty-as-null',
      '--dedupe-by',
      'email',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.summary.updated, 1);
    const [c] = contacts();
    assert.equal(c!['birthday'], '1990-03-04');
    assert.equal(c!['city'] ?? null, null);
  });

  it('splits lists on --array-sep', async () => {
    const path = write('tags.csv', 'Name,Tags\nA,VIP|newsletter\n');
    const r = await importJson(['import', 'contact', path, '--array-sep', '|', '--delimiter', ',']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(contacts(), [{ name: 'A', tags: ['vip', 'newsletter'] }]);
  });

  it('fails rows missing a required property, and refuses a file without its column', async () => {
    const c = await ws([
      'api',
      'POST',
      '/v2/prism/{teamId}/contact/properties',
      '-f',
      'name=Region',
      '-f',
      'type=str',
      '-f',
      'required:=true',
    ]);
    assert.equal(c.code, 0, c.stderr);
    const path = write('req.csv', 'Name,Region\nA,EU\nB,\n');
    const r = await ws(['import', 'contact', path]);
    assert.equal(r.code, 5, r.stderr);
    assert.match(
      r.stderr,
      /line 3: Region: region is required and this row has no value \(required_missing\)/,
    );
    assert.deepEqual(names(), ['A']);
    const none = await ws(['import', 'contact', write('noreq.csv', 'Name\nA\n')]);
    assert.equal(none.code, 2);
    assert.match(
      none.stderr,
      /The file has no column for the required property region: every row would fail\./,
    );
  });
});

describe('ws import: numbers', () => {
  it('writes each number as the API reads it, however the file writes it', async () => {
    const cells = ['100.50', '007', '-0.25', '1e3', '+5', '1,234.5', '12_000', '0.1', ' 42 '];
    const path = write(
      'numbers.csv',
      `Name,Email,Score\n${cells.map((c, i) => `N${i},n${i}@example.com,"${c}"`).join('\n')}\n`,
    );
    const r = await importJson(['import', 'contact', path]);
    assert.equal(r.code, 0, r.stderr);
    const byName = new Map(contacts().map((c) => [c['name'], c['score']]));
    assert.deepEqual(
      cells.map((_, i) => byName.get(`N${i}`)),
      [100.5, 7, -0.25, 1000, 5, 1234.5, 12000, 0.1, 42],
    );
  });
});

describe('ws import: results', () => {
  it('round-trips the failed rows: fix the file, import it, all in', async () => {
    const path = write(
      'people.csv',
      'Name,Email,Score\nAda,ada@example.com,1\nBob,bob@example.com,two\nCy,cy@example.com,3\nDee,dee@example.com,4x\n',
    );
    const r = await ws(['import', 'contact', path]);
    assert.equal(r.code, 5);
    const failedPath = failedOf(path);
    const failed = readFileSync(failedPath, 'utf8');
    assert.equal(
      failed,
      'ws_line,ws_error_code,ws_error_message,Name,Email,Score\r\n' +
        '3,invalid_number,"Score: score takes a number, not ""two""",Bob,bob@example.com,two\r\n' +
        '5,invalid_number,"Score: score takes a number, not ""4x""",Dee,dee@example.com,4x\r\n',
    );
    writeFileSync(failedPath, failed.replace(',two\r\n', ',2\r\n').replace(',4x\r\n', ',4\r\n'));
    const again = await importJson(['import', 'contact', failedPath]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.summary.created, 2);
    assert.deepEqual(names().sort(), ['Ada', 'Bob', 'Cy', 'Dee']);
    assert.equal(existsSync(failedOf(failedPath)), false);
  });

  it("prints a command for the failed rows that works as printed, with the run's flags", async () => {
    const path = write(
      'my people.csv',
      'Full name,Email,Score\nAda,ada@example.com,1\nBob,bob@example.com,two\nCy,cy@example.com,x\n',
    );
    const r = await ws([
      'import',
      'contact',
      path,
      '--map',
      'Full name=name',
      '--dedupe-by',
      'email',
    ]);
    assert.equal(r.code, 5, r.stderr);
    const failedPath = join(ctx.dir, 'my people.failed.csv');
    const hint = /Fix them there and import that file: (.*)/.exec(r.stderr)?.[1];
    assert.equal(
      hint,
      `ws import contact '${failedPath}' --map 'Full name=name' --dedupe-by email`,
    );
    // The words a shell makes of it.
    const argv = spawnSync('sh', ['-c', `printf '%s\\0' ${hint!.slice('ws '.length)}`], {
      encoding: 'utf8',
    })
      .stdout.split('\0')
      .slice(0, -1);
    const failed = readFileSync(failedPath, 'utf8');
    writeFileSync(failedPath, failed.replace(',two\r\n', ',2\r\n'));
    // One row still fails: its file is the next round's, not my people.failed.failed.csv.
    const again = await ws(argv);
    assert.equal(again.code, 5, again.stderr);
    assert.deepEqual(names().sort(), ['Ada', 'Bob']);
    assert.equal(existsSync(join(ctx.dir, 'my people.failed.failed.csv')), false);
    const next = join(ctx.dir, 'my people.failed-2.csv');
    assert.match(
      readFileSync(next, 'utf8'),
      /^ws_line,.*\r\n3,invalid_number,.*,Cy,cy@example.com,x\r\n$/s,
    );
    assert.match(again.stderr, new RegExp(`import that file: ws import contact '${next}' --map`));
    rmSync(next);
  });

  it('checks without sending with --dry-run and ws import validate', async () => {
    const path = write('check.csv', 'Name,Score\nA,1\nB,x\n');
    for (const argv of [
      ['import', 'validate', 'contact', path],
      ['import', 'contact', path, '--dry-run'],
    ]) {
      const r = await ws(argv);
      assert.equal(r.code, 5, r.stderr);
      assert.match(
        r.stderr,
        /Checked .*check\.csv against the contact properties in .*; nothing was sent\./,
      );
      assert.match(r.stderr, /valid\s+1/);
      assert.match(r.stderr, /invalid\s+1 {2}→ .*check\.failed\.csv/);
      assert.match(r.stderr, /line 3: Score: score takes a number, not "x" \(invalid_number\)/);
      assert.equal(ctx.s.count(/\/import /), 0);
      assert.ok(existsSync(failedOf(path)));
    }
    assert.deepEqual(names(), []);
  });

  it('shows a spinner on a terminal, a plain line otherwise, nothing with --quiet', async () => {
    const path = write('progress.csv', rows(3));
    const tty = await ws(['import', 'contact', path], { tty: true, stdinTTY: false });
    assert.equal(tty.code, 0, tty.stderr);
    assert.match(tty.stderr, /^⠋ Importing progress\.csv…/);
    const piped = await ws(['import', 'contact', path]);
    assert.match(piped.stderr, /^Importing progress\.csv…\n/);
    const quiet = await ws(['import', 'contact', path, '--quiet']);
    assert.equal(quiet.stderr, '');
  });

  it('prints a summary on stderr, or one JSON document with --json', async () => {
    const path = write('ok.csv', rows(3));
    const r = await ws(['import', 'contact', path]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /✓ Imported .*ok\.csv into contact in .*\.\n {2}rows {15}3\n {2}created {12}3\n {2}updated {12}0\n {2}unchanged {10}0\n {2}failed {13}0\n/,
    );
    const q = await ws(['import', 'contact', path, '--quiet']);
    assert.equal(q.stderr, '');
  });
});

describe('ws import: sending', () => {
  it('sends small chunks synchronously and large ones as jobs it polls', async () => {
    const path = write('many.csv', rows(250));
    const r = await importJson(['import', 'contact', path, '--chunk-size', '120']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.summary.created, 250);
    assert.equal(r.summary.jobs.length, 2);
    assert.equal(ctx.s.count(/^POST \/v2\/prism\/[^/]+\/contact\/import 202/), 2);
    assert.equal(ctx.s.count(/^POST \/v2\/prism\/[^/]+\/contact\/import 200/), 1);
    assert.ok(ctx.s.count(/^GET \/v2\/prism\/[^/]+\/imports\//) >= 2);
    assert.equal(contacts().length, 250);
    const jobs = await ws(['import', 'jobs', '--format', 'tsv']);
    assert.equal(jobs.code, 0, jobs.stderr);
    const lines = jobs.stdout.trim().split('\n');
    assert.ok(lines.length >= 2);
    assert.ok(r.summary.jobs.every((j: string) => jobs.stdout.includes(j)));
    const st = await ws(['import', 'status', r.summary.jobs[0], '--json']);
    assert.equal(st.code, 0, st.stderr);
    assert.equal(JSON.parse(st.stdout).status, 'complete');
  });

  it('keeps 16 chunks in flight without a listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const path = write('wide.csv', rows(3200));
      const r = await importJson([
        'import',
        'contact',
        path,
        '--chunk-size',
        '100',
        '--concurrency',
        '16',
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.summary.created, 3200);
      assert.equal(r.summary.jobs.length, 32);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('never creates a row twice when the same file is imported again', async () => {
    const path = write('twice.csv', rows(150));
    const a = await importJson(['import', 'contact', path, '--chunk-size', '100']);
    assert.equal(a.code, 0, a.stderr);
    const b = await importJson(['import', 'contact', path, '--chunk-size', '100']);
    assert.equal(b.code, 0, b.stderr);
    assert.equal(contacts().length, 150);
  });

  it('updates existing records with --dedupe-by', async () => {
    ctx.s.load('contact', [{ name: 'Old', email: 'P1@example.com', score: 0 }]);
    const path = write(
      'dedupe.csv',
      'Name,Email,Score\nNew,p1@example.com,9\nOther,p2@example.com,1\n',
    );
    const r = await importJson([
      'import',
      'contact',
      path,
      '--dedupe-by',
      'email',
      '--case-insensitive',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.summary.created, 1);
    assert.equal(r.summary.updated, 1);
    assert.deepEqual(
      contacts().map((c) => [c['name'], c['score']]),
      [
        ['New', 9],
        ['Other', 1],
      ],
    );
    const same = await importJson([
      'import',
      'contact',
      write('dedupe2.csv', 'Name,Email,Score\nNew,p1@example.com,9\n'),
      '--dedupe-by',
      'email',
      '--case-insensitive',
    ]);
    assert.equal(same.summary.unchanged, 1);
    const bad = await ws(['import', 'contact', path, '--dedupe-by', 'city']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--dedupe-by city: no column of the file fills city/);
  });

  it('imports into a list with --list-id', async () => {
    const list = '3f0c2a1e-7b5d-4c8e-9a6f-1d2e3f4a5b6c';
    const path = write('list.csv', rows(3));
    const r = await importJson(['import', 'contact', path, '--list-id', list]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(recordsOf(ctx.s.t.sandbox.store).count('contact', { listId: list }), 3);
  });

  it('starts jobs and prints their ids with --no-wait; status --wait waits for them', async () => {
    const path = write('nowait.csv', rows(150));
    const r = await ws(['import', 'contact', path, '--no-wait', '--chunk-size', '150']);
    assert.equal(r.code, 0, r.stderr);
    const ids = r.stdout.trim().split('\n');
    assert.equal(ids.length, 1);
    const st = await ws(['import', 'status', ids[0]!, '--wait', '--timeout', '30', '--json']);
    assert.equal(st.code, 0, st.stderr);
    assert.equal(JSON.parse(st.stdout).succeeded, 150);
  });

  it('exits 7 when status --wait times out, with the command to keep waiting', async () => {
    const job = {
      job_id: 'imp_slow',
      status: 'processing',
      total: 1000,
      processed: 200,
      succeeded: 200,
      failed: 0,
    };
    const stub = await startStub(() => ({ status: 200, body: job }));
    const { dir: config, cleanup } = tempConfigDir();
    try {
      writeProfiles(
        config,
        {
          stub: {
            base_url: stub.url,
            team_id: ctx.s.t.sandbox.teamId,
            api_key: 'wsk_stub_0000',
            rate_limit: 0,
          },
        },
        'stub',
      );
      const r = await runWs(['import', 'status', 'imp_slow', '--wait', '--timeout', '0.5'], {
        env: { WS_CONFIG_DIR: config },
      });
      assert.equal(r.code, 7, r.stderr);
      assert.match(
        r.stderr,
        /Import job imp_slow is still processing after 0\.5 seconds \(200 of 1000 rows\)\./,
      );
      assert.match(r.stderr, /Keep waiting with: ws import status imp_slow --wait/);
      assert.ok(stub.requests.length >= 2, `${stub.requests.length} polls`);
      const once = await runWs(['import', 'status', 'imp_slow', '--format', 'tsv'], {
        env: { WS_CONFIG_DIR: config },
      });
      assert.equal(once.code, 0, once.stderr);
      assert.match(
        once.stdout,
        /^job_id\timp_slow\nstatus\tprocessing\ntotal\t1000\nprocessed\t200\n/,
      );
    } finally {
      cleanup();
      await stub.close();
    }
  });

  it('asks for the definitions again after a 500, before reading the file', async () => {
    const sb = ctx.s.t.sandbox;
    const answer = await fetch(
      `${sb.url}/v2/prism/${sb.teamId}/contact/properties?include_options=true`,
      { headers: { 'x-api-key': sb.apiKey } },
    );
    const definitions = (await answer.json()) as object;
    const stub = await startStub((req) =>
      req.url.includes('/properties') && stub.requests.length === 1
        ? { status: 500, body: { error: { code: 'internal_error', message: 'Try again.' } } }
        : { status: 200, body: definitions },
    );
    const { dir: config, cleanup } = tempConfigDir();
    try {
      writeProfiles(
        config,
        {
          stub: { base_url: stub.url, team_id: sb.teamId, api_key: 'wsk_stub_0000', rate_limit: 0 },
        },
        'stub',
      );
      const r = await runWs(
        ['import', 'validate', 'contact', write('again.csv', rows(3)), '--json'],
        {
          env: { WS_CONFIG_DIR: config, WS_NO_CACHE: '1' },
        },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).rows, 3);
      assert.equal(stub.requests.filter((q) => q.url.includes('/properties')).length, 2);
    } finally {
      cleanup();
      await stub.close();
    }
  });

  it('exits 4 for an unknown job', async () => {
    const nf = await ws(['import', 'status', 'imp_nope']);
    assert.equal(nf.code, 4);
    assert.match(nf.stderr, /No import job has the id imp_nope/);
  });
});

describe('ws import: interrupt and resume', () => {
  /** Run `argv` and press Ctrl-C (abort its signal) once `calls` import calls went in. */
  async function interruptAfter(calls: number, argv: string[]) {
    const controller = new AbortController();
    const p = ws(argv, { signal: controller.signal });
    while (ctx.s.count(/\/contact\/import /) < calls) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    return p;
  }

  it('stops on Ctrl-C after the chunks in flight, keeps a checkpoint, and --resume finishes', async () => {
    const path = write('resume.csv', rows(2000));
    const args = ['import', 'contact', path, '--chunk-size', '100', '--concurrency', '2'];
    const r = await interruptAfter(3, args);
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /Stopping: waiting for \d chunks? in flight to finish/);
    assert.match(
      r.stderr,
      /Resume with: ws import contact .*resume\.csv --chunk-size 100 --concurrency 2 --resume/,
    );
    const done = contacts().length;
    assert.ok(done > 0 && done < 2000, `${done} rows imported before the interrupt`);
    assert.equal(done % 100, 0);
    const before = ctx.s.count(/\/contact\/import /);
    const again = await importJson([...args, '--resume']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.summary.rows, 2000);
    assert.equal(again.summary.created, 2000);
    assert.equal(contacts().length, 2000);
    assert.equal(new Set(contacts().map((c) => c['email'])).size, 2000);
    assert.equal(ctx.s.count(/\/contact\/import /) - before, (2000 - done) / 100);
    const none = await ws(['import', 'contact', path, '--chunk-size', '100', '--resume']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /There is no interrupted import of .* into contact to resume\./);
  });

  it('goes on with the chunk size of the interrupted import when --chunk-size is not given', async () => {
    const path = write('resume-size.csv', rows(1000));
    const first = ['import', 'contact', path, '--chunk-size', '100', '--concurrency', '1'];
    const r = await interruptAfter(2, first);
    assert.equal(r.code, 130, r.stderr);
    const done = contacts().length;
    assert.ok(done > 0 && done < 1000, `${done} rows imported before the interrupt`);
    const before = ctx.s.count(/\/contact\/import /);
    const again = await importJson(['import', 'contact', path, '--resume']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.summary.created, 1000);
    assert.equal(contacts().length, 1000);
    // The rest went in chunks of 100, as the interrupted import's did.
    assert.equal(ctx.s.count(/\/contact\/import /) - before, (1000 - done) / 100);
  });

  it('refuses to resume with other options or a changed file', async () => {
    const path = write('resume2.csv', rows(600));
    const r = await interruptAfter(1, [
      'import',
      'contact',
      path,
      '--chunk-size',
      '100',
      '--concurrency',
      '1',
    ]);
    assert.equal(r.code, 130, r.stderr);
    const other = await ws(['import', 'contact', path, '--chunk-size', '50', '--resume']);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /differ from those of the interrupted import/);
    writeFileSync(path, rows(600).replace('Person 5,', 'Person five,'));
    const changed = await ws([
      'import',
      'contact',
      path,
      '--chunk-size',
      '100',
      '--concurrency',
      '1',
      '--resume',
    ]);
    assert.equal(changed.code, 2, changed.stderr);
    assert.match(changed.stderr, /The input is not the same as when the import was interrupted/);
  });
});

describe('ws import: flags', () => {
  const cases: [string[], RegExp][] = [
    [['--date-format', 'ymd'], /--date-format takes dmy .* or mdy/],
    [['--delimiter', ';;'], /--delimiter takes one character/],
    [['--case-insensitive'], /--case-insensitive applies to --dedupe-by/],
    [['--list-id', 'nope'], /--list-id "nope" is not a list id/],
    [['--chunk-size', '0'], /--chunk-size takes a whole number from 1 to 100000/],
    [['--concurrency', '99'], /--concurrency takes a whole number from 1 to 32/],
    [['--resume', '--no-wait'], /--resume and --no-wait do not go together/],
    [['--resume', '--dry-run'], /a dry run sends nothing to resume/],
    [['--map', 'nothing'], /--map takes "Header=slug"/],
  ];
  for (const [flags, message] of cases) {
    it(`refuses ${flags.join(' ')} before reading anything (exit 2)`, async () => {
      const r = await ws(['import', 'contact', join(ctx.dir, 'never-read.csv'), ...flags]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(ctx.s.requests.length, 0);
    });
  }

  it('needs a type and a file, and knows the object types', async () => {
    const r = await ws(['import']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /ws import needs an object type and a file\./);
    const t = await ws(['import', 'planets', fixture('bom.csv')]);
    assert.equal(t.code, 2);
    assert.match(t.stderr, /Unknown object type "planets" for records\./);
  });
});
