// Reading CSV as a stream of events with line numbers, on csv-parse (csv.ts, loaded when an
// import starts).
//
// - The delimiter is detected from the first 64 KiB unless given.
// - Quoted fields may hold delimiters, newlines and doubled quotes.
// - A blank line, or a row of empty fields, is skipped (and counted).
// - A row with the wrong number of fields is reported as broken (extra empty fields at the
//   end of a row are dropped quietly: spreadsheets write them).
// - An unclosed quote swallows the lines after it into one field. When a quoted field that
//   spans lines turns out to be malformed (csv-parse falls back to reading it literally, or
//   reaches the end of the input with the quote still open), the line where the quote opened
//   is reported as broken and the lines it swallowed are read again as rows of their own.
import { UsageError, WsError } from '../errors.ts';
import { type CsvItem, CsvReader, readText } from './csv.ts';
import { detectDelimiter } from './delimiter.ts';
import type { RunningHash } from './keys.ts';

export type CsvEvent =
  | { kind: 'header'; line: number; fields: string[]; raw: string }
  | { kind: 'row'; line: number; endLine: number; fields: string[]; raw: string }
  | { kind: 'blank'; line: number; raw: string }
  | {
      kind: 'broken';
      line: number;
      endLine: number;
      fields: string[];
      raw: string;
      code: BrokenCode;
      message: string;
    };

export type BrokenCode = 'unclosed_quote' | 'field_count';

export interface ReadOptions {
  /** Default: detected. */
  delimiter?: string | undefined;
  /** Told the delimiter once it is known. */
  onDelimiter?: (d: string) => void;
}

/** Most text read again after an unclosed quote before giving up on finding its end. */
const MAX_PENDING = 1024 * 1024;
const SNIFF_BYTES = 64 * 1024;
const LINE_END = /\r\n|\n|\r/g;

/** Line breaks in a text (\r\n is one). */
function lineEnds(text: string): number {
  const lf = text.indexOf('\n');
  if (!text.includes('\r')) {
    if (lf < 0) return 0;
    // Most records: one line, ended by its \n.
    if (lf === text.length - 1) return 1;
    let n = 0;
    for (let i = lf; i >= 0; i = text.indexOf('\n', i + 1)) n++;
    return n;
  }
  let n = 0;
  LINE_END.lastIndex = 0;
  while (LINE_END.exec(text) !== null) n++;
  return n;
}

/** Whether a record's text ends with the line break that ends it. */
function endsLine(raw: string): boolean {
  const last = raw.charCodeAt(raw.length - 1);
  return last === 10 || last === 13;
}

/** The csv-parse modules: the stream for the input, the one-call form for small texts. */
type CsvParse = [typeof import('csv-parse'), typeof import('csv-parse/sync')];
const loadCsvParse = (): Promise<CsvParse> =>
  Promise.all([import('csv-parse'), import('csv-parse/sync')]);

/**
 * The events of a CSV input (UTF-8 bytes, see input.ts), in batches (one per piece read):
 * first the header, then rows, blank lines and broken rows in the order of the input.
 */
export async function* readCsv(
  bytes: AsyncIterable<Buffer>,
  opts: ReadOptions = {},
): AsyncGenerator<CsvEvent[]> {
  const source = bytes[Symbol.asyncIterator]();
  // Enough of the start to detect the delimiter.
  const head: Buffer[] = [];
  let headSize = 0;
  let done = false;
  while (headSize < SNIFF_BYTES) {
    const next = await source.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    headSize += next.value.length;
  }
  const delimiter = opts.delimiter ?? detectDelimiter(Buffer.concat(head).toString('utf8'), done);
  opts.onDelimiter?.(delimiter);

  const [{ parse }, { parse: parseSync }] = await loadCsvParse();
  const reader = new CsvReader(parse, delimiter);
  const state = new Interpreter(delimiter, parseSync);
  const items: CsvItem[] = [];
  const batch = (): CsvEvent[] => {
    const out: CsvEvent[] = [];
    for (const item of items) state.take(item, out);
    items.length = 0;
    return out;
  };
  try {
    for (const piece of head.splice(0)) {
      reader.write(piece, items);
      yield batch();
    }
    if (!done) {
      for (let next = await source.next(); !next.done; next = await source.next()) {
        reader.write(next.value, items);
        yield batch();
      }
    }
    await reader.end(items);
    const last = batch();
    state.end(last);
    yield last;
  } finally {
    reader.destroy();
    await source.return?.();
  }
}

/** Turns csv-parse's records into events, keeping the line count. */
class Interpreter {
  private line = 1;
  private columns: number | undefined;
  /** Text to read again after an unclosed quote, from `line`. */
  private pending: { text: string; line: number } | undefined;
  private readonly delimiter: string;
  private readonly parseSync: CsvParse[1]['parse'];

  constructor(delimiter: string, parseSync: CsvParse[1]['parse']) {
    this.delimiter = delimiter;
    this.parseSync = parseSync;
  }

  take(item: CsvItem, out: CsvEvent[]): void {
    const start = this.line;
    const ends = lineEnds(item.raw);
    this.line += ends;
    if (this.pending) {
      // After a recovery, the parser's records may have split the text in the wrong places
      // (a quote it took as closing opened a field): read its text again with the rest.
      this.pending.text += item.raw;
      this.drain(false, out);
      return;
    }
    this.events(item, start, ends, out);
  }

  /** The end of the input: whatever waits to be read again is read now. */
  end(out: CsvEvent[]): void {
    if (this.pending) this.drain(true, out);
  }

