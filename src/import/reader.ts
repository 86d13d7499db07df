// Reading CSV as a stream of events with line numbers, on the tokenizer of csv.ts.
//
// - The delimiter is detected from the first 64 KiB unless given.
// - Quoted fields may hold delimiters, newlines and doubled quotes.
// - A blank line, or a row of empty fields, is skipped (and counted).
// - A row with the wrong number of fields is reported as broken (extra empty fields at the
//   end of a row are dropped quietly: spreadsheets write them).
// - An unclosed quote swallows the lines after it into one field. When a quoted field that
//   spans lines turns out to be malformed (the tokenizer falls back to reading it literally,
//   or reaches the end of the input with the quote still open), the line where the quote
//   opened is reported as broken and the lines it swallowed are read again as rows of their
//   own.
import { UsageError, WsError } from '../errors.ts';
import { type CsvItem, CsvTokenizer, tokenize } from './csv.ts';
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

export type BrokenCode = 'unclosed_quote' | 'field_count' | 'malformed_row';

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

function lineEnds(text: string): number {
  let n = 0;
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
    return n;
  }
  LINE_END.lastIndex = 0;
  while (LINE_END.exec(text) !== null) n++;
  return n;
}

/** Lines a record's raw text spans, not counting its own terminator. */
function innerLineEnds(raw: string): number {
  const n = lineEnds(raw);
  return /(\r\n|\n|\r)$/.test(raw) ? n - 1 : n;
}

/**
 * The events of a CSV text, in batches (one per piece of text read): first the header,
 * then rows, blank lines and broken rows in the order of the input.
 */
export async function* readCsv(
  text: AsyncIterable<string>,
  opts: ReadOptions = {},
): AsyncGenerator<CsvEvent[]> {
  const source = text[Symbol.asyncIterator]();
  // Enough of the start to detect the delimiter.
  const head: string[] = [];
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
  const delimiter = opts.delimiter ?? detectDelimiter(head.join(''), done);
  opts.onDelimiter?.(delimiter);

  const tokenizer = new CsvTokenizer(delimiter);
  const state = new Interpreter(delimiter);
  const items: CsvItem[] = [];
  const batch = (): CsvEvent[] => {
    const out: CsvEvent[] = [];
    for (const item of items) state.take(item, out);
    items.length = 0;
    return out;
  };
  try {
    for (const piece of head.splice(0)) {
      tokenizer.write(piece, items);
      yield batch();
    }
    if (!done) {
      for (let next = await source.next(); !next.done; next = await source.next()) {
        tokenizer.write(next.value, items);
        yield batch();
      }
    }
    tokenizer.end(items);
    const last = batch();
    state.end(last);
    yield last;
  } finally {
    await source.return?.();
  }
}

/** Turns the tokenizer's items into events, keeping the line count. */
class Interpreter {
  private line = 1;
  private columns: number | undefined;
  /** Text to read again after an unclosed quote, from `line`. */
  private pending: { text: string; line: number } | undefined;
  private readonly delimiter: string;

  constructor(delimiter: string) {
    this.delimiter = delimiter;
  }

  take(item: CsvItem, out: CsvEvent[]): void {
    const start = this.line;
    this.line += item.lineEnds >= 0 ? item.lineEnds : lineEnds(item.raw);
    if (this.pending) {
      // After a recovery, the parser's records may have split the text in the wrong places
      // (a quote it took as closing opened a field): read its text again with the rest.
      this.pending.text += item.raw;
      this.drain(false, out);
      return;
    }
    this.events(item, start, out);
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
    // A fresh tokenizer: the record delimiter is found again in this text.
    const items = tokenize(p.text, this.delimiter);
    const open = items.length > 0 && items[items.length - 1]!.fields === undefined;
    if (open && !final && p.text.length < MAX_PENDING) return;
    this.pending = undefined;
    let next = p.line;
    for (const sub of items) {
      const start = next;
      next += sub.lineEnds >= 0 ? sub.lineEnds : lineEnds(sub.raw);
      // A recovery among these items holds the rest of them back again.
      const held = this.held();
      if (held) held.text += sub.raw;
      else this.events(sub, start, out);
    }
    if (this.held()) this.drain(final, out);
  }

  private held(): { text: string; line: number } | undefined {
    return this.pending;
  }

  private events(item: CsvItem, line: number, out: CsvEvent[]): void {
    // Without a line break inside, a record ends on the line it starts.
    const endLine = item.lineEnds >= 0 ? line : line + innerLineEnds(item.raw);
    const raw = item.raw;
    let fields = item.fields;
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
export function rowSplitter(delimiter: string, columns: number): (raw: string) => string[] {
  return (raw) => withoutBlankExtras(tokenize(raw, delimiter)[0]?.fields ?? [], columns);
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
