// The data file: the whole sandbox (API key, team, store), so a sandbox can stop and start
// again where it was, and lose no acknowledged write when it is killed. It holds the API key,
// so it is written with mode 0600.
//
// Version 2 is a journal, one JSON object a line: a header (format, version, key, team),
// then changes. A change is an entry of a keyed slice (`{"s":slice,"k":key,"v":value}`, no
// `v` when the entry is gone), a whole slice (`{"s":slice,"w":snapshot}`, for the small
// slices that keep no entries), the clock offset (`{"c":ms}`) or a reset (`{"r":1}`). The
// changes of a request are appended (one write) before its answer leaves, so a kill -9 after
// an answer never loses it; what survives a power loss depends on the fsync policy (`always`:
// every append is fsync'ed before the answer; `everysec`, the default: fsync once a second
// off the event loop; `no`: when the system writes). A write costs the entries it changed,
// whatever the size of the store.
//
// When the journal has grown to twice its size after the last rewrite (and at least
// compactMinBytes), it is rewritten in the background as one line per entry: in slices of a
// few milliseconds between requests, changes made meanwhile appended to both files, then the
// new file is synced and renamed over the old one (like Redis's AOF rewrite). A kill at any
// moment leaves the old file or the new one whole; temp files of a killed rewrite are removed
// at start. Version 1 files (one JSON snapshot, written by earlier versions) are read and
// rewritten as version 2 at start.

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { promisify } from 'node:util';

import { isPlainObject } from '../util/guards.ts';
import type { JournaledSlice, Store, StoreChange } from './store.ts';

export const DATA_FILE_FORMAT = 'ws-sandbox-data';
/** The journal. Version 1, one JSON snapshot, is still read (and rewritten as version 2). */
export const DATA_FILE_VERSION = 2;
const SNAPSHOT_VERSION = 1;

/** When the data file reaches the disk (see the header). */
export type FsyncPolicy = 'always' | 'everysec' | 'no';
export const FSYNC_POLICIES: readonly FsyncPolicy[] = ['always', 'everysec', 'no'];

/** Rewrite the journal when it is twice its size after the last rewrite, and at least this. */
export const COMPACT_MIN_BYTES = 16 * 1024 * 1024;

