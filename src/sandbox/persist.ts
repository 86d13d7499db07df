// The data file: the whole sandbox (API key, team, store) as JSON, so a sandbox can stop
// and start again where it was. It holds the API key, so it is written with mode 0600.
//
// Writes are atomic (temp file in the same directory, fsync, rename), debounced (a change
// is on disk within about a second), and never overlap: one write at a time.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { isPlainObject } from '../util/guards.ts';

export const DATA_FILE_FORMAT = 'ws-sandbox-data';
export const DATA_FILE_VERSION = 1;

export interface DataFile {
  format: typeof DATA_FILE_FORMAT;
  version: typeof DATA_FILE_VERSION;
  api_key: string;
  team_id: string;
  saved_at: string;
  /** Store.toJSON() */
  store: unknown;
}

/** A data file that cannot be read or written; the message names the file. */
export class DataFileError extends Error {
  readonly file: string;
  /** `problem` follows the file name: 'is corrupt: ...', 'cannot be written (...)'. */
  constructor(file: string, problem: string, options: { advice?: boolean } = {}) {
    const advice =
      options.advice === false
        ? ''
        : ' Fix or remove the file (removing it starts an empty sandbox with a new key).';
    super(`Sandbox data file ${file} ${problem}.${advice}`);
    this.name = 'DataFileError';
    this.file = file;
  }
}

/** The data file's content, or undefined when the file does not exist. */
export function readDataFile(file: string): DataFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DataFileError(file, `cannot be read (${(err as Error).message})`, { advice: false });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DataFileError(file, `is corrupt: not valid JSON (${(err as Error).message})`);
  }
  if (!isPlainObject(data) || data['format'] !== DATA_FILE_FORMAT) {
    throw new DataFileError(
      file,
      `is corrupt: not a sandbox data file (format is not '${DATA_FILE_FORMAT}')`,
    );
  }
  if (data['version'] !== DATA_FILE_VERSION) {
    throw new DataFileError(
      file,
      `has version ${String(data['version'])}, and this sandbox reads version ${DATA_FILE_VERSION}`,
    );
  }
  for (const name of ['api_key', 'team_id'] as const) {
    if (typeof data[name] !== 'string' || data[name] === '') {
      throw new DataFileError(file, `is corrupt: ${name} is missing or not a string`);
    }
  }
  if (!isPlainObject(data['store'])) throw new DataFileError(file, 'is corrupt: store is missing');
  return data as unknown as DataFile;
}

/** Write `text` to `file` atomically with mode 0600 (creating its directory, mode 0700). */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    try {
      await handle.chmod(0o600);
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncDirectory(dir);
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename itself durable. Not possible on every platform (Windows): best effort.
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // ignore
  } finally {
    await handle?.close().catch(() => {});
  }
}

export interface DataFileWriterOptions {
  /** Wait this long after a change before writing, gathering further changes (default 250). */
  delayMs?: number;
  log?: (line: string) => void;
}

/** Writes snapshot() to the data file after changes: debounced, atomic, one at a time. */
export class DataFileWriter {
  readonly file: string;
  private readonly snapshot: () => DataFile;
  private readonly delayMs: number;
  private readonly log: ((line: string) => void) | undefined;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private closed = false;

  constructor(file: string, snapshot: () => DataFile, options: DataFileWriterOptions = {}) {
    this.file = file;
    this.snapshot = snapshot;
    this.delayMs = options.delayMs ?? 250;
    this.log = options.log;
  }

  /** Note a change: the file is written within about delayMs (plus a write in progress). */
  schedule(): void {
    this.dirty = true;
    if (this.writing === undefined) this.arm();
  }

  /** Write now if anything changed since the last write; waits for a write in progress. */
  async flush(): Promise<void> {
    this.disarm();
    while (this.writing !== undefined) await this.writing.catch(() => {});
    this.disarm();
    if (this.dirty) await this.pump();
  }

  /** Final flush; no writes are scheduled afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private arm(): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump().catch((err: Error) => {
        this.log?.(`sandbox: could not write data file ${this.file}: ${err.message}`);
      });
    }, this.delayMs);
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private pump(): Promise<void> {
    if (this.writing !== undefined) return this.writing;
    if (!this.dirty) return Promise.resolve();
    this.dirty = false;
    let failed = false;
    const text = `${JSON.stringify({ ...this.snapshot() }, null, 2)}\n`;
    const writing = writeFileAtomic(this.file, text)
      .catch((err: unknown) => {
        failed = true;
        this.dirty = true;
        throw err;
      })
      .finally(() => {
        this.writing = undefined;
        // Changes made during the write go out in the next one. After a failed write the
        // next change (or flush) tries again.
        if (this.dirty && !failed) this.arm();
      });
    this.writing = writing;
    return writing;
  }
}
