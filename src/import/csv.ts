// How `ws import` reads CSV with csv-parse: the options it reads with, and the two ways it
// runs it: fed the bytes of the input piece by piece (readCsv, through CsvReader), and at
// once on a small text (the lines an unclosed quote swallowed, the text of a row the API
// rejected). Both give the same items: a record's fields, or undefined for a quote still
// open at the end of the input, and the record's raw text, which the content hash, the
// idempotency keys and the checkpoints are made of.
//
// csv-parse reads bytes, so it is given the input's UTF-8 bytes as they are read (input.ts
// checks them, or makes them from another encoding), not a decoded text that it would
// encode again. Records are taken from the parser's readable side right after each write,
// not through `on_record`, which builds an object of counters for every record.
//
// What csv-parse does under these options, which the import relies on:
// - A UTF-8 byte-order mark at the start is dropped (`bom`).
// - Every line break outside quotes ends a record, \r\n, \n or \r alike, mixed in one input
//   as files pasted together have them (`record_delimiter`; csv-parse's default would take
//   the first one met and read the others as characters of a field).
// - A quote that neither escapes a quote nor closes the field before a delimiter or the
//   end of the record is read as a character, and the field goes on (`relax_quotes`):
//   `"ab"c` is the field `"ab"c`.
// - Records keep the number of fields they have (`relax_column_count`); reader.ts judges it.
// - A quote still open at the end of the input is the only record csv-parse skips, through
//   `on_skip` with its raw text (`skip_records_with_error`).
// - A record's raw text (`raw`) runs from its first byte to the first character of the line
//   break that ends it: with \r\n the \n is in no record's text.
import type { Parser } from 'csv-parse';

/** A record of the input: its fields (undefined: a quote still open at the end) and text. */
export interface CsvItem {
  record: string[] | undefined;
  raw: string;
}

/** The options the import reads CSV with (see the top of this file). */
function options(delimiter: string) {
  return {
    delimiter,
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'] as string[],
    raw: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_records_with_error: true,
  } as const;
}

/** The skipped record csv-parse reports: a quote still open at the end of the input. */
function skippedItem(err: Error | undefined, raw: string | undefined): CsvItem | undefined {
  return err === undefined ? undefined : { record: undefined, raw: raw ?? '' };
}

/** csv-parse fed pieces of UTF-8 bytes; the records each piece completes come out at once. */
export class CsvReader {
  private readonly parser: Parser;
  private readonly skipped: CsvItem[] = [];
  private failure: Error | undefined;

  constructor(parse: typeof import('csv-parse').parse, delimiter: string) {
    this.parser = parse({
      ...options(delimiter),
      on_skip: (err: Error | undefined, raw: string | undefined) => {
        const item = skippedItem(err, raw);
        if (item) this.skipped.push(item);
      },
    });
    this.parser.on('error', (err: Error) => {
      this.failure ??= err;
    });
  }

  /** Read a piece of the input; the records it completes are appended to `out`. */
  write(bytes: Buffer, out: CsvItem[]): void {
    this.parser.write(bytes);
    this.collect(out);
  }

  /** The end of the input: the last record, or the quote left open. */
  async end(out: CsvItem[]): Promise<void> {
    const parser = this.parser;
    // The writable side finishes once csv-parse has read the end: its last records wait on
    // the readable side.
    const finished = new Promise<void>((resolve) => {
      parser.once('finish', resolve);
      parser.once('error', () => resolve());
    });
    parser.end();
    await finished;
    this.collect(out);
  }

  /** Stop reading (the input is abandoned). */
  destroy(): void {
    if (!this.parser.destroyed) this.parser.destroy();
  }

  private collect(out: CsvItem[]): void {
    const parser = this.parser;
    for (let r = parser.read() as CsvItem | null; r !== null; r = parser.read()) out.push(r);
    // Only a quote left open at the end is skipped: it comes after every record.
    if (this.skipped.length > 0) out.push(...this.skipped.splice(0));
    if (this.failure) throw this.failure;
  }
}

/** The records of a whole small text at once. */
export function readText(
  parseSync: typeof import('csv-parse/sync').parse,
  text: string,
  delimiter: string,
): CsvItem[] {
  const out: CsvItem[] = [];
  const records = parseSync(text, {
    ...options(delimiter),
    on_skip: (err: Error | undefined, raw: string | undefined) => {
      const item = skippedItem(err, raw);
      if (item) out.push(item);
    },
  }) as unknown as CsvItem[];
  // The one skipped record, a quote open at the end, comes last.
  return out.length === 0 ? records : [...records, ...out];
}
