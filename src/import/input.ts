// The input of an import: a file or stdin, read as a stream of bytes and decoded to
// text as it goes (never the whole file in memory). UTF-8 with or without a byte-order
// mark by default; a UTF-16 byte-order mark is honoured; --encoding takes any label
// Node's TextDecoder knows (latin1, windows-1252, utf-16le, shift_jis, ...).
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
  /** The decoded text, in pieces. */
  text(): AsyncIterable<string>;
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
    async *text() {
      let decoder: InstanceType<typeof TextDecoder> | undefined;
      let offset = 0;
      try {
        for await (const piece of stream()) {
          const buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
          read += buf.length;
          if (!decoder) {
            used = encoding === undefined ? sniff(buf) : used;
            decoder = new TextDecoder(used, { fatal: used === 'utf-8' });
          }
          const text = decoder.decode(buf, { stream: true });
          offset += buf.length;
          if (text !== '') yield text;
        }
        if (decoder) {
          const rest = decoder.decode();
          if (rest !== '') yield rest;
        }
      } catch (err) {
        if (
          err instanceof TypeError &&
          (err as { code?: string }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA'
        ) {
          throw new UsageError(
            `${arg === '-' ? 'stdin' : arg} is not valid UTF-8 (in the bytes ${offset} to ${read}).`,
            'Pass its encoding, e.g. --encoding windows-1252 (Excel on Windows), --encoding latin1 or --encoding utf-16le.',
          );
        }
        throw err;
      }
    },
  };
}

/** UTF-16 is recognised by its byte-order mark; everything else is read as UTF-8. */
function sniff(first: Buffer): string {
  if (first[0] === 0xff && first[1] === 0xfe) return 'utf-16le';
  if (first[0] === 0xfe && first[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}
