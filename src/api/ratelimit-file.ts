// Where a key's rate-limit places are kept between commands (see ratelimit.ts): one small log
// per service and key in <config dir>/cache/, holding only wall-clock times. The file is
// named by the base URL, the team and the key's last four characters (never the key). A
// file that cannot be read or written only costs what it saves: nothing fails.
//
// Each command appends one line: the times at which the places its own requests took are
// free again. A line is one write() to a file opened for appending, which the system makes
// atomic against other appends, so commands run in parallel with the same key keep each
// other's lines with no lock (a lock cost every command that sent a request ~15 ms as it
// ended: loading the lock's code, making and removing its directory). A reader takes every
// time still ahead, from all lines; the limiter keeps the latest as its places.
//
// The log is kept small: a reader that finds it past COMPACT_BYTES moves it aside (a rename,
// atomic) and appends back the times still ahead. A command appending in the microseconds
// between that rename and the read could lose its line: its next command may meet a 429,
// which the client waits out.
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fnv1a } from '../util/hash.ts';
import { trimTrailingSlashes } from '../util/text.ts';

/** Past this size, the log is rewritten with only the times still ahead. */
export const COMPACT_BYTES = 4096;

export function limiterFile(
  configDir: string,
  baseUrl: string,
  teamId: string,
  apiKey: string,
): string {
  const name = fnv1a(`${trimTrailingSlashes(baseUrl)}\n${teamId}\n${apiKey.slice(-4)}`);
  return join(configDir, 'cache', `ratelimit-${name}.log`);
}

// Read and written with a loop over characters (util/text.ts) and plain file calls: a file
// read as latin1 and appendFileSync() cost every command that sends a request ~1 ms the
// first time they run (Node compiles them then).

/**
 * The times in a log's text still ahead of `wallNow`: words of 1 to 15 digits between
 * white space (anything else in it is skipped).
 */
function timesIn(text: string, wallNow: number): number[] {
  const out: number[] = [];
  let start = -1;
  let digits = true;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x20;
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) {
      if (start !== -1 && digits && i - start <= 15) {
        const t = Number(text.slice(start, i));
        if (t > wallNow) out.push(t);
      }
      start = -1;
    } else {
      if (start === -1) {
        start = i;
        digits = true;
      }
      if (c < 0x30 || c > 0x39) digits = false;
    }
  }
  return out;
}

/** One write() to the file opened for appending (made with mode 0600). */
function append(file: string, line: string): void {
  const fd = openSync(file, 'a', 0o600);
  try {
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
}

/** The saved times still ahead of `wallNow`, or none when the file is missing or unreadable. */
export function readLimiterFile(file: string, wallNow: number = Date.now()): number[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const times = timesIn(text, wallNow);
  if (text.length > COMPACT_BYTES) compact(file, wallNow);
  return times;
}

function compact(file: string, wallNow: number): void {
  const aside = `${file}.${process.pid}.old`;
  try {
    renameSync(file, aside);
    const ahead = timesIn(readFileSync(aside, 'utf8'), wallNow);
    unlinkSync(aside);
    if (ahead.length > 0) append(file, `${ahead.join(' ')}\n`);
  } catch {
    // Another command compacted it first, or the directory is read-only.
  }
}

/** Appends this command's busy places (wall-clock times) to the log. */
export function writeLimiterFile(file: string, times: readonly number[]): void {
  if (times.length === 0) return;
  const line = `${times.map((t) => Math.ceil(t)).join(' ')}\n`;
  try {
    append(file, line);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return;
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      append(file, line);
    } catch {
      // A read-only configuration directory: the next command may meet a 429 and retry.
    }
  }
}
