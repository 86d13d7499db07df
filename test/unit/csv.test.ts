// How the import reads CSV with csv-parse (src/import/csv.ts): the rules the rest of the
// import relies on (fields, raw text, line breaks of every kind, the quote left open), and
// that the input read in pieces of bytes, cut anywhere (inside a character, between \r and
// \n), gives the same records as the whole text read at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { type CsvItem, CsvReader, readText } from '../../src/import/csv.ts';

/** The reader's items for `text` as UTF-8 bytes cut at `cuts` (byte offsets). */
async function pieces(text: string, delimiter: string, cuts: number[]): Promise<CsvItem[]> {
  const bytes = Buffer.from(text);
  const reader = new CsvReader(parse, delimiter);
  const out: CsvItem[] = [];
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    reader.write(bytes.subarray(from, at), out);
    from = at;
  }
  await reader.end(out);
  return out;
}

const plain = (items: CsvItem[]) => items.map(({ record, raw }) => ({ record, raw }));

/** A small deterministic generator (the cases are the same on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('reading CSV with csv-parse', () => {
  const cases: [string, string, CsvItem[]][] = [
    [
      'a,b\r\n"x""y",2\r\n',
      ',',
      [
        { record: ['a', 'b'], raw: 'a,b\r' },
        { record: ['x"y', '2'], raw: '"x""y",2\r' },
      ],
    ],
    [
      '\uFEFFa,b\n"ab"c,d\n',
      ',',
      [
        { record: ['a', 'b'], raw: 'a,b\n' },
        { record: ['"ab"c', 'd'], raw: '"ab"c,d\n' },
      ],
    ],
    // Mixed line endings: each one ends a record.
    [
      'h\r1\n2\r\n3\r4',
      ',',
      [
        { record: ['h'], raw: 'h\r' },
        { record: ['1'], raw: '1\n' },
        { record: ['2'], raw: '2\r' },
        { record: ['3'], raw: '3\r' },
        { record: ['4'], raw: '4' },
      ],
    ],
    ['x,"a\r\nb",c\n', ',', [{ record: ['x', 'a\r\nb', 'c'], raw: 'x,"a\r\nb",c\n' }]],
    [
      '\n\n',
      ',',
      [
        { record: [''], raw: '\n' },
        { record: [''], raw: '\n' },
      ],
    ],
    ['a,', ',', [{ record: ['a', ''], raw: 'a,' }]],
    [
      'a;"b;c";d\r\ne;f;g',
      ';',
      [
        { record: ['a', 'b;c', 'd'], raw: 'a;"b;c";d\r' },
        { record: ['e', 'f', 'g'], raw: 'e;f;g' },
      ],
    ],
    [
      'é,ü\n1,"x',
      ',',
      [
        { record: ['é', 'ü'], raw: 'é,ü\n' },
        { record: undefined, raw: '1,"x' },
      ],
    ],
    ['', ',', []],
  ];
  for (const [text, delimiter, want] of cases) {
    it(`reads ${JSON.stringify(text)}, whole and cut at every byte`, async () => {
      assert.deepEqual(plain(readText(parseSync, text, delimiter)), want);
      for (let at = 0; at <= Buffer.byteLength(text); at++)
        assert.deepEqual(plain(await pieces(text, delimiter, [at])), want, `cut at ${at}`);
    });
  }

  it('reads 2,000 generated inputs the same in pieces as at once', async () => {
    const next = random(12);
    const alphabet = ['a', 'b', ',', ',', '"', '"', '\n', '\r', '\r\n', ' ', 'é', ';', '€'];
    for (let n = 0; n < 2000; n++) {
      let text = next() < 0.05 ? '\uFEFF' : '';
      const size = Math.floor(next() * 40);
      for (let i = 0; i < size; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      const delimiter = next() < 0.8 ? ',' : ';';
      const bytes = Buffer.byteLength(text);
      const cuts = [Math.floor(next() * bytes), Math.floor(next() * bytes)].sort((a, b) => a - b);
      assert.deepEqual(
        plain(await pieces(text, delimiter, cuts)),
        plain(readText(parseSync, text, delimiter)),
        `${JSON.stringify(text)} cut at ${cuts}`,
      );
    }
  });

  it('reads a field that spans many pieces, and a quote left open to the end', async () => {
    const long = 'x'.repeat(100_000);
    const text = `a,b\n"${long}\n""${long}",2\n3,"${long}`;
    const cuts = Array.from({ length: 60 }, (_, i) => (i + 1) * 5000);
    const got = plain(await pieces(text, ',', cuts));
    assert.deepEqual(got, plain(readText(parseSync, text, ',')));
    assert.deepEqual(
      got.map((i) => i.record?.map((f) => f.length)),
      [[1, 1], [2 * long.length + 2, 1], undefined],
    );
  });
});
