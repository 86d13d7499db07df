// The import pipeline: rows read → typed → grouped in chunks → sent, several at once →
// outcomes written in the order of the file, with a checkpoint after every chunk.
//
// Chunks are `chunkSize` consecutive data rows of the file (good or bad), closed early once
// their objects reach MAX_BODY_BYTES, or before a row that would take the body past what the
// API takes (API_MAX_BODY_BYTES), so that the same file and options always give the same
// chunks: that is what makes the idempotency keys and --resume work. A row too large to be
// sent even alone fails before sending (row_too_large), and only that row.
//
// Stopping. The command's first Ctrl-C aborts `stop` (deps.signal): reading stops, no new
// chunk is sent, the chunks in flight finish (their requests run under `requestSignal`,
// which the first Ctrl-C does not abort) and are written; then the checkpoint is kept for
// --resume. A second Ctrl-C ends the process at once (main.ts); the checkpoint on disk
// then covers every chunk that had finished in order, and a re-run replays the others.
import { type ApiClient, neverConnected } from '../api/client.ts';
import { API_MAX_BODY_BYTES, type ImportOptions } from '../api/imports.ts';
import type { RecordType } from '../api/object-types.ts';
import { ApiError, ConflictError, NetworkError, UsageError } from '../errors.ts';
import { thousands } from '../output/plural.ts';
import { monotonicMs } from '../util/time.ts';
import { kindOf } from '../values/coerce.ts';
import { unneutralise } from '../values/write-form.ts';
import { ByteList } from './bytes.ts';
import { capYoungGeneration } from './heap.ts';
import { chunkKey, type RunningHash } from './keys.ts';
import type { LookupResolver } from './lookup.ts';
import type { ColumnPlan } from './mapping.ts';
import {
  type ChunkFile,
  type FailedRow,
  type FailedRowsWriter,
  failureOf,
  type Problem,
  problemsOf,
} from './outputs.ts';
import type { CsvEvent } from './reader.ts';
import {
  bodySuffix,
  type ChunkResult,
  isStaleKey,
  JobPacer,
  type RowOutcome,
  sameOutcome,
  sendChunk,
} from './send.ts';
import {
  type Checkpoint,
  type Counts,
  removeCheckpoint,
  writeCheckpoint,
  zeroCounts,
} from './state.ts';
import { CellError, type Definition, type TypingOptions, typeCell } from './typing.ts';

/**
 * Bytes of objects past which a chunk closes (after the row that reaches it): well under
 * what the API takes, so that a chunk's answer and its rows held in flight stay small.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** `{"objects":[`, before the first object of a body. */
const BODY_PREFIX_BYTES = '{"objects":['.length;

export interface EngineOptions {
  objectType: RecordType;
  client: ApiClient | undefined;
  /** Batches of events after the header (`first` before them). */
  events: AsyncIterator<CsvEvent[]>;
  first: CsvEvent[];
  /** Fed every event's raw text (it already holds the header's). */
  hash: RunningHash;
  /** The fields of a row's raw text, as the reader split them (see rowSplitter). */
  splitRow: (raw: string) => string[];
  columns: readonly ColumnPlan[];
  typing: TypingOptions;
  /** How each column's cells are typed, where it differs from `typing` (by column index). */
  columnTyping?: ReadonlyMap<number, TypingOptions> | undefined;
  emptyAsNull: boolean;
  /** --keep-whitespace: text cells are sent with their leading and trailing spaces. */
  keepWhitespace?: boolean | undefined;
  /** With --dedupe-by: the key's column, checked in the file before rows are sent. */
  dedupe?: DedupeCheck | undefined;
  /** With --lookup: the look-ups of the reference columns (resolved before their rows are built). */
  lookups?: LookupResolver | undefined;
  apiOptions: ImportOptions | undefined;
  chunkSize: number;
  concurrency: number;
  strict: boolean;
  dryRun: boolean;
  wait: boolean;
  /** Options and definitions, for the chunks' idempotency keys (see keys.ts). */
  keyFingerprint: string;
  /**
   * With --dedupe-by: a chunk whose key the API finds stale (sent by an import of the same
   * rows more than 24 hours ago) is sent again under a key renewed with this (the run's
   * start, kept by its checkpoint), and the dedupe property matches the rows that went in.
   * Without it, undefined: such a chunk stops the import (see staleChunk).
   */
  renewStale: string | undefined;
  /** Line of the first row after the header. */
  firstLine: number;
  /** The first Ctrl-C. */
  stop: AbortSignal;
  /** Aborts requests: never by the first Ctrl-C. */
  requestSignal: AbortSignal;
  failed: FailedRowsWriter;
  results: ChunkFile | undefined;
  checkpoint: { path: string; base: Checkpoint } | undefined;
  /** Continue after the chunks this checkpoint has finished. */
  resume: Checkpoint | undefined;
  onJob?: (jobId: string, chunk: { index: number; lines: [number, number]; rows: number }) => void;
  onChange?: () => void;
  /** Called when the first Ctrl-C arrives, with the number of chunks in flight. */
  onStopping?: (inFlight: number) => void;
}

