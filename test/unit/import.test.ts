// The pieces of `ws import`: CSV events with line numbers, delimiter detection, date
// forms, header matching, chunk keys, the failed-rows CSV and the progress line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiClient } from '../../src/api/client.ts';
import type { ImportJob } from '../../src/api/imports.ts';
import { ByteList } from '../../src/import/bytes.ts';
import { detectDelimiter, parseDelimiterFlag } from '../../src/import/delimiter.ts';
import { isCanonicalDecimal } from '../../src/import/engine.ts';
import { chunkKey, fingerprint, RunningHash } from '../../src/import/keys.ts';
import { closest, normalise, parseMapFlag, resolveMapping } from '../../src/import/mapping.ts';
import { csvField, failedFilePath } from '../../src/import/outputs.ts';
import { progressLine, timeLeft } from '../../src/import/progress.ts';
import { type CsvEvent, readCsv, rowSplitter } from '../../src/import/reader.ts';
import { bodyOf, bodySuffix, JobPacer } from '../../src/import/send.ts';
import { type CellError, type Definition, toDate, typeCell } from '../../src/import/typing.ts';

/** The events of `text` read as UTF-8 in `pieces` pieces (cut anywhere, within characters too). */
async function events(text: string, pieces = 1): Promise<CsvEvent[]> {
  const bytes = Buffer.from(text);
  const size = Math.ceil(bytes.length / pieces);
  async function* source() {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  const out: CsvEvent[] = [];
  for await (const batch of readCsv(source())) out.push(...batch);
  return out;
}

const brief = (es: CsvEvent[]) =>
  es.map((e) =>
    e.kind === 'broken'
      ? `${e.kind} ${e.line}-${e.endLine} ${e.code}`
      : e.kind === 'blank'
        ? `blank ${e.line}`
        : `${e.kind} ${e.line} ${e.fields.join('|')}`,
  );

describe('readCsv', () => {
  it('numbers rows by their first line, across quoted newlines and CRLF', async () => {
    const es = await events('a,b\r\n"x\r\ny",1\r\n\r\nz,2\r\n', 3);
    assert.deepEqual(brief(es), ['header 1 a|b', 'row 2 x\r\ny|1', 'blank 4', 'row 5 z|2']);
  });

  it('reads CR, LF and CRLF mixed in one input as line breaks alike', async () => {
    // Files pasted together: before, only the first kind ended rows (2 rows, field_count).
    const text = 'email,n\ra@x.io,1\nb@x.io,2\r\nc@x.io,"3\r\nx"\rd@x.io,4\n';
    for (const pieces of [1, 7, text.length])
      assert.deepEqual(brief(await events(text, pieces)), [
        'header 1 email|n',
        'row 2 a@x.io|1',
        'row 3 b@x.io|2',
        'row 4 c@x.io|3\r\nx',
        'row 6 d@x.io|4',
      ]);
  });

  it('reports an unclosed quote and reads the lines it swallowed again', async () => {
    const es = await events('a,b,c\n1,"x,2\n3,4,5\n6,"y",7\n8,9,10\n');
    assert.deepEqual(brief(es), [
      'header 1 a|b|c',
      'broken 2-2 unclosed_quote',
      'row 3 3|4|5',
      'row 4 6|y|7',
      'row 5 8|9|10',
    ]);
  });

  it('reads a quoted field spanning lines right after an unclosed quote', async () => {
    const es = await events('a,b,c\n1,"x,2\n3,"multi\nline",5\n6,7,8\n', 2);
    assert.deepEqual(brief(es), [
      'header 1 a|b|c',
      'broken 2-2 unclosed_quote',
      'row 3 3|multi\nline|5',
      'row 5 6|7|8',
    ]);
  });

  it('reports an unclosed quote at the end of the input', async () => {
    const es = await events('a,b\n1,2\n3,"4\n5,6\n');
    assert.deepEqual(brief(es), [
      'header 1 a|b',
      'row 2 1|2',
      'broken 3-3 unclosed_quote',
      'row 4 5|6',
    ]);
  });

  it('drops empty fields after the last column, and reports other ragged rows', async () => {
    const es = await events('a,b\n1,2,,\n1\n1,2,3\n');
    assert.deepEqual(brief(es), [
      'header 1 a|b',
      'row 2 1|2',
      'broken 3-3 field_count',
      'broken 4-4 field_count',
    ]);
  });

  it('gives the raw text of every event, so the hash covers the whole input', async () => {
    const text = '\uFEFFa;b\n"1;x";2\n\n3;4';
    const es = await events(text, 4);
    assert.equal(es.map((e) => e.raw).join(''), text.slice(1));
  });
});

describe('rowSplitter', () => {
  it("splits a row's text into the fields the reader gave", async () => {
    const text = 'a;b;c\r\n"x;1";"say ""hi""";\r\n"multi\r\nline";2;3;;\r\n  spaced ;é;"ü"\r\n';
    const rows = (await events(text, 3)).filter((e) => e.kind === 'row');
    assert.equal(rows.length, 3);
    const split = await rowSplitter(';', 3);
    for (const r of rows) assert.deepEqual(split(r.raw), r.fields, r.raw);
  });
});

describe('detectDelimiter', () => {
  it('picks the delimiter the lines agree on', () => {
    assert.equal(detectDelimiter('a,b,c\n1,2,3\n', true), ',');
    assert.equal(detectDelimiter('a;b;c\n1,5;2,5;3\n4;5;6\n', true), ';');
    assert.equal(detectDelimiter('a\tb\n1\t2\n', true), '\t');
    assert.equal(detectDelimiter('a|b\n"x|y"|2\n', true), '|');
    assert.equal(detectDelimiter('name\nAda\n', true), ',');
    assert.equal(detectDelimiter('"a,b";c\n"1,2";3\n', true), ';');
  });

  it('reads --delimiter names', () => {
    assert.equal(parseDelimiterFlag('tab'), '\t');
    assert.equal(parseDelimiterFlag('\\t'), '\t');
    assert.equal(parseDelimiterFlag(';'), ';');
    assert.equal(parseDelimiterFlag('semicolon'), ';');
    assert.equal(parseDelimiterFlag(';;'), undefined);
    assert.equal(parseDelimiterFlag('"'), undefined);
  });
});

describe('toDate', () => {
  const cases: [string, 'dmy' | 'mdy' | undefined, string][] = [
    ['2024-04-13', undefined, '2024-04-13'],
    ['2024/4/3', undefined, '2024-04-03'],
    ['13.04.2024', undefined, '2024-04-13'],
    ['13/04/2024', undefined, '2024-04-13'],
    ['04/13/2024', undefined, '2024-04-13'],
    ['05/05/2024', undefined, '2024-05-05'],
    ['03/04/2024', 'dmy', '2024-04-03'],
    ['03/04/2024', 'mdy', '2024-03-04'],
    ['2024-04-13 10:30', undefined, '2024-04-13T10:30:00'],
    ['2024-04-13T10:30:15.5Z', undefined, '2024-04-13T10:30:15.500Z'],
    ['2024-04-13T10:30:00+0200', undefined, '2024-04-13T08:30:00.000Z'],
  ];
  for (const [text, order, iso] of cases) {
    it(`${text}${order ? ` (${order})` : ''} → ${iso}`, () =>
      assert.equal(toDate(text, order), iso));
  }

  it('rejects ambiguous, impossible and two-digit-year dates', () => {
    const code = (text: string) => {
      try {
        toDate(text, undefined);
        return 'ok';
      } catch (err) {
        return (err as CellError).code;
      }
    };
    assert.equal(code('03/04/2024'), 'ambiguous_date');
    assert.equal(code('2024-02-30'), 'invalid_date');
    assert.equal(code('31.02.2024'), 'invalid_date');
    assert.equal(code('03/04/24'), 'invalid_date');
    assert.equal(code('2024-04-13 25:00'), 'invalid_date');
    assert.equal(code('yesterday'), 'invalid_date');
  });
});

describe('typeCell', () => {
  const def = (type: string, extra: Partial<Definition> = {}) =>
    ({ id: '00000000-0000-4000-8000-000000000001', slug: 's', type, ...extra }) as Definition;
  const opts = { arraySep: ';', dateOrder: undefined };

  it('types numbers (with grouped thousands), booleans, lists, JSON and references', () => {
    assert.equal(typeCell(def('num'), '1,234.5', opts), 1234.5);
    assert.equal(typeCell(def('num'), '-2e3', opts), -2000);
    for (const t of ['true', 'YES', '1', 'y']) assert.equal(typeCell(def('bool'), t, opts), true);
    for (const f of ['false', 'No', '0']) assert.equal(typeCell(def('bool'), f, opts), false);
    assert.deepEqual(typeCell(def('multi_str'), ' a ; b ;; ', opts), ['a', 'b']);
    assert.deepEqual(typeCell(def('jsonb'), '{"a":1}', opts), { a: 1 });
    const id = 'A0000000-0000-4000-8000-000000000000';
    assert.equal(typeCell(def('ref_contact'), id, opts), id.toLowerCase());
    assert.deepEqual(typeCell(def('multiref_contact'), `${id};${id}`, opts), [
      id.toLowerCase(),
      id.toLowerCase(),
    ]);
    assert.equal(typeCell(def('str'), ' kept as is ', opts), ' kept as is ');
    assert.equal(typeCell(def('text'), 'null', opts), 'null');
  });

  it('matches select options by slug or display value, case-insensitively', () => {
    const options = [
      { id: '10000000-0000-4000-8000-000000000000', slug: 'in_progress', value: 'In progress' },
      { id: '20000000-0000-4000-8000-000000000000', slug: 'done', value: 'Done' },
    ];
    assert.equal(typeCell(def('select_str', { options }), 'IN PROGRESS', opts), 'in_progress');
    assert.equal(typeCell(def('select_str', { options }), 'done', opts), 'done');
    assert.deepEqual(typeCell(def('multiselect_str', { options }), 'Done; in_progress', opts), [
      'done',
      'in_progress',
    ]);
  });

  it('fails with a code per kind', () => {
    const codeOf = (type: string, text: string) => {
      try {
        typeCell(def(type, { options: [] }), text, opts);
        return 'ok';
      } catch (err) {
        return (err as CellError).code;
      }
    };
    assert.equal(codeOf('num', '12abc'), 'invalid_number');
    assert.equal(codeOf('num', '1.234,5.6'), 'invalid_number');
    assert.equal(codeOf('num', '1,234'), 'ambiguous_number');
    assert.equal(codeOf('num', '12%'), 'ambiguous_percent');
    assert.equal(codeOf('bool', 'maybe'), 'invalid_boolean');
    assert.equal(codeOf('select_str', 'x'), 'unknown_option');
    assert.equal(codeOf('jsonb', '{oops}'), 'invalid_json');
    assert.equal(codeOf('ref_contact', 'nope'), 'invalid_reference');
    assert.equal(codeOf('date', '31/31/2024'), 'invalid_date');
  });
});

describe('mapping', () => {
  const defs = [
    { id: '1', slug: 'name', name: 'Name', type: 'str' },
    { id: '2', slug: 'email', name: 'Email', type: 'str' },
    { id: '3', slug: 'title', name: 'Job title', type: 'str' },
    { id: '4', slug: 'phone', name: 'Phone', type: 'str' },
  ] as Definition[];

  it('matches headers by slug, then by name, ignoring case, spaces, _ and -', () => {
    assert.equal(normalise('Job Title'), normalise('job_title'));
    const { columns, unknown } = resolveMapping({
      headers: ['NAME', 'job-title', 'E-Mail', 'Mobile phone', 'ws_line'],
      defs,
      map: [],
      mapFile: undefined,
      skip: [],
    });
    assert.deepEqual(
      columns.map((c) => [c.header, c.def?.slug ?? null, c.how]),
      [
        ['NAME', 'name', 'slug'],
        ['job-title', 'title', 'name'],
        ['E-Mail', 'email', 'slug'],
        ['Mobile phone', null, 'skip'],
        ['ws_line', null, 'ws'],
      ],
    );
    assert.deepEqual(
      unknown.map((u) => [u.header, u.suggestions.map((d) => d.slug)]),
      [['Mobile phone', ['phone']]],
    );
  });

  it('suggests the closest properties', () => {
    assert.deepEqual(
      closest(defs, 'Emial').map((d) => d.slug),
      ['email'],
    );
    assert.deepEqual(closest(defs, 'Zodiac sign'), []);
  });

  it('reads --map values', () => {
    assert.deepEqual(parseMapFlag('A=b=c'), ['A=b', 'c']);
    assert.deepEqual(parseMapFlag('Notes='), ['Notes', null]);
    assert.throws(() => parseMapFlag('nothing'), /--map takes "Header=slug"/);
  });
});

describe('chunk keys', () => {
  it('depend on the options and definitions, the chunk and the content up to it', () => {
    const h = new RunningHash();
    h.update('a,b\n');
    const at = h.at();
    h.update('1,2\n');
    assert.notEqual(at, h.at());
    // Batched updates hash the same text as one update of it all.
    const whole = new RunningHash();
    whole.update(`a,b\n1,2\n${'x'.repeat(70000)}`);
    h.update('x'.repeat(70000));
    assert.equal(h.at(), whole.at());
    const fp = fingerprint({ b: 1, a: [1, { d: 2, c: 3 }] });
    assert.equal(fp, fingerprint({ a: [1, { c: 3, d: 2 }], b: 1 }));
    const k = chunkKey(fp, 0, at);
    assert.match(k, /^ws-import-[0-9a-f]{64}$/);
    assert.equal(k, chunkKey(fp, 0, at));
    assert.notEqual(k, chunkKey(fp, 1, at));
    assert.notEqual(k, chunkKey(fp, 0, h.at()));
    assert.notEqual(k, chunkKey(fingerprint({ b: 2 }), 0, at));
  });
});

describe('ByteList', () => {
  it('keeps texts as UTF-8 after a prefix with separators, finds each again, and ends as the body', () => {
    const texts = ['{"a":"é"}', '{"b":"日本"}', `{"c":"${'x'.repeat(300)}"}`];
    // A capacity smaller than the texts: the buffer grows as they come.
    const list = new ByteList('{"objects":[', ',', 16);
    for (const t of texts) list.push(t);
    assert.equal(list.length, 3);
    for (const [i, t] of texts.entries()) assert.equal(list.at(i), t);
    assert.equal(list.at(3), undefined);
    const body = list.finish(']}');
    assert.equal(body.length, list.bytes);
    assert.deepEqual(JSON.parse(body.toString('utf8')), {
      objects: [{ a: 'é' }, { b: '日本' }, { c: 'x'.repeat(300) }],
    });
  });

  it('finds every text and counts its bytes, whether its texts are ASCII or not', () => {
    // ASCII, two- and three-byte characters, and a pair of surrogates (4 bytes); texts
    // written many at once, and one at a time (each count of bytes writes what is pending).
    const kinds = ['plain', 'café', '日本語', '😀'];
    for (const mixed of [false, true]) {
      for (const countEach of [false, true]) {
        const list = new ByteList('{"objects":[', ',', 1024);
        const texts: string[] = [];
        let expected = Buffer.byteLength('{"objects":[');
        for (let i = 0; i < 3000; i++) {
          const s = mixed ? kinds[i % 4]! : 'plain';
          const t = `{"n":${i},"s":"${s.repeat(1 + (i % 50))}"}`;
          texts.push(t);
          list.push(t);
          expected += (i > 0 ? 1 : 0) + Buffer.byteLength(t);
          assert.ok(list.mostBytes >= expected);
          if (countEach) {
            for (const n of [expected - 1, expected, expected + 1])
              assert.equal(list.reaches(n), expected >= n, `text ${i}, reaches ${n}`);
            assert.equal(list.bytes, expected, `after text ${i}`);
          } else {
            // Far from `n`, the bounds answer (nothing pending is written).
            assert.equal(list.reaches(Math.floor(expected / 4)), true);
            assert.equal(list.reaches(expected * 4), false);
          }
        }
        for (const n of [expected - 1, expected, expected + 1])
          assert.equal(list.reaches(n), expected >= n, `reaches ${n}`);
        for (const [i, t] of texts.entries()) assert.equal(list.at(i), t);
        assert.equal(list.bytes, expected);
      }
    }
    const list = new ByteList('{"objects":[', ',', 1024);
    const texts: string[] = [];
    for (let i = 0; i < 3000; i++) {
      texts.push(`{"n":${i},"s":"${kinds[i % 4]!.repeat(1 + (i % 50))}"}`);
      list.push(texts[i]!);
    }
    for (const i of [0, 1, 777, 1499, 2999]) assert.equal(list.at(i), texts[i]);
    // Texts pushed after a read are found too.
    list.push('{"last":"ü"}');
    assert.equal(list.at(3000), '{"last":"ü"}');
    const body = list.finish(']}');
    assert.equal(body.length, list.bytes);
    assert.equal(JSON.parse(body.toString('utf8')).objects.length, 3001);
  });

  it('keeps empty texts and texts without a separator', () => {
    const list = new ByteList();
    for (const t of ['a,b\r', '', 'ü\n']) list.push(t);
    assert.deepEqual([list.at(0), list.at(1), list.at(2)], ['a,b\r', '', 'ü\n']);
  });
});

describe('import bodies', () => {
  it('builds the same JSON from an array as a chunk builds as bytes, with and without options', () => {
    const objects = ['{"default":{"a":1}}', '{"default":{"b":"日本"}}'];
    for (const options of [undefined, '{"dedupe_by":"email"}']) {
      const list = new ByteList('{"objects":[', ',');
      for (const o of objects) list.push(o);
      const bytes = list.finish(bodySuffix(options)).toString('utf8');
      assert.equal(bodyOf(objects, options), bytes);
      assert.deepEqual(JSON.parse(bytes), {
        objects: objects.map((o) => JSON.parse(o)),
        ...(options ? { options: JSON.parse(options) } : {}),
      });
    }
  });
});

describe('JobPacer', () => {
  /** A client whose job polls answer from `answers` (per job id, in turn), recording them. */
  function fakeClient(answers: Record<string, Partial<ImportJob>[]>) {
    const polls: string[] = [];
    const client = {
      teamId: 't',
      async request(init: { path: string[] }) {
        const id = init.path.at(-1)!;
        polls.push(id);
        return { status: 200, headers: {}, body: answers[id]!.shift() };
      },
    } as unknown as ApiClient;
    return { client, polls };
  }
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
  const job = (id: string, more: Partial<ImportJob>): ImportJob =>
    ({ job_id: id, total: 1000, processed: 0, created_at: at(0), ...more }) as ImportJob;

  it('polls a job only once the job started before it has ended, then at the pace seen', async () => {
    const { client, polls } = fakeClient({
      a: [
        job('a', { status: 'processing', processed: 500, updated_at: at(40) }),
        job('a', { status: 'complete', processed: 1000, updated_at: at(80) }),
      ],
      b: [job('b', { status: 'complete', processed: 1000, updated_at: at(160) })],
    });
    const pacer = new JobPacer();
    const signal = new AbortController().signal;
    const started = performance.now();
    const [a, b] = await Promise.all([
      pacer.wait(client, job('a', { status: 'processing' }), signal),
      pacer.wait(client, job('b', { status: 'processing', created_at: at(10) }), signal),
    ]);
    assert.equal(a.status, 'complete');
    assert.equal(b.status, 'complete');
    // b waited behind a, and its first poll found it done: three requests for two jobs.
    assert.deepEqual(polls, ['a', 'a', 'b']);
    // a: 250 ms before anything is known, then the rest of its rows at its own pace (40 ms);
    // b: its 1,000 rows at the 0.08 ms a row a took (80 ms).
    assert.ok(performance.now() - started >= 250 + 40 + 80 - 5);
    assert.equal(pacer.firstDelay(2000, 0), 160);
  });
});

describe('outputs and progress', () => {
  it('names the failed-rows file after the input', () => {
    const now = new Date('2026-03-31T09:30:15Z');
    assert.equal(failedFilePath('/d/contacts.csv', now, '/cwd'), '/d/contacts.failed.csv');
    assert.equal(failedFilePath('/d/export', now, '/cwd'), '/d/export.failed.csv');
    // A failed-rows file imported again: the next round, never .failed.failed.
    assert.equal(failedFilePath('/d/contacts.failed.csv', now, '/cwd'), '/d/contacts.failed-2.csv');
    assert.equal(failedFilePath('/d/c.failed-2.csv', now, '/cwd'), '/d/c.failed-3.csv');
    assert.equal(failedFilePath(undefined, now, '/cwd'), '/cwd/stdin-20260331-093015.failed.csv');
  });

  it('quotes CSV fields that need it, for the file delimiter', () => {
    assert.equal(csvField('a;b', ';'), '"a;b"');
    assert.equal(csvField('a;b', ','), 'a;b');
    assert.equal(csvField('say "hi"', ','), '"say ""hi"""');
    assert.equal(csvField(' pad', ','), '" pad"');
  });

  it('shows counts, rate and time left from the share of the file read', () => {
    const snap = {
      label: 'people.csv',
      read: 5000,
      sent: 4000,
      processed: 3000,
      failed: 12,
      elapsedMs: 2000,
      bytesRead: 500,
      size: 1000,
      dryRun: false,
    };
    // Half the file read, 10,000 rows in all: 7,000 left at the 1.5 rows/ms processed.
    assert.equal(Math.round(timeLeft(snap)!), 4667);
    assert.equal(
      progressLine(snap),
      'Importing people.csv: 5,000 read · 4,000 sent · 3,000 processed · 12 failed · 1,500 rows/s · 4.7s left',
    );
    assert.equal(timeLeft({ ...snap, size: undefined }), undefined);
  });
});

describe('isCanonicalDecimal', () => {
  it('holds for texts that JavaScript writes back the same, and for no other', () => {
    for (const t of ['0', '7', '-7', '42', '100.5', '-0.25', '0.000001', '123456789012345']) {
      assert.equal(isCanonicalDecimal(t), true, t);
    }
    for (const t of [
      '-0',
      '01',
      '1.50',
      '1.',
      '.5',
      '+1',
      '1e3',
      '0.0000001',
      '1234567890123456',
    ]) {
      assert.equal(isCanonicalDecimal(t), false, t);
    }
    // Random decimals of up to 18 digits with zeros placed where they matter: whenever the
    // text is held canonical, it is what String(Number(text)) gives.
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) % n;
    };
    const digit = () => (rnd(4) === 0 ? '0' : String(rnd(10)));
    let held = 0;
    for (let k = 0; k < 50_000; k++) {
      const int =
        rnd(5) === 0 ? '0' : `${1 + rnd(9)}${Array.from({ length: rnd(18) }, digit).join('')}`;
      const frac = rnd(2) ? '' : `.${Array.from({ length: 1 + rnd(12) }, digit).join('')}`;
      const t = `${rnd(3) === 0 ? '-' : ''}${int}${frac}`;
      if (isCanonicalDecimal(t)) {
        held++;
        assert.equal(String(Number(t)), t, t);
      }
    }
    assert.ok(held > 10_000, `${held} canonical texts checked`);
  });
});