/** The file of team `name` of a sandbox whose first team's data file is `file`. */
export function teamFile(file: string, name: string): string {
  return `${file}.team-${name}`;
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

interface Identity {
  api_key: string;
  team_id: string;
  /** The team's name (files written before teams had names have none). */
  name?: string;
  /**
   * The other teams of the sandbox, each kept in a file of its own beside this one
   * (teamFile()): in the first team's file only.
   */
  teams?: string[];
}

/** A version 1 file: one snapshot of the store. */
export interface SnapshotFile extends Identity {
  version: typeof SNAPSHOT_VERSION;
  /** Store.toJSON() */
  store: unknown;
}

/** A version 2 file, replayed: each slice's last whole snapshot and its entries since. */
export interface JournalFile extends Identity {
  version: typeof DATA_FILE_VERSION;
  clockOffsetMs: number;
  slices: Map<string, JournaledSlice>;
  /** Bytes of whole lines: a torn last line (a kill during an append) is cut off at start. */
  validBytes: number;
}

export type DataFile = SnapshotFile | JournalFile;

/** The data file's content, or undefined when the file does not exist. */
export function readDataFile(file: string): DataFile | undefined {
  let buffer: Buffer;
  try {
    buffer = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DataFileError(file, `cannot be read (${(err as Error).message})`, { advice: false });
  }
  const firstEnd = buffer.indexOf(10);
  const first = firstEnd < 0 ? undefined : parseLine(buffer.toString('utf8', 0, firstEnd));
  if (isPlainObject(first) && first['version'] === DATA_FILE_VERSION) {
    checkHeader(file, first);
    return readJournal(file, buffer, first as unknown as Identity, firstEnd + 1);
  }
  let data: unknown;
  try {
    data = JSON.parse(buffer.toString('utf8'));
  } catch (err) {
    throw new DataFileError(file, `is corrupt: not valid JSON (${(err as Error).message})`);
  }
  checkHeader(file, data);
  if (!isPlainObject(data['store'])) throw new DataFileError(file, 'is corrupt: store is missing');
  return data as unknown as SnapshotFile;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function checkHeader(file: string, data: unknown): asserts data is Record<string, unknown> {
  if (!isPlainObject(data) || data['format'] !== DATA_FILE_FORMAT) {
    throw new DataFileError(
      file,
      `is corrupt: not a sandbox data file (format is not '${DATA_FILE_FORMAT}')`,
    );
  }
  if (data['version'] !== DATA_FILE_VERSION && data['version'] !== SNAPSHOT_VERSION) {
    throw new DataFileError(
      file,
      `has version ${String(data['version'])}, and this sandbox reads versions ${SNAPSHOT_VERSION} and ${DATA_FILE_VERSION}`,
    );
  }
  for (const name of ['api_key', 'team_id'] as const) {
    if (typeof data[name] !== 'string' || data[name] === '') {
      throw new DataFileError(file, `is corrupt: ${name} is missing or not a string`);
    }
  }
}

/** Replays the journal's lines after the header (`start`). */
function readJournal(file: string, buffer: Buffer, header: Identity, start: number): JournalFile {
  const validBytes = buffer.lastIndexOf(10) + 1;
  const text = buffer.toString('utf8', start, validBytes);
  let clockOffsetMs = 0;
  let slices = new Map<string, JournaledSlice>();
  const sliceOf = (name: string) => {
    let state = slices.get(name);
    if (state === undefined) {
      state = { entries: new Map() };
      slices.set(name, state);
    }
    return state;
  };
  // One parse of all lines as an array is several times faster than a parse per line; a
  // line that does not parse is then looked for, to name it.
  const changes = parseLines(file, text);
  for (const [i, change] of changes.entries()) {
    if (isPlainObject(change)) {
      const name = change['s'];
      if (typeof name === 'string') {
        if (typeof change['k'] === 'string') {
          sliceOf(name).entries.set(change['k'], change['v']);
          continue;
        }
        if (Object.hasOwn(change, 'w')) {
          slices.set(name, { whole: change['w'], entries: new Map() });
          continue;
        }
      } else if (typeof change['c'] === 'number' && Number.isFinite(change['c'])) {
        clockOffsetMs = change['c'];
        continue;
      } else if (change['r'] === 1) {
        slices = new Map();
        clockOffsetMs = 0;
        continue;
      }
    }
    throw new DataFileError(file, `is corrupt: line ${i + 2} is not a change`);
  }
  return {
    api_key: header.api_key,
    team_id: header.team_id,
    ...(typeof header.name === 'string' ? { name: header.name } : {}),
    ...(Array.isArray(header.teams) && header.teams.every((t) => typeof t === 'string')
      ? { teams: header.teams }
      : {}),
    version: DATA_FILE_VERSION,
    clockOffsetMs,
    slices,
    validBytes,
  };
}

/** The journal's lines (after the header) parsed; the first bad one is named (line 2 on). */
function parseLines(file: string, text: string): unknown[] {
  if (text === '') return [];
  try {
    return JSON.parse(`[${text.slice(0, -1).replaceAll('\n', ',')}]`) as unknown[];
  } catch {
    const lines = text.slice(0, -1).split('\n');
    for (const [i, line] of lines.entries()) {
      try {
        JSON.parse(line);
      } catch (err) {
        throw new DataFileError(
          file,
          `is corrupt: line ${i + 2} is not valid JSON (${(err as Error).message})`,
        );
      }
    }
    throw new DataFileError(file, 'is corrupt: a line holds more than one JSON value');
  }
}

export interface JournalOptions {
  apiKey: string;
  teamId: string;
  /** The team's name, kept in the header. */
  name?: string;
  /** In the first team's file: the names of the other teams (each in teamFile()). */
  teams?: readonly string[];
  /** Default 'everysec'. */
  fsync?: FsyncPolicy;
  /** Default COMPACT_MIN_BYTES. */
  compactMinBytes?: number;
  log?: ((line: string) => void) | undefined;
}

const fsyncAsync = promisify(fsync);

/** Keeps the data file: appends the store's changes, syncs them, rewrites it when it grew. */
export class Journal {
  readonly file: string;
  private readonly store: Store;
  private readonly options: JournalOptions;
  private readonly policy: FsyncPolicy;
  private fd: number;
  private bytes = 0;
  private baseBytes = 0;
  /** Per slice, the keys of changed entries, or true: the whole slice. */
  private dirty = new Map<string, Set<string> | true>();
  private clockDirty = false;
  private replaced = false;
  /** Text a failed append did not write, written first next time. */
  private unwritten = '';
  private scheduled = false;
  private unsynced = false;
  private syncing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  /** Lines appended while a rewrite runs: they go to the new file too. */
  private rewriteTail: string[] | undefined;
  private rewriting: Promise<void> | undefined;
  private closed = false;
  private readonly unsubscribe: () => void;

  /**
   * Open the data file for `store`, which holds what the file held (`loaded`). The file is
   * written anew (synchronously) when there is none, when it is a version 1 snapshot, or
   * when `rewrite` (the key, team or seed changed it).
   */
  constructor(
    file: string,
    store: Store,
    options: JournalOptions,
    loaded: DataFile | undefined,
    rewrite: boolean,
  ) {
    this.file = file;
    this.store = store;
    this.options = options;
    this.policy = options.fsync ?? 'everysec';
    const dir = dirname(file);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      removeLeftovers(file);
      if (
        loaded === undefined ||
        loaded.version !== DATA_FILE_VERSION ||
        rewrite ||
        keptWholeNowKeyed(loaded, store)
      ) {
        const temp = tempPath(file);
        const fd = openSync(temp, 'wx', 0o600);
        try {
          let text = this.headerLines();
          for (const name of store.sliceNames()) {
            if (!store.isKeyed(name)) text += wholeLine(name, store.sliceJSON(name));
            else
              for (const [key, value] of store.sliceEntries(name))
                text += entryLine(name, key, value);
            if (text.length > 1 << 20) {
              this.bytes += writeAll(fd, text);
              text = '';
            }
          }
          this.bytes += writeAll(fd, text);
          fsyncSync(fd);
        } catch (err) {
          closeSync(fd);
          rmSync(temp, { force: true });
          throw err;
        }
        renameSync(temp, file);
        syncDirectory(dir);
        this.fd = fd;
      } else {
        this.fd = openSync(file, 'a', 0o600);
        ftruncateSync(this.fd, loaded.validBytes);
        this.bytes = loaded.validBytes;
      }
    } catch (err) {
      throw new DataFileError(file, `cannot be written (${(err as Error).message})`, {
        advice: false,
      });
    }
    this.baseBytes = this.bytes;
    this.unsubscribe = store.onChange((change) => this.note(change));
    store.markJournaled();
    if (this.policy === 'everysec') {
      this.timer = setInterval(() => void this.sync().catch(() => {}), 1000);
      this.timer.unref();
    }
  }

  /** Remember a change; it is appended by commit() (before the answer) or right after. */
  private note(change: StoreChange): void {
    if (this.closed) return;
    if (change.kind === 'replaced') {
      this.replaced = true;
      this.clockDirty = true;
      this.dirty.clear();
    } else if (change.kind === 'clock') {
      this.clockDirty = true;
    } else {
      const keys = this.dirty.get(change.name);
      if (change.key === undefined) this.dirty.set(change.name, true);
      else if (keys === undefined) this.dirty.set(change.name, new Set([change.key]));
      else if (keys !== true) keys.add(change.key);
    }
    if (!this.scheduled) {
      // Changes made outside a request (timers: waiting runs, webhook retries, import jobs).
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        try {
          this.commit();
        } catch (err) {
          this.options.log?.(`sandbox: ${(err as Error).message}`);
        }
      });
    }
  }

  /**
   * Append the changes made since the last commit (one write), and fsync them with the
   * policy `always`. The server calls it before every answer. Throws DataFileError when the
   * file cannot be written (the changes stay pending).
   */
  commit(): void {
    if (this.closed) return;
    if (this.dirty.size === 0 && !this.clockDirty && !this.replaced && this.unwritten === '') {
      return; // a read
    }
    const lines = [this.unwritten];
    if (this.replaced) lines.push('{"r":1}\n');
    if (this.clockDirty) lines.push(`{"c":${this.store.clock.offsetMs}}\n`);
    for (const [name, keys] of this.dirty) {
      if (keys === true) lines.push(wholeLine(name, this.store.sliceJSON(name)));
      else
        for (const key of keys) lines.push(entryLine(name, key, this.store.sliceEntry(name, key)));
    }
    const text = lines.join('');
    this.replaced = false;
    this.clockDirty = false;
    this.dirty.clear();
    if (text === '') return;
    try {
      this.bytes += writeAll(this.fd, text);
      this.unwritten = '';
      if (this.policy === 'always') fsyncSync(this.fd);
      else this.unsynced = true;
    } catch (err) {
      this.unwritten = text;
      throw new DataFileError(this.file, `cannot be written (${(err as Error).message})`, {
        advice: false,
      });
    }
    this.rewriteTail?.push(text);
    this.store.committed();
    const limit = Math.max(this.options.compactMinBytes ?? COMPACT_MIN_BYTES, 2 * this.baseBytes);
    if (this.bytes >= limit) void this.compact();
  }

  /** Rewrite the file in the background now (or wait for the rewrite under way). */
  compact(): Promise<void> {
    this.rewriting ??= this.rewrite()
      .catch((err: Error) => {
        this.options.log?.(`sandbox: could not rewrite data file ${this.file}: ${err.message}`);
      })
      .finally(() => {
        this.rewriting = undefined;
      });
    return this.rewriting;
  }

  /** Bytes in the file now. */
  get size(): number {
    return this.bytes;
  }

  /** Commit, then fsync whatever is not on disk yet. */
  async flush(): Promise<void> {
    this.commit();
    await this.sync();
  }

  /** Final commit and sync; nothing is written afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.commit();
    this.closed = true;
    this.unsubscribe();
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.rewriting;
    await this.syncing;
    fsyncSync(this.fd);
    closeSync(this.fd);
  }

  /** fsync off the event loop, one at a time. */
  private sync(): Promise<void> {
    if (this.syncing !== undefined) return this.syncing.then(() => this.sync());
    if (!this.unsynced || this.closed) return Promise.resolve();
    this.unsynced = false;
    const syncing = fsyncAsync(this.fd)
      .catch((err: Error) => {
        this.unsynced = true;
        this.options.log?.(`sandbox: could not sync data file ${this.file}: ${err.message}`);
      })
      .finally(() => {
        this.syncing = undefined;
      });
    this.syncing = syncing;
    return syncing;
  }

  private headerLines(): string {
    const header = {
      format: DATA_FILE_FORMAT,
      version: DATA_FILE_VERSION,
      api_key: this.options.apiKey,
      team_id: this.options.teamId,
      ...(this.options.name === undefined ? {} : { name: this.options.name }),
      ...(this.options.teams === undefined || this.options.teams.length === 0
        ? {}
        : { teams: this.options.teams }),
      saved_at: this.store.clock.iso(),
    };
    return `${JSON.stringify(header)}\n{"c":${this.store.clock.offsetMs}}\n`;
  }

  /**
   * Write the store anew into a temp file, a few milliseconds at a time, while commits go on
   * to the old file and to `rewriteTail`; then the tail, a sync, and the rename. Entries read
   * during the rewrite may be older than the tail's: the tail, later in the file, wins.
   */
  private async rewrite(): Promise<void> {
    const temp = tempPath(this.file);
    const fd = openSync(temp, 'wx', 0o600);
    this.rewriteTail = [];
    let bytes = 0;
    try {
      let text = this.headerLines();
      let since = performance.now();
      const pause = async () => {
        bytes += writeAll(fd, text);
        text = '';
        if (performance.now() - since < 4) return;
        await yieldToLoop();
        if (this.closed) throw new Error('the sandbox closed');
        since = performance.now();
      };
      for (const name of this.store.sliceNames()) {
        if (!this.store.isKeyed(name)) {
          text += wholeLine(name, this.store.sliceJSON(name));
          continue;
        }
        let n = 0;
        for (const [key, value] of this.store.sliceEntries(name)) {
          text += entryLine(name, key, value);
          if (++n % 256 === 0) await pause();
        }
      }
      bytes += writeAll(fd, text + this.rewriteTail.join(''));
      this.rewriteTail = [];
      await fsyncAsync(fd);
      if (this.closed) throw new Error('the sandbox closed');
      // Nothing runs between these lines: the new file gets the last changes, then takes over.
      bytes += writeAll(fd, this.rewriteTail.join(''));
      this.rewriteTail = undefined;
      if (this.policy === 'always') fsyncSync(fd);
      renameSync(temp, this.file);
    } catch (err) {
      this.rewriteTail = undefined;
      closeSync(fd);
      rmSync(temp, { force: true });
      throw err;
    }
    const old = this.fd;
    this.fd = fd;
    this.bytes = bytes;
    this.baseBytes = bytes;
    const syncing = this.syncing;
    void (syncing ?? Promise.resolve()).then(() => closeSync(old));
    syncDirectory(dirname(this.file));
  }
}