/** How the dedupe key of each row is checked against the rows before it in the file. */
export interface DedupeCheck {
  /** The index of the key's column. */
  index: number;
  slug: string;
  caseInsensitive: boolean;
  /**
   * A key that repeats an earlier row's: `fail` the row (duplicate_key_in_file), keep the
   * `first` row (the repeat is skipped and reported), or send it so that the `last` row's
   * values are the record's (the API's dedupe updates the record the first one made).
   */
  onDuplicate: 'fail' | 'first' | 'last';
  /** --allow-missing-key: a row without a key is sent (and creates a record). */
  allowMissing: boolean;
}

export interface EngineReport {
  counts: Counts;
  jobs: string[];
  /** Rows seen by the API (sent and answered). */
  processed: number;
  /** The first failures, in the order of the file (at most 10). */
  firstErrors: FailedRow[];
  /** The first rows left out (--on-duplicate first), in the order of the file (at most 10). */
  firstSkipped?: FailedRow[];
  /** The footer skipped after the data: its lines and first values. */
  footer?: { first: number; last: number; texts: string[] } | undefined;
  interrupted: boolean;
  /** A chunk started asynchronously and left running (--no-wait). */
  pending: number;
  /** Rows in flight that the second Ctrl-C abandoned: a --resume sends them again. */
  abandoned?: number;
}

/** The report of an import whose file has a header and no rows. */
export function emptyReport(): EngineReport {
  return {
    counts: zeroCounts(),
    jobs: [],
    processed: 0,
    firstErrors: [],
    interrupted: false,
    pending: 0,
  };
}

interface Chunk {
  index: number;
  firstLine: number;
  lastLine: number;
  rows: number;
  blank: number;
  /** The request body as it is built: `{"objects":[` and each object's JSON. */
  objects: ByteList;
  /** Line and text of each object's row (its fields are split again if the API rejects it). */
  lines: number[];
  raws: ByteList;
  /** Rows that failed before sending. */
  local: FailedRow[];
  /** Rows left out before sending (a repeated key with --on-duplicate first). */
  skipped: FailedRow[];
  /** Counts of what the rows' cells showed (added to the import's counts in order). */
  notes: RowNotes;
  prefixHash: string;
}

/** What building rows noted beyond their outcome. */
interface RowNotes {
  trimmed: number;
  duplicateKeys: number;
  missingKeys: number;
  footer: number;
}

const noNotes = (): RowNotes => ({ trimmed: 0, duplicateKeys: 0, missingKeys: 0, footer: 0 });

const MAX_ERRORS_SHOWN = 10;
/** A decimal number as typeCell reads it (coerce.ts's NUMBER), without sign + or exponent. */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

function digitAt(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c >= 48 && c <= 57;
}

/**
 * Whether a decimal text is the very text JavaScript (and JSON) writes for the number it
 * reads as, so that it can be sent as it is, without reading it as a number and writing that
 * back (a third of the typing of an amount column): digits with no leading zero and no sign
 * but `-`, a fraction that does not end in 0, at most 15 significant digits (a double holds
 * any 15 exactly, so no shorter text reads as the same number), not below 0.000001 (written
 * with an exponent), and not -0.
 */
export function isCanonicalDecimal(text: string): boolean {
  const len = text.length;
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  if (i === len) return false;
  const c = text.charCodeAt(i);
  let digits = 0;
  if (c === 48) {
    // 0, or 0. and at most five zeros before the first significant digit.
    i++;
    if (i === len) return len === 1;
    if (text.charCodeAt(i) !== 46) return false;
    i++;
    const zeros = i;
    while (i < len && text.charCodeAt(i) === 48) i++;
    if (i - zeros > 5) return false;
  } else {
    // A first digit 1-9 (0 is above), then any.
    if (!digitAt(text, i)) return false;
    while (i < len && digitAt(text, i)) {
      i++;
      digits++;
    }
    if (i === len) return digits <= 15;
    if (text.charCodeAt(i) !== 46) return false;
    i++;
  }
  // The fraction's significant digits.
  const from = i;
  while (i < len && digitAt(text, i)) i++;
  return i === len && i > from && digits + (i - from) <= 15 && text.charCodeAt(len - 1) !== 48;
}

/**
 * Rows held for their look-ups before the values waiting are asked for in a batch smaller
 * than 50: as many as the chunks in flight hold by default (8 chunks of 10,000 rows).
 */
const LOOKUP_HOLD_ROWS = 80_000;

/** Distinct texts of a column whose typing is remembered (see ImportEngine.typed). */
const TYPED_PER_COLUMN = 1024;

interface ActiveColumn {
  index: number;
  def: Definition;
  header: string;
  typing: TypingOptions;
  /** A --lookup column: its cells name records, resolved to their ids. */
  lookup: boolean;
  /** `"slug":` */
  key: string;
  /** Taken as it is (no typing). */
  text: boolean;
  /** A number property. */
  number: boolean;
  required: boolean;
  typed: Map<string, TypedCell>;
}

/** A typed cell: its JSON, whether it counts as no value (null, []), or why it is refused. */
interface TypedCell {
  json: string;
  empty: boolean;
  error: CellError | undefined;
}
const CHECKPOINT_EVERY_MS = 1000;

