// The import's CSV tokenizer reads as csv-parse read for it (the fields and the raw text of
// every record, the unclosed quote at the end), whatever the input and however it is cut
// into pieces: checked here on fixed cases and on generated ones, against csv-parse itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { type CsvItem, CsvTokenizer, tokenize } from '../../src/import/csv.ts';

type Seen = { fields: string[] | undefined; raw: string };

/** What csv-parse gives with the options the import used with it. */
function csvParse(text: string, delimiter: string): Seen[] {
  const out: Seen[] = [];
  parse(text, {
    delimiter,
    bom: true,
    raw: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_records_with_error: true,
    on_record: (r: { record: string[]; raw: string }) => {
      out.push({ fields: r.record, raw: r.raw });
      return null;
    },
    on_skip: (err: { code?: string } | undefined, raw?: string) => {
      assert.equal(err?.code, 'CSV_QUOTE_NOT_CLOSED');
      out.push({ fields: undefined, raw: raw ?? '' });
    },
  } as never);
  return out;
}

/** The tokenizer's items for `text` cut at `cuts`. */
function pieces(text: string, delimiter: string, cuts: number[]): CsvItem[] {
  const t = new CsvTokenizer(delimiter);
  const out: CsvItem[] = [];
  let from = 0;
  for (const at of [...cuts, text.length]) {
    t.write(text.slice(from, at), out);
    from = at;
  }
  t.end(out);
  return out;
}

const seen = (items: CsvItem[]): Seen[] => items.map(({ fields, raw }) => ({ fields, raw }));

function lineBreaks(raw: string): number {
  return raw.match(/\r\n|\n|\r/g)?.length ?? 0;
}

/** A small deterministic generator (the cases are the same on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('CsvTokenizer', () => {
  const cases: [string, string][] = [
    ['a,b\r\n1,2\r\n', ','],
    ['a,b\r\n"x""y",2\r\n3,"4\r\n5', ','],
    ['\uFEFFa,b\n"ab"c,d\n', ','],
    ['a\rb\nc\r', ','],
    ['"a"\r\nb\rc\r\n', ','],
    ['x,"a""\nb",c\n', ','],
    ['"ab"\n', ','],
    ['', ','],
    ['\n\n', ','],
    ['a,', ','],
    ['a,\n', ','],
    ['""', ','],
    ['"', ','],
    ['"a"b"c",d', ','],
    ['a;"b;c";d\r\ne;f;g', ';'],
    ['a\t"b\tc"\n', '\t'],
    ['a,"b"\r', ','],
    ['a,"b"\rc', ','],
    ['é,"ü\n"""\n', ','],
  ];
  for (const [text, delimiter] of cases) {
    it(`reads ${JSON.stringify(text)} as csv-parse does, in any pieces`, () => {
      const want = csvParse(text, delimiter);
      assert.deepEqual(seen(tokenize(text, delimiter)), want);
      for (let at = 0; at <= text.length; at++)
        assert.deepEqual(seen(pieces(text, delimiter, [at])), want, `cut at ${at}`);
    });
  }

  it('reads 3,000 generated inputs as csv-parse does, cut anywhere', () => {
    const next = random(12);
    const alphabet = ['a', 'b', ',', ',', '"', '"', '\n', '\r', '\r\n', ' ', 'é', ';'];
    for (let n = 0; n < 3000; n++) {
      let text = next() < 0.05 ? '\uFEFF' : '';
      const size = Math.floor(next() * 40);
      for (let i = 0; i < size; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      const delimiter = next() < 0.8 ? ',' : ';';
      const want = csvParse(text, delimiter);
      const cuts = [Math.floor(next() * text.length), Math.floor(next() * text.length)].sort(
        (a, b) => a - b,
      );
      const got = pieces(text, delimiter, cuts);
      assert.deepEqual(seen(got), want, `${JSON.stringify(text)} cut at ${cuts}`);
      for (const item of got) {
        if (item.lineEnds >= 0) assert.equal(item.lineEnds, lineBreaks(item.raw), item.raw);
      }
    }
  });

  it('reads a field that spans many pieces, and an unclosed quote to the end, in one pass', () => {
    const long = 'x'.repeat(100_000);
    const text = `a,b\n"${long}\n""${long}",2\n3,"${long}`;
    const cuts = Array.from({ length: 60 }, (_, i) => (i + 1) * 5000);
    assert.deepEqual(seen(pieces(text, ',', cuts)), csvParse(text, ','));
  });
});