/**
 * True when the file holds a whole snapshot of a slice that now keeps keyed entries (runs,
 * deliveries, import jobs and grants were journaled whole by earlier versions): it is
 * rewritten at start, so its changes are appended as entries from then on.
 */
function keptWholeNowKeyed(loaded: JournalFile, store: Store): boolean {
  for (const [name, state] of loaded.slices) {
    if (state.whole !== undefined && store.sliceNames().includes(name) && store.isKeyed(name)) {
      return true;
    }
  }
  return false;
}

function entryLine(name: string, key: string, value: unknown): string {
  return value === undefined
    ? `${JSON.stringify({ s: name, k: key })}\n`
    : `${JSON.stringify({ s: name, k: key, v: value })}\n`;
}

function wholeLine(name: string, value: unknown): string {
  return `${JSON.stringify({ s: name, w: value })}\n`;
}

/** Write all of `text`; returns its length in bytes. */
function writeAll(fd: number, text: string): number {
  const buffer = Buffer.from(text, 'utf8');
  let done = 0;
  while (done < buffer.length) done += writeSync(fd, buffer, done, buffer.length - done);
  return buffer.length;
}

function tempPath(file: string): string {
  return join(
    dirname(file),
    `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
}

/** Temp files of a rewrite whose process is gone (killed during a save). */
function removeLeftovers(file: string): void {
  const prefix = `.${basename(file)}.`;
  for (const name of readdirSync(dirname(file))) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && isRunning(pid)) continue;
    rmSync(join(dirname(file), name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function syncDirectory(dir: string): void {
  // Makes a rename durable. Not possible on every platform (Windows): best effort.
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // ignore
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