export class ImportEngine {
  private readonly o: EngineOptions;
  readonly counts: Counts;
  private readAhead: number;
  readonly jobs: string[];
  private pending = 0;
  private readonly firstErrors: FailedRow[] = [];
  /** The mapped columns: where the cell is, its property, and the key written for it. */
  private readonly active: ActiveColumn[];
  private readonly startChunk: number;
  private inFlight = 0;
  private nextFlush: number;
  private readonly done = new Map<number, { chunk: Chunk; result: ChunkResult }>();
  private flushing: Promise<void> = Promise.resolve();
  private fatal: unknown;
  private waiters: (() => void)[] = [];
  private nextLineOfCheckpoint: number;
  private prefixOfCheckpoint: string;
  private stopped = false;
  /**
   * Whether a chunk may have reached the service: one was answered, or failed in a way that
   * does not show the service refused it before taking any row (see neverTaken).
   */
  private reached = false;
  /** Rows of the chunks whose requests the second Ctrl-C abandoned (--resume sends them again). */
  private abandoned = 0;
  private strictError: UsageError | undefined;
  private readonly pacer = new JobPacer();
  private readonly limit = { refused: Number.POSITIVE_INFINITY };
  private lastCheckpointAt = 0;
  /** Bytes to start a chunk's buffers with. */
  private capacity = { objects: 64 * 1024, raws: 64 * 1024 };
  /** A row's object built, carried to the next chunk (see consume). */
  private carried: string | undefined;
  /** UTF-8 bytes of what follows the objects in every body. */
  private readonly suffixBytes: number;
  /** With look-ups: batches of events waiting for their values, and their events. */
  private readonly held: CsvEvent[][] = [];
  private heldRows = 0;
  /** The problems of the row being built (see buildRow). */
  private readonly rowProblems: Problem[] = [];
  /** The footer skipped after the data: its lines and first values. */
  private footer: { first: number; last: number; texts: string[] } | undefined;
  /** The first rows left out (--on-duplicate first), for the summary. */
  private readonly firstSkipped: FailedRow[] = [];
  /** With --dedupe-by: each key met, and the line of the row that first had it. */
  private readonly keys = new Map<string, number>();
  /** The column of the dedupe key among the active ones. */
  private readonly keyColumn: ActiveColumn | undefined;

  constructor(o: EngineOptions) {
    this.o = o;
    this.counts = o.resume ? { ...zeroCounts(), ...o.resume.counts } : zeroCounts();
    this.readAhead = this.counts.read;
    this.jobs = o.resume ? [...o.resume.jobs] : [];
    this.active = o.columns
      .filter((c): c is ColumnPlan & { def: Definition } => c.def !== undefined)
      .map((c) => ({
        index: c.index,
        def: c.def,
        header: c.header,
        typing: o.columnTyping?.get(c.index) ?? o.typing,
        lookup: c.lookup !== undefined,
        key: `${JSON.stringify(c.def.slug)}:`,
        text: kindOf(c.def.type) === 'text',
        number: kindOf(c.def.type) === 'number',
        required: c.def.required === true,
        typed: new Map(),
      }));
    this.startChunk = o.resume?.next_chunk ?? 0;
    this.nextFlush = this.startChunk;
    this.nextLineOfCheckpoint = o.resume?.next_line ?? o.firstLine;
    this.prefixOfCheckpoint = o.resume?.prefix_hash ?? '';
    this.suffixBytes = Buffer.byteLength(
      bodySuffix(o.apiOptions ? JSON.stringify(o.apiOptions) : undefined),
    );
    this.keyColumn =
      o.dedupe === undefined ? undefined : this.active.find((c) => c.index === o.dedupe!.index);
  }

  get inFlightCount(): number {
    return this.inFlight;
  }

  /** Whether any row may have reached the service (else an error stopped it before). */
  get reachedService(): boolean {
    return this.reached;
  }

  /**
   * Rows read from the input so far (with those of an interrupted run that a resume skips),
   * for the progress line: `counts.read` only moves as chunks finish, in order.
   */
  get rowsRead(): number {
    return this.readAhead;
  }

  /** Rows with an outcome from the API. */
  get processedCount(): number {
    const c = this.counts;
    return c.created + c.updated + c.unchanged + c.rejected;
  }

