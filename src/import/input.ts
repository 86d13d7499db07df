// The input of an import: a file or stdin, read as a stream of bytes and handed on as
// UTF-8 bytes, the form csv-parse reads (never the whole file in memory). UTF-8 with or
// without a byte-order mark by default, passed on as read once checked; a UTF-16
// byte-order mark is honoured; --encoding takes any label Node's TextDecoder knows (latin1,
// windows-1252, utf-16le, shift_jis, ...), whose text is decoded and written as UTF-8.
import { isUtf8 } from 'node:buffer';
import { createReadStream, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.ts';

export interface InputSource {
  /** As the user wrote it ("-" for stdin). */
  arg: string;
  /** Absolute path, or undefined for stdin. */
  path: string | undefined;
  /** For messages: the file's base name, or "stdin". */
  label: string;
  /** Size in bytes when known (files), for the time-left estimate. */
  size: number | undefined;
  /** Bytes read so far. */
  bytesRead(): number;
  /** The input as UTF-8, in pieces (a UTF-8 byte-order mark dropped, as decoding drops it). */
  bytes(): AsyncIterable<Buffer>;
  /** The encoding in use (after byte-order-mark detection). */
  encoding(): string;
}

const READ_CHUNK = 64 * 1024;

/** Check an --encoding label; returns Node's canonical name. */
export function checkEncoding(label: string): string {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    throw new UsageError(
      `Unknown encoding "${label}".`,
      'Use a label such as utf-8, latin1, windows-1252, utf-16le, utf-16be or shift_jis.',
    );
  }
}

/**
 * Open FILE (relative to `cwd`), or stdin for "-". A missing file or a directory is a
 * usage error.
 */
export function openInput(
  arg: string,
  stdin: Readable,
  encoding: string | undefined,
  cwd: string,
): InputSource {
  let stream: () => AsyncIterable<Buffer>;
  let path: string | undefined;
  let size: number | undefined;
  if (arg === '-') {
    stream = () => stdin as AsyncIterable<Buffer>;
  } else {
    path = resolve(cwd, arg);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'ENOENT' ? `No such file: ${arg}.` : `Cannot read ${arg} (${code}).`,
        'Give the path of a CSV file, or - to read stdin.',
      );
    }
    if (st.isDirectory()) {
      throw new UsageError(`${arg} is a directory, not a CSV file.`);
    }
    size = st.isFile() ? st.size : undefined;
    const p = path;
    stream = () => createReadStream(p, { highWaterMark: READ_CHUNK });
  }
  let read = 0;
  let used = encoding === undefined ? 'utf-8' : checkEncoding(encoding);
  return {
    arg,
    path,
    label: path === undefined ? 'stdin' : basename(path),
    size,
    bytesRead: () => read,
    encoding: () => used,
    async *bytes() {
      let utf8: Utf8Check | undefined;
      let decoder: InstanceType<typeof TextDecoder> | undefined;
      for await (const piece of stream()) {
        const buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
        read += buf.length;
        if (!utf8 && !decoder) {
          used = encoding === undefined ? sniff(buf) : used;
          if (used === 'utf-8') utf8 = new Utf8Check(arg === '-' ? 'stdin' : arg);
          else decoder = new TextDecoder(used);
        }
        const out = utf8 ? utf8.take(buf) : Buffer.from(decoder!.decode(buf, { stream: true }));
        if (out.length > 0) yield out;
      }
      utf8?.end();
      const rest = decoder?.decode() ?? '';
      if (rest !== '') yield Buffer.from(rest);
    },
  };
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * UTF-8 checked piece by piece (Node's isUtf8), its byte-order mark dropped: a character
 * cut at the end of a piece is held back and checked with the next one. Bytes that are not
 * UTF-8 are a usage error naming --encoding.
 */
class Utf8Check {
  private readonly label: string;
  private held: Buffer | undefined;
  /** Bytes of the input before `held`. */
  private offset = 0;
  private started = false;

  constructor(label: string) {
    this.label = label;
  }

  /** The whole characters of the bytes held and `piece`, checked. */
  take(piece: Buffer): Buffer {
    const buf = this.held ? Buffer.concat([this.held, piece]) : piece;
    let start = 0;
    if (!this.started) {
      // The mark may come cut too (stdin can give a byte at a time).
      if (buf.length < BOM.length && BOM.subarray(0, buf.length).equals(buf)) {
        this.held = Buffer.from(buf);
        return buf.subarray(0, 0);
      }
      this.started = true;
      if (buf.subarray(0, BOM.length).equals(BOM)) start = BOM.length;
    }
    const end = wholeCharacters(buf);
    const out = buf.subarray(start, end);
    if (!isUtf8(out)) this.fail(this.offset + start, this.offset + buf.length);
    this.offset += end;
    this.held = end < buf.length ? Buffer.from(buf.subarray(end)) : undefined;
    return out;
  }

  /** The end of the input: a character left cut is not UTF-8. */
  end(): void {
    if (this.held) this.fail(this.offset, this.offset + this.held.length);
  }

  private fail(from: number, to: number): never {
    throw new UsageError(
      `${this.label} is not valid UTF-8 (in the bytes ${from} to ${to}).`,
      'Pass its encoding, e.g. --encoding windows-1252 (Excel on Windows), --encoding latin1 or --encoding utf-16le.',
    );
  }
}

/** Where the complete characters of UTF-8 bytes end (before a last one that is cut). */
function wholeCharacters(buf: Buffer): number {
  // Back over the continuation bytes (10xxxxxx) at the end, at most three, to their lead.
  let i = buf.length - 1;
  while (i >= 0 && buf.length - i <= 3 && (buf[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return buf.length;
  const lead = buf[i]!;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buf.length - i < size ? i : buf.length;
}

/** UTF-16 is recognised by its byte-order mark; everything else is read as UTF-8. */
function sniff(first: Buffer): string {
  if (first[0] === 0xff && first[1] === 0xfe) return 'utf-16le';
  if (first[0] === 0xfe && first[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}