  /**
   * Read the pending text again, once it parses into whole records (or at the end, or
   * when it grows past MAX_PENDING).
   */
  private drain(final: boolean, out: CsvEvent[]): void {
    const p = this.pending!;
    // Read again at once, with what came after it.
    const items = readText(this.parseSync, p.text, this.delimiter);
    const open = items.length > 0 && items[items.length - 1]!.record === undefined;
    if (open && !final && p.text.length < MAX_PENDING) return;
    this.pending = undefined;
    let next = p.line;
    for (const sub of items) {
      const start = next;
      const ends = lineEnds(sub.raw);
      next += ends;
      // A recovery among these items holds the rest of them back again.
      const held = this.held();
      if (held) held.text += sub.raw;
      else this.events(sub, start, ends, out);
    }
    if (this.held()) this.drain(final, out);
  }

  private held(): { text: string; line: number } | undefined {
    return this.pending;
  }

  /** The events of a record that starts on `line` and holds `ends` line breaks. */
  private events(item: CsvItem, line: number, ends: number, out: CsvEvent[]): void {
    const raw = item.raw;
    // The line break that ends the record is not one inside it.
    const endLine = line + (ends > 0 && endsLine(raw) ? ends - 1 : ends);
    let fields = item.record;
    if (this.columns === undefined) {
      if (fields === undefined) {
        throw new WsError(
          `The header on line ${line} cannot be read: a quote in it is never closed.`,
          {
            exitCode: 2,
            code: 'usage',
            hint: 'Fix the first line of the file: it names the columns.',
          },
        );
      }
      if (isBlank(fields)) {
        out.push({ kind: 'blank', line, raw });
        return;
      }
      this.columns = fields.length;
      out.push({ kind: 'header', line, fields, raw });
      return;
    }
    const spans = endLine > line;
    if (fields === undefined) {
      // A quote still open at the end of the input.
      if (spans) {
        this.recover(item, line, out);
        return;
      }
      out.push({
        kind: 'broken',
        line,
        endLine,
        fields: [],
        raw,
        code: 'unclosed_quote',
        message: 'a quote opened on this line is never closed',
      });
      return;
    }
    if (isBlank(fields)) {
      out.push({ kind: 'blank', line, raw });
      return;
    }
    if (spans && fields.some((f) => f.startsWith('"') && /[\r\n]/.test(f))) {
      this.recover(item, line, out);
      return;
    }
    fields = withoutBlankExtras(fields, this.columns);
    if (fields.length !== this.columns) {
      const n = fields.length;
      out.push({
        kind: 'broken',
        line,
        endLine,
        fields,
        raw,
        code: 'field_count',
        message: `${n} field${n === 1 ? '' : 's'} where the header has ${this.columns}`,
      });
      return;
    }
    out.push({ kind: 'row', line, endLine, fields, raw });
  }

  /**
   * A quote opened on `line` ran over the following lines: report that line, and read the
   * lines it swallowed again.
   */
  private recover(item: CsvItem, line: number, out: CsvEvent[]): void {
    LINE_END.lastIndex = 0;
    const m = LINE_END.exec(item.raw)!;
    const first = item.raw.slice(0, m.index + m[0].length);
    const rest = item.raw.slice(m.index + m[0].length);
    out.push({
      kind: 'broken',
      line,
      endLine: line,
      fields: [],
      raw: first,
      code: 'unclosed_quote',
      message: 'a quote opened on this line is not closed properly',
    });
    if (rest === '') return;
    this.pending = { text: rest, line: line + 1 };
    this.drain(false, out);
  }
}

/** Empty fields past the header's columns are dropped quietly: spreadsheets write them. */
function withoutBlankExtras(fields: string[], columns: number): string[] {
  return fields.length > columns && isBlank(fields.slice(columns))
    ? fields.slice(0, columns)
    : fields;
}

/**
 * Splits a row's text into its fields again, as readCsv gave them. An import keeps the text
 * of the rows it has sent rather than their fields (one string a row instead of an array
 * of them, while the chunk is in flight), and splits it again for a row the API rejects.
 */
export async function rowSplitter(
  delimiter: string,
  columns: number,
): Promise<(raw: string) => string[]> {
  const [, { parse: parseSync }] = await loadCsvParse();
  return (raw) => withoutBlankExtras(readText(parseSync, raw, delimiter)[0]?.record ?? [], columns);
}

/** Every field empty or spaces only (most rows are told by their first character). */
function isBlank(fields: readonly string[]): boolean {
  for (const f of fields) {
    if (f === '') continue;
    const first = f.charCodeAt(0);
    if ((first > 32 && first < 0x80) || f.trim() !== '') return false;
  }
  return true;
}

export type HeaderEvent = Extract<CsvEvent, { kind: 'header' }>;

/**
 * Read up to the header (blank lines before it are skipped; no header is an empty file),
 * and on to the first batch of events after it (empty when the file has no rows). `hash`
 * is fed the text read up to the header; `label` names the input in messages.
 */
export async function readHeader(
  batches: AsyncIterator<CsvEvent[]>,
  hash: RunningHash,
  label: string,
): Promise<{ header: HeaderEvent; first: CsvEvent[] }> {
  let header: HeaderEvent | undefined;
  for (;;) {
    const next = await batches.next();
    if (next.done) {
      if (header) return { header, first: [] };
      throw new UsageError(
        `${label} is empty: there is nothing to import.`,
        'The first line of the file names the columns; the rows follow it.',
      );
    }
    let events = next.value;
    if (!header) {
      const at = events.findIndex((e) => e.kind === 'header');
      for (const e of events.slice(0, at < 0 ? events.length : at + 1)) hash.update(e.raw);
      if (at < 0) continue;
      header = events[at] as HeaderEvent;
      events = events.slice(at + 1);
    }
    if (events.length > 0) return { header, first: events };
  }
}