  /**
   * The object sent for a row (`{"default":{...}}`, written key by key in the order of the
   * columns: the mapping has no two columns on one property), every problem that keeps it
   * from being sent, or why it is left out (a repeated key with --on-duplicate first).
   * `line` is the row's, for the dedupe key's messages; `notes` counts what the cells showed.
   */
  buildRow(
    fields: readonly string[],
    line = 0,
    notes: RowNotes = noNotes(),
  ): string | { problems: Problem[] } | { skip: Problem } {
    let out = '{"default":{';
    let first = true;
    let missing = false;
    let anyValue = false;
    // One list for every row, emptied here: a row with no problem allocates none.
    const problems = this.rowProblems;
    problems.length = 0;
    let keyJson: string | undefined;
    const keyColumn = this.keyColumn;
    for (const c of this.active) {
      let text = fields[c.index] ?? '';
      // Blank: empty, or spaces only (trim() only when the first character could be one).
      const code = text.charCodeAt(0);
      let value: string;
      if (text === '' || ((code <= 32 || code >= 0x80) && text.trim() === '')) {
        if (c.required) missing = true;
        if (!this.o.emptyAsNull) continue;
        value = 'null';
      } else if (c.text) {
        anyValue = true;
        if (
          !this.o.keepWhitespace &&
          (mayBeSpace(code) || mayBeSpace(text.charCodeAt(text.length - 1)))
        ) {
          const trimmed = text.trim();
          if (trimmed !== text) {
            notes.trimmed++;
            text = trimmed;
          }
        }
        // A leading ' may be the formula guard of an export (typing.ts undoes it).
        value = jsonString(text.charCodeAt(0) === 39 ? unneutralise(text) : text);
      } else if (c.lookup) {
        anyValue = true;
        try {
          value = this.o.lookups!.json(c.index, text);
        } catch (err) {
          if (!(err instanceof CellError)) throw err;
          problems.push({ column: c.header, code: err.code, message: err.message });
          continue;
        }
      } else {
        anyValue = true;
        const typed = this.typed(c, text);
        if (typed.error) {
          problems.push({
            column: c.header,
            code: typed.error.code,
            message: typed.error.message,
          });
          continue;
        }
        if (c.required && typed.empty) missing = true;
        value = typed.json;
      }
      if (c === keyColumn) keyJson = value;
      out += first ? c.key + value : `,${c.key}${value}`;
      first = false;
    }
    if (missing) problems.push(...this.missingRequired(fields));
    if (!anyValue) {
      problems.push({
        code: 'empty_row',
        message: `no column that fills a property has a value (${this.active.map((c) => c.header).join(', ')})`,
      });
    }
    if (this.o.dedupe) {
      const skip = this.checkKey(keyJson, line, notes, problems);
      if (skip) return { skip };
    }
    if (problems.length > 0) return { problems: [...problems] };
    // Built by +=, the text is a rope of its pieces: it lives only until the chunk's bytes
    // take it (ByteList.push writes it out once), so no piece outlives the row.
    return `${out}}}`;
  }

  /**
   * The dedupe key of a row (its JSON as sent, or undefined when the row has none): a
   * missing key and a key an earlier row had are noted, and are problems of the row, or
   * (with --on-duplicate first) the reason it is left out.
   */
  private checkKey(
    keyJson: string | undefined,
    line: number,
    notes: RowNotes,
    problems: Problem[],
  ): Problem | undefined {
    const d = this.o.dedupe!;
    const header = this.keyColumn?.header ?? d.slug;
    if (keyJson === undefined || keyJson === 'null' || keyJson === '""') {
      if (problems.some((p) => p.column === header)) return undefined;
      notes.missingKeys++;
      if (!d.allowMissing) {
        problems.push({
          column: header,
          code: 'missing_dedupe_key',
          message: `no ${d.slug} to match a record by (--dedupe-by ${d.slug}): fill it, or pass --allow-missing-key to create such rows as new records`,
        });
      }
      return undefined;
    }
    const key = d.caseInsensitive ? keyJson.toLowerCase() : keyJson;
    const earlier = this.keys.get(key);
    if (earlier === undefined) {
      this.keys.set(key, line);
      return undefined;
    }
    notes.duplicateKeys++;
    const what = `${d.slug} ${keyJson} repeats line ${earlier}`;
    if (d.onDuplicate === 'last') return undefined;
    if (d.onDuplicate === 'first') {
      return {
        column: header,
        code: 'duplicate_key_in_file',
        message: `${what}: left out, the row of line ${earlier} is kept (--on-duplicate first)`,
      };
    }
    problems.push({
      column: header,
      code: 'duplicate_key_in_file',
      message: `${what}: pass --on-duplicate first to keep that row, or --on-duplicate last to let this one update its record`,
    });
    return undefined;
  }

  /**
   * A non-text cell typed as JSON, or its error. Columns other than text ones repeat their
   * values (select options, booleans, small numbers, dates): the outcome of each distinct
   * text is kept, up to TYPED_PER_COLUMN of them per column.
   */
  private typed(c: ActiveColumn, text: string): TypedCell {
    // A plain decimal (`42`, `-7.5`, `100.50`) is the number JavaScript reads in it, written
    // as JSON writes it: what typeCell would give, without the cache, which amounts and ids
    // would fill with values seen once. Only where the column's decimal mark is a point:
    // elsewhere `1.234` may be a thousand and more.
    if (c.number && (c.typing.numbers?.decimal === '.' || !hasPoint(text))) {
      if (isCanonicalDecimal(text)) return { json: text, empty: false, error: undefined };
      const n = +text;
      if (Number.isFinite(n)) {
        const json = String(n);
        if (json === text || PLAIN_DECIMAL.test(text))
          return { json, empty: false, error: undefined };
      }
    }
    const known = c.typed.get(text);
    if (known) return known;
    let cell: TypedCell;
    try {
      const value = typeCell(c.def, text, c.typing);
      cell = {
        json: typeof value === 'string' ? jsonString(value) : JSON.stringify(value),
        empty: value === null || (Array.isArray(value) && value.length === 0),
        error: undefined,
      };
    } catch (err) {
      if (!(err instanceof CellError)) throw err;
      cell = { json: '', empty: false, error: err };
    }
    if (c.typed.size < TYPED_PER_COLUMN) c.typed.set(text, cell);
    return cell;
  }

