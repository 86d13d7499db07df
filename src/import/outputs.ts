// The files an import writes as it goes: the failed rows (a CSV ready to fix and import
// again) and, with --results, every row's outcome as NDJSON. Both are appended chunk by
// chunk in the order of the input, and their sizes are kept in the checkpoint, so a resume
// continues them exactly where the finished chunks end.
import { once } from 'node:events';
import {
  createWriteStream,
  existsSync,
  readFileSync,
  rmSync,
  truncateSync,
  type WriteStream,
} from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { FAILED_COLUMNS } from './mapping.ts';
import type { Checkpoint } from './state.ts';

/**
 * `contacts.csv` → `contacts.failed.csv` (next to it); stdin → `stdin-<time>.failed.csv`
 * here. A failed-rows file imported again keeps its name's stem and counts the rounds:
 * `contacts.failed.csv` → `contacts.failed-2.csv` → `contacts.failed-3.csv` (never the file
 * being read, never `contacts.failed.failed.csv`).
 */
export function failedFilePath(input: string | undefined, now: Date, cwd: string): string {
  if (input === undefined) {
    const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
    return resolve(cwd, `stdin-${stamp}.failed.csv`);
  }
  const ext = extname(input);
  const base = basename(input, ext);
  const round = /^(.*)\.failed(?:-(\d+))?$/.exec(base);
  const name = round ? `${round[1]}.failed-${Number(round[2] ?? 1) + 1}` : `${base}.failed`;
  return join(dirname(input), `${name}${ext === '' ? '.csv' : ext}`);
}

/** A file appended to as chunks finish; opened on first write. */
export class ChunkFile {
  readonly path: string;
  private stream: WriteStream | undefined;
  private size: number;
  private readonly append: boolean;

  /** `keep` bytes of an existing file are kept (a resume); otherwise it is replaced. */
  constructor(path: string, keep: number | undefined) {
    this.path = path;
    this.append = keep !== undefined && keep > 0 && existsSync(path);
    this.size = this.append ? keep! : 0;
    if (this.append) truncateSync(path, keep);
  }

  get bytes(): number {
    return this.size;
  }

  get started(): boolean {
    return this.size > 0;
  }

  async write(text: string): Promise<void> {
    if (text === '') return;
    if (!this.stream) {
      this.stream = createWriteStream(this.path, { flags: this.append ? 'a' : 'w' });
    }
    this.size += Buffer.byteLength(text);
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    const s = this.stream;
    if (!s) return;
    this.stream = undefined;
    await new Promise<void>((res, rej) => s.end((err?: Error | null) => (err ? rej(err) : res())));
  }

  /** Remove a file left by an earlier run when this run wrote nothing to it. */
  removeIfUnused(): boolean {
    if (this.size > 0 || !existsSync(this.path)) return false;
    rmSync(this.path, { force: true });
    return true;
  }
}

export function csvField(text: string, delimiter: string): string {
  if (
    text.includes(delimiter) ||
    text.includes('"') ||
    text.includes('\n') ||
    text.includes('\r') ||
    /^\s|\s$/.test(text)
  ) {
    return `"${text.replace(/"/g, '""')}"`;
  }
  return text;
}

/** One problem of a row: the column it is in (when it is one cell's), a code and a message. */
export interface Problem {
  column?: string | undefined;
  code: string;
  message: string;
}

export interface FailedRow {
  line: number;
  /** The row's fields as read (empty when the row could not be split into fields). */
  fields: readonly string[];
  /** The row's text, for rows that could not be split. */
  raw: string;
  /** The codes of its problems, `;` between them (one for most rows). */
  code: string;
  /** Its problems' messages, each after its column, `; ` between them. */
  message: string;
  /** Every problem of the row (absent: the one of code and message). */
  problems?: readonly Problem[] | undefined;
}

/** A problem as one line: `Column: message`. */
export function problemText(p: Problem): string {
  return p.column === undefined ? p.message : `${p.column}: ${p.message}`;
}

/** The failed row of `problems`: every code (once each) and every message, in the order met. */
export function failureOf(
  row: { line: number; fields: readonly string[]; raw: string },
  problems: readonly Problem[],
): FailedRow {
  return {
    ...row,
    code: [...new Set(problems.map((p) => p.code))].join(';'),
    message: problems.map(problemText).join('; '),
    problems,
  };
}