  /** The required properties a row leaves without a value (blank, null or []). */
  private missingRequired(fields: readonly string[]): Problem[] {
    const out: Problem[] = [];
    for (const c of this.active) {
      if (!c.required) continue;
      const text = fields[c.index] ?? '';
      let empty = text.trim() === '';
      if (!empty && !c.text && !c.lookup) {
        const typed = this.typed(c, text);
        empty = typed.error === undefined && typed.empty;
      }
      if (empty) {
        out.push({
          column: c.header,
          code: 'required_missing',
          message: `${c.def.slug} is required and this row has no value`,
        });
      }
    }
    return out;
  }

  private newChunk(index: number, firstLine: number): Chunk {
    return {
      index,
      firstLine,
      lastLine: firstLine,
      rows: 0,
      blank: 0,
      objects: new ByteList('{"objects":[', ',', this.capacity.objects),
      lines: [],
      raws: new ByteList('', '', this.capacity.raws),
      local: [],
      skipped: [],
      notes: noNotes(),
      prefixHash: '',
    };
  }

  async run(): Promise<EngineReport> {
    const o = this.o;
    const onStop = () => {
      if (this.stopped) return;
      this.stopped = true;
      o.onStopping?.(this.inFlight);
      this.notify();
    };
    o.stop.addEventListener('abort', onStop, { once: true });
    if (o.stop.aborted) onStop();
    let chunk = this.newChunk(0, o.firstLine);
    try {
      // With look-ups, a batch waits until the values its rows name are resolved.
      let batch = o.lookups ? await this.resolved(o.first) : o.first;
      let ended = false;
      for (;;) {
        for (const ev of batch) {
          if (this.stopped || this.fatal !== undefined) break;
          let state = this.consume(ev, chunk);
          if (state === 'next') {
            await this.close(chunk);
            chunk = this.newChunk(chunk.index + 1, chunk.lastLine + 1);
            if (this.stopped || this.fatal !== undefined) break;
            state = this.consume(ev, chunk);
          }
          if (state === 'full') {
            await this.close(chunk);
            chunk = this.newChunk(chunk.index + 1, chunk.lastLine + 1);
          }
          if (this.strictError) break;
        }
        if (this.stopped || this.fatal !== undefined || this.strictError || ended) break;
        capYoungGeneration();
        // Not raced with the stop signal: a race with a promise that stays pending would
        // keep every event alive. A file answers at once; a pipe ends with its writer.
        const next = await o.events.next();
        if (next.done) {
          if (!o.lookups) break;
          // The rows held for their look-ups: the values they wait for are asked for now.
          ended = true;
          batch = await this.resolved(undefined);
          continue;
        }
        batch = o.lookups ? await this.resolved(next.value) : next.value;
      }
      const complete = !this.stopped && this.fatal === undefined && this.strictError === undefined;
      if (complete && (chunk.rows > 0 || chunk.blank > 0 || chunk.notes.footer > 0))
        await this.close(chunk);
      if (complete && chunk.index < this.startChunk) {
        throw new UsageError(
          'The input ends before the point where the interrupted import stopped: it is not the same file.',
          'Run the same command without --resume to import this file from the start.',
        );
      }
    } finally {
      o.stop.removeEventListener('abort', onStop);
      await this.drain();
      void o.events.return?.(undefined);
      if (this.stopped || this.fatal !== undefined || this.strictError) this.saveCheckpoint(true);
    }
    if (this.fatal !== undefined) throw this.fatal;
    if (this.strictError) throw this.strictError;
    const interrupted = this.stopped;
    if (!interrupted && o.checkpoint) removeCheckpoint(o.checkpoint.path);
    return {
      counts: this.counts,
      jobs: this.jobs,
      processed: this.processedCount,
      firstErrors: this.firstErrors,
      firstSkipped: this.firstSkipped,
      footer: this.footer,
      interrupted,
      pending: this.pending,
      ...(this.abandoned > 0 ? { abandoned: this.abandoned } : {}),
    };
  }

  /**
   * One event into the chunk being filled: 'open' (room for more), 'full' (close it), or
   * 'next': the event is a row that would take the body past what the API takes, so the
   * chunk closes without it and it is consumed again into the next one.
   */
  private consume(ev: CsvEvent, chunk: Chunk): 'open' | 'full' | 'next' {
    const o = this.o;
    let built: string | { problems: Problem[] } | { skip: Problem } | undefined;
    if (ev.kind === 'row') {
      built = this.carried ?? this.buildRow(ev.fields, ev.line, chunk.notes);
      this.carried = undefined;
      if (typeof built === 'string') {
        const size = this.sizeOf(built, chunk);
        if (size < 0) built = { problems: [tooLarge(built, ev.fields, this.active)] };
        else if (size > 0) {
          this.carried = built;
          return 'next';
        }
      }
    }
    o.hash.update(ev.raw);
    if (ev.kind === 'header' || ev.kind === 'preamble') return 'open';
    if (chunk.rows === 0 && chunk.blank === 0 && chunk.notes.footer === 0)
      chunk.firstLine = ev.line;
    chunk.lastLine = ev.kind === 'blank' ? ev.line : ev.endLine;
    if (ev.kind === 'blank') {
      chunk.blank++;
      return 'open';
    }
    if (ev.kind === 'footer') {
      chunk.notes.footer += ev.endLine - ev.line + 1;
      this.noteFooter(ev);
      return 'open';
    }
    chunk.rows++;
    if (chunk.index >= this.startChunk) this.readAhead++;
    let failure: FailedRow | undefined;
    if (ev.kind === 'broken') {
      failure = {
        line: ev.line,
        fields: ev.fields,
        raw: ev.raw,
        code: ev.code,
        message: `line ${ev.line}${ev.endLine > ev.line ? `-${ev.endLine}` : ''}: ${ev.message}`,
      };
    } else if (typeof built === 'string') {
      chunk.objects.push(built);
      chunk.lines.push(ev.line);
      chunk.raws.push(ev.raw);
    } else if (built && 'skip' in built) {
      chunk.skipped.push(
        failureOf({ line: ev.line, fields: ev.fields, raw: ev.raw }, [built.skip]),
      );
    } else {
      failure = failureOf({ line: ev.line, fields: ev.fields, raw: ev.raw }, built!.problems);
    }
    if (failure) {
      chunk.local.push(failure);
      if (o.strict && chunk.index >= this.startChunk) {
        this.strictError = new UsageError(
          `Line ${failure.line}: ${failure.message.replace(/^line \d+(-\d+)?: /, '')} (${failure.code}); stopped there (--strict).`,
          'Fix the row and run the same command again: rows already sent are not sent twice. `ws import validate` checks a whole file without sending.',
        );
        return 'open';
      }
    }
    // The chunk closes once its objects' JSON, a comma each, reaches MAX_BODY_BYTES (the
    // list holds the body's prefix, and a comma between two objects).
    return chunk.rows >= o.chunkSize ||
      chunk.objects.reaches(MAX_BODY_BYTES + BODY_PREFIX_BYTES - 1)
      ? 'full'
      : 'open';
  }

  /**
   * With look-ups: the events that can be built now. `batch` joins those held; the values
   * their rows name are asked for in batches of 50 as they gather, and the held events are
   * given out, in order, once all the values of theirs are answered. Held rows past
   * LOOKUP_HOLD_ROWS, or the end of the input (`batch` undefined), ask for the rest.
   */
  private async resolved(batch: CsvEvent[] | undefined): Promise<CsvEvent[]> {
    const lookups = this.o.lookups!;
    if (batch !== undefined) {
      lookups.gather(batch);
      this.held.push(batch);
      this.heldRows += batch.length;
    }
    const all =
      batch === undefined || this.heldRows >= Math.max(LOOKUP_HOLD_ROWS, this.o.chunkSize);
    try {
      await lookups.resolve(all);
    } catch (err) {
      // Abandoned by the second Ctrl-C: the import stops as the first one stops it.
      if (!this.o.requestSignal.aborted) this.fatal ??= err;
      return [];
    }
    const out: CsvEvent[] = [];
    while (this.held.length > 0 && lookups.ready(this.held[0]!)) {
      const b = this.held.shift()!;
      this.heldRows -= b.length;
      for (const ev of b) out.push(ev);
    }
    return out;
  }

  /** The footer's lines and first values, for the summary. */
  private noteFooter(ev: Extract<CsvEvent, { kind: 'footer' }>): void {
    if (this.footer === undefined) this.footer = { first: ev.line, last: ev.endLine, texts: [] };
    const f = this.footer;
    f.last = ev.endLine;
    const text = ev.fields
      .map((t) => t.trim())
      .filter((t) => t !== '')
      .join(' ');
    if (text !== '' && f.texts.length < 3)
      f.texts.push(text.length > 40 ? `${text.slice(0, 39)}…` : text);
  }

  /**
   * Whether an object fits the chunk's body: 0 when it does, its size in bytes when it would
   * fit only a chunk of its own, -1 when it cannot be sent even alone. The exact UTF-8 size
   * is counted only when the object could come near the limit (3 bytes a code unit at most).
   */
  private sizeOf(object: string, chunk: Chunk): number {
    const suffix = this.suffixBytes;
    if (chunk.objects.mostBytes + 1 + suffix + object.length * 3 <= API_MAX_BODY_BYTES) return 0;
    const body = chunk.objects.bytes + 1 + suffix;
    const size = Buffer.byteLength(object);
    if (BODY_PREFIX_BYTES + size + suffix > API_MAX_BODY_BYTES) return -1;
    return chunk.objects.length > 0 && body + size > API_MAX_BODY_BYTES ? size : 0;
  }