/** The problems of a failed row, for --results. */
export function problemsOf(row: FailedRow): readonly Problem[] {
  return row.problems ?? [{ code: row.code, message: row.message }];
}

/** Lines of the failed-rows CSV: ws_line, ws_error_code, ws_error_message, then the file's columns. */
export class FailedRowsWriter {
  private readonly file: ChunkFile;
  private readonly delimiter: string;
  /** Indexes of the input's columns copied to the file (columns ws added before are left out). */
  private readonly keep: number[];
  private readonly header: string;

  constructor(file: ChunkFile, headers: readonly string[], delimiter: string) {
    this.file = file;
    this.delimiter = delimiter;
    this.keep = headers
      .map((h, i) => ((FAILED_COLUMNS as readonly string[]).includes(h) ? -1 : i))
      .filter((i) => i >= 0);
    this.header = this.line([...FAILED_COLUMNS, ...this.keep.map((i) => headers[i]!)]);
  }

  get path(): string {
    return this.file.path;
  }

  get bytes(): number {
    return this.file.bytes;
  }

  private line(fields: readonly string[]): string {
    return `${fields.map((f) => csvField(f, this.delimiter)).join(this.delimiter)}\r\n`;
  }

  /** Append these rows (after the header when the file is new). */
  async write(rows: readonly FailedRow[]): Promise<void> {
    if (rows.length === 0) return;
    let out = this.file.started ? '' : this.header;
    for (const r of rows) {
      let fields: string[];
      if (r.fields.length === 0) {
        fields = [r.raw.replace(/(\r\n|\n|\r)$/, '')];
      } else {
        fields = this.keep.map((i) => r.fields[i] ?? '');
        // A row with more fields than the header keeps the extra ones, so nothing is lost.
        const max = Math.max(...this.keep, -1);
        if (r.fields.length > max + 1) fields.push(...r.fields.slice(max + 1));
      }
      out += this.line([String(r.line), r.code, r.message, ...fields]);
    }
    await this.file.write(out);
  }
}

/** The files one run writes: the failed rows, and with --results every row's outcome. */
export interface RunFiles {
  failedPath: string;
  failedFile: ChunkFile;
  failed: FailedRowsWriter;
  resultsPath: string | undefined;
  results: ChunkFile | undefined;
  /** Finish writing both. */
  close(): Promise<void>;
  /**
   * After a run that failed no row: remove a failed-rows file an earlier run left at the
   * same path (not on a resume, whose earlier rows are still in it).
   */
  removeStaleFailedFile(): void;
}

/**
 * Open the files of a run: where --failed-file and --results say (relative to `cwd`), else
 * the failed rows next to the input (stdin: in `cwd`); a resume continues the files of the
 * run it resumes, at the sizes its checkpoint kept.
 */
export function openRunFiles(o: {
  input: string | undefined;
  failedFile: string | undefined;
  results: string | undefined;
  resume: Checkpoint | undefined;
  headers: readonly string[];
  delimiter: string;
  now: Date;
  cwd: string;
}): RunFiles {
  const { resume } = o;
  const failedPath = resolve(
    o.cwd,
    resume?.failed_file ?? o.failedFile ?? failedFilePath(o.input, o.now, o.cwd),
  );
  const resultsPath =
    resume?.results_file ?? (o.results === undefined ? undefined : resolve(o.cwd, o.results));
  const failedFile = new ChunkFile(failedPath, resume?.failed_bytes);
  const results =
    resultsPath === undefined ? undefined : new ChunkFile(resultsPath, resume?.results_bytes);
  return {
    failedPath,
    failedFile,
    failed: new FailedRowsWriter(failedFile, o.headers, o.delimiter),
    resultsPath,
    results,
    async close() {
      await failedFile.close();
      await results?.close();
    },
    removeStaleFailedFile() {
      if (resume || failedFile.bytes > 0) return;
      try {
        if (existsSync(failedPath) && readFileSync(failedPath, 'utf8').startsWith('ws_line'))
          failedFile.removeIfUnused();
      } catch {
        // leave it
      }
    },
  };
}