  /** A chunk is complete: skip it (resume), finish it (dry run, nothing to send) or send it. */
  private async close(chunk: Chunk): Promise<void> {
    const o = this.o;
    chunk.prefixHash = o.hash.at();
    if (chunk.index < this.startChunk) {
      if (chunk.index === this.startChunk - 1 && chunk.prefixHash !== o.resume!.prefix_hash) {
        throw new UsageError(
          'The input is not the same as when the import was interrupted (its content up to where it stopped differs).',
          'Run the same command without --resume to import this file from the start.',
        );
      }
      return;
    }
    // The next chunks start with the room this one took.
    this.capacity = { objects: chunk.objects.bytes + 1024, raws: chunk.raws.bytes + 1024 };
    if (o.dryRun || chunk.objects.length === 0 || !o.client) {
      this.finish(chunk, {
        rows: sameOutcome(chunk.objects.length, { id: null, status: 'created', error: null }),
        jobs: [],
      });
      return;
    }
    while (
      !this.stopped &&
      this.fatal === undefined &&
      (this.inFlight >= o.concurrency || chunk.index - this.nextFlush >= o.concurrency * 2)
    ) {
      await this.changed();
    }
    if (this.stopped || this.fatal !== undefined) return;
    this.inFlight++;
    this.counts.sent += chunk.objects.length;
    o.onChange?.();
    const optionsJson = o.apiOptions ? JSON.stringify(o.apiOptions) : undefined;
    const body = chunk.objects.finish(bodySuffix(optionsJson));
    const client = o.client;
    sendChunk(
      client,
      {
        objectType: o.objectType,
        objects: chunk.objects,
        optionsJson,
        key: chunkKey(o.keyFingerprint, chunk.index, chunk.prefixHash),
        body,
      },
      {
        signal: o.requestSignal,
        wait: o.wait,
        pacer: this.pacer,
        limit: this.limit,
        renewStale: o.renewStale,
        onJob: (jobId, rows) => {
          this.jobs.push(jobId);
          o.onJob?.(jobId, { index: chunk.index, lines: [chunk.firstLine, chunk.lastLine], rows });
        },
      },
    )
      .then(
        (result) => {
          this.reached = true;
          this.finish(chunk, result);
        },
        (err: unknown) => {
          if (!neverTaken(err)) this.reached = true;
          // Abandoned by the second Ctrl-C: not finished, so the checkpoint stops before it.
          if (o.requestSignal.aborted) this.abandoned += chunk.objects.length;
          else this.fatal ??= isStaleKey(err) ? staleChunk(chunk) : err;
        },
      )
      .finally(() => {
        this.inFlight--;
        this.notify();
        o.onChange?.();
      });
  }

  private finish(chunk: Chunk, result: ChunkResult): void {
    this.done.set(chunk.index, { chunk, result });
    this.flushing = this.flushing.then(() => this.flushInOrder());
    this.flushing.catch((err: unknown) => {
      this.fatal ??= err;
    });
  }

  /** Write finished chunks in the order of the file, and the checkpoint after each. */
  private async flushInOrder(): Promise<void> {
    const o = this.o;
    for (let entry = this.done.get(this.nextFlush); entry; entry = this.done.get(this.nextFlush)) {
      this.done.delete(this.nextFlush);
      const { chunk, result } = entry;
      const c = this.counts;
      c.read += chunk.rows;
      c.blank += chunk.blank;
      c.trimmed += chunk.notes.trimmed;
      c.duplicate_keys += chunk.notes.duplicateKeys;
      c.missing_keys += chunk.notes.missingKeys;
      c.footer += chunk.notes.footer;
      c.skipped += chunk.skipped.length;
      for (const f of chunk.skipped) {
        if (this.firstSkipped.length < MAX_ERRORS_SHOWN) this.firstSkipped.push(f);
      }
      const failedRows: FailedRow[] = [...chunk.local];
      // --results: every row's outcome in the order of the file (local outcomes merged in).
      const lines: string[] = [];
      const wantLines = o.results !== undefined;
      const local = wantLines ? localOutcomes(chunk) : [];
      let li = 0;
      const localLine = () => {
        const { row, status } = local[li++]!;
        lines.push(
          `{"line":${row.line},"id":null,"status":"${status}","error":${JSON.stringify({ code: row.code, message: row.message })},"errors":${JSON.stringify(problemsOf(row))}}\n`,
        );
      };
      for (let i = 0; i < result.rows.length; i++) {
        const r: RowOutcome = result.rows.at(i)!;
        const line = chunk.lines[i]!;
        if (wantLines) {
          while (li < local.length && local[li]!.row.line < line) localLine();
          const status = o.dryRun ? 'valid' : r.status;
          lines.push(
            `{"line":${line},"id":${JSON.stringify(r.id)},"status":"${status}","error":${JSON.stringify(r.error)},"errors":${r.error ? `[${JSON.stringify(r.error)}]` : '[]'}}\n`,
          );
        }
        if (o.dryRun) continue;
        if (r.status === 'pending') {
          this.pending++;
          continue;
        }
        if (r.status === 'failed') {
          c.rejected++;
          failedRows.push({
            line,
            fields: o.splitRow(chunk.raws.at(i)!),
            raw: '',
            code: r.error?.code ?? 'failed',
            message: r.error?.message ?? 'failed',
          });
        } else if (r.status === 'created') c.created++;
        else if (r.status === 'updated') c.updated++;
        else c.unchanged++;
      }
      while (wantLines && li < local.length) localLine();
      failedRows.sort((a, b) => a.line - b.line);
      c.failed += failedRows.length;
      for (const f of failedRows) {
        if (this.firstErrors.length < MAX_ERRORS_SHOWN) this.firstErrors.push(f);
      }
      await o.failed.write(failedRows);
      if (o.results) await o.results.write(lines.join(''));
      this.nextFlush++;
      this.notify();
      this.nextLineOfCheckpoint = chunk.lastLine + 1;
      this.prefixOfCheckpoint = chunk.prefixHash;
      this.saveCheckpoint();
      o.onChange?.();
    }
  }

  /**
   * Write the checkpoint, at most every CHECKPOINT_EVERY_MS while chunks keep finishing
   * (`force` at the end). A checkpoint a little behind only means a resume replays a few
   * finished chunks, which the API answers from their idempotency keys.
   */
  private saveCheckpoint(force = false): void {
    const cp = this.o.checkpoint;
    if (!cp) return;
    const now = monotonicMs();
    if (!force && now - this.lastCheckpointAt < CHECKPOINT_EVERY_MS) return;
    this.lastCheckpointAt = now;
    writeCheckpoint(cp.path, this.checkpointNow());
  }

  checkpointNow(): Checkpoint {
    const base = this.o.checkpoint!.base;
    return {
      ...base,
      next_chunk: this.nextFlush,
      prefix_hash: this.prefixOfCheckpoint,
      next_line: this.nextLineOfCheckpoint,
      counts: { ...this.counts },
      failed_bytes: this.o.failed.bytes,
      results_bytes: this.o.results?.bytes ?? 0,
      jobs: [...this.jobs],
      updated_at: new Date().toISOString(),
    };
  }

  private changed(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push(resolve);
    });
  }

  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Wait for the chunks in flight, then for their outcomes to be written. */
  private async drain(): Promise<void> {
    while (this.inFlight > 0) {
      await this.changed();
    }
    await this.flushing;
  }
}

/**
 * Whether an error of a chunk's sending shows that the service took none of its rows: the
 * import request was answered with a refusal (a 4xx: a refused key, a bad body), or no
 * connection to the service was ever made (refused, an unknown host, an untrusted
 * certificate). Anything else (a timeout, a connection dropped mid-answer, a 5xx) may
 * have come after the rows went in.
 */
export function neverTaken(err: unknown): boolean {
  if (err instanceof ApiError)
    return err.method === 'POST' && err.status >= 400 && err.status < 500 && err.status !== 408;
  return err instanceof NetworkError && neverConnected(err);
}

/** The rows of a chunk that had an outcome before sending, in the order of the file. */
function localOutcomes(chunk: Chunk): { row: FailedRow; status: 'failed' | 'skipped' }[] {
  const out: { row: FailedRow; status: 'failed' | 'skipped' }[] = [
    ...chunk.local.map((row) => ({ row, status: 'failed' as const })),
    ...chunk.skipped.map((row) => ({ row, status: 'skipped' as const })),
  ];
  return chunk.skipped.length === 0 ? out : out.sort((a, b) => a.row.line - b.row.line);
}

/** Whether a character code may be white space that trim() removes. */
function mayBeSpace(code: number): boolean {
  return code <= 32 || code === 0x85 || code === 0xa0 || code >= 0x1680;
}

/** Whether a text holds a `.`. */
function hasPoint(text: string): boolean {
  return text.includes('.');
}

/** Characters a JSON string must escape (and lone surrogates, which JSON.stringify escapes). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON: quoted as it is when nothing in it needs an escape. */
function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * The failure of a row whose object alone makes a body larger than the API takes: it names
 * the largest of the row's mapped cells, the one to shorten.
 */
function tooLarge(
  object: string,
  fields: readonly string[],
  active: readonly { index: number; header: string }[],
): Problem {
  let largest: { header: string; bytes: number } | undefined;
  for (const c of active) {
    const bytes = Buffer.byteLength(fields[c.index] ?? '');
    if (!largest || bytes > largest.bytes) largest = { header: c.header, bytes };
  }
  const n = thousands;
  const row = `the row is ${n(Buffer.byteLength(object))} bytes as JSON, more than one request may carry (${n(API_MAX_BODY_BYTES - BODY_PREFIX_BYTES - 2)})`;
  return {
    code: 'row_too_large',
    message: largest
      ? `${largest.header}: a value of ${n(largest.bytes)} bytes; ${row}: shorten it`
      : `${row}: shorten its values`,
  };
}

/** A chunk of rows sent by an import more than 24 hours ago, and no --dedupe-by to match them. */
export class StaleChunkError extends ConflictError {
  override readonly name: string = 'StaleChunkError';
}

function staleChunk(chunk: Chunk): StaleChunkError {
  return new StaleChunkError(
    `Lines ${chunk.firstLine}-${chunk.lastLine} were sent by an import of the same rows with the same columns and options more than 24 hours ago, and the API no longer keeps its answer (409 idempotency_key_stale): whether they went in cannot be told, so they were not sent again.`,
    'Import the file with --dedupe-by SLUG (a property that tells rows apart, such as email): the rows that went in then are matched and updated, the others created.',
  );
}
