// The input of an import: a file or stdin, read as a stream of bytes and handed on as
// UTF-8 bytes, the form csv-parse reads (never the whole file in memory). UTF-8 with or
// without a byte-order mark by default, passed on as read once checked; a UTF-16
// byte-order mark is honoured (Excel's "Unicode Text"); --encoding takes any label Node's
// TextDecoder knows (latin1, windows-1252, utf-16le, shift_jis, ...), whose text is decoded
// and written as UTF-8. A file that is not UTF-8 and whose bytes before the first that is
// not are ASCII is read as Windows-1252 or Mac Roman, whichever its letters read as words
// in (Excel on Windows and on an old Mac save CSV so), and the input says so once.
//
// Windows-1252 and Mac Roman are decoded by iconv-lite (loaded only then): Node 20's
// TextDecoder reads the bytes 0x80-0x9F of Windows-1252 as control characters, not as
// the €, curly quotes and dashes they are.
import { isAscii, isUtf8 } from 'node:buffer';
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
  /** How the encoding was found when it was not given nor plain UTF-8 (for the summary). */
  detected(): string | undefined;
  /** Told once when the encoding is detected (a byte-order mark, or bytes that are not UTF-8). */
  onDetect?: ((encoding: string, why: string) => void) | undefined;
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
  let detected: string | undefined;
  const source: InputSource = {
    arg,
    path,
    label: path === undefined ? 'stdin' : basename(path),
    size,
    bytesRead: () => read,
    encoding: () => used,
    detected: () => detected,
    async *bytes() {
      let utf8: Utf8Check | undefined;
      let decoder: Decoder | undefined;
      const detect = (name: string, why: string) => {
        used = name;
        detected = why;
        source.onDetect?.(name, why);
      };
      for await (const piece of stream()) {
        const buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
        read += buf.length;
        if (!utf8 && !decoder) {
          if (encoding === undefined) {
            const bom = sniff(buf);
            if (bom !== 'utf-8') detect(bom, 'its byte-order mark');
          }
          if (used === 'utf-8') utf8 = new Utf8Check(arg === '-' ? 'stdin' : arg);
          else decoder = await decoderFor(used);
        }
        let out: Buffer;
        if (utf8) {
          const checked = utf8.take(buf, encoding === undefined);
          if (checked === undefined) {
            // Not UTF-8, and ASCII before: a legacy encoding, guessed from these bytes.
            const rest = utf8.rest();
            const guess = await guessLegacy(rest);
            detect(
              guess,
              `it is not UTF-8 (byte ${utf8.offsetOfRest + firstNonUtf8(rest)}), and its letters read as ${guess === 'macintosh' ? 'Mac Roman' : 'Windows-1252'}`,
            );
            utf8 = undefined;
            decoder = await decoderFor(guess);
            out = Buffer.from(decoder.write(rest));
          } else out = checked;
        } else out = Buffer.from(decoder!.write(buf));
        if (out.length > 0) yield out;
      }
      const cut = utf8?.end(encoding === undefined);
      if (cut) {
        const guess = await guessLegacy(cut);
        detect(
          guess,
          `it is not UTF-8 (its last bytes), and its letters read as ${guess === 'macintosh' ? 'Mac Roman' : 'Windows-1252'}`,
        );
        decoder = await decoderFor(guess);
        yield Buffer.from(decoder.write(cut));
      }
      const rest = decoder?.end() ?? '';
      if (rest !== '') yield Buffer.from(rest);
    },
  };
  return source;
}

/** Text from bytes, piece by piece (a character cut between pieces is held back). */
interface Decoder {
  write(bytes: Buffer): string;
  end(): string;
}

/** A decoder for an encoding's canonical name: iconv-lite's where it has one, else the platform's. */
async function decoderFor(name: string): Promise<Decoder> {
  if (name === 'windows-1252' || name === 'macintosh') {
    const iconv = (await import('iconv-lite')).default;
    const d = iconv.getDecoder(name);
    return { write: (b) => d.write(b), end: () => d.end() ?? '' };
  }
  const d = new TextDecoder(name);
  return { write: (b) => d.decode(b, { stream: true }), end: () => d.decode() };
}

/** Where the first byte that is not UTF-8 is, in bytes that are not UTF-8. */
function firstNonUtf8(buf: Buffer): number {
  let lo = 0;
  let hi = buf.length;
  // The longest prefix that is UTF-8 (a character may be cut at its end).
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (isUtf8(buf.subarray(0, wholeCharacters(buf.subarray(0, mid))))) lo = mid;
    else hi = mid - 1;
  }
  return wholeCharacters(buf.subarray(0, lo));
}

/** Bytes 0x80-0xFF as each candidate reads them, to judge which reads as words. */
const LEGACY = ['windows-1252', 'macintosh'] as const;

/**
 * Windows-1252 or Mac Roman, by how the bytes above 0x7F read in each: a lowercase letter
 * within a word, or a letter or punctuation that words hold (’ “ ” – — …), scores; a
 * symbol, a control character, or a capital within lowercase letters counts against.
 * Ties go to Windows-1252, the more common.
 */
async function guessLegacy(buf: Buffer): Promise<(typeof LEGACY)[number]> {
  let best: (typeof LEGACY)[number] = 'windows-1252';
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const name of LEGACY) {
    const table = await legacyTable(name);
    let score = 0;
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i]!;
      if (b < 0x80) continue;
      const ch = table[b - 0x80]!;
      const prev = i > 0 ? buf[i - 1]! : 0x20;
      const next = i + 1 < buf.length ? buf[i + 1]! : 0x20;
      const inWord = isAsciiLetter(prev) || isAsciiLetter(next);
      if (/\p{Ll}/u.test(ch)) score += inWord ? 2 : 1;
      else if (/\p{Lu}/u.test(ch)) score += isLower(prev) ? -1 : 1;
      else if (/[’‘“”–—…€]/.test(ch)) score += 1;
      else score -= 2;
    }
    if (score > bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}

/** The characters of bytes 0x80-0xFF in a legacy encoding, as iconv-lite decodes them. */
async function legacyTable(name: (typeof LEGACY)[number]): Promise<string[]> {
  const iconv = (await import('iconv-lite')).default;
  return Array.from({ length: 128 }, (_, i) => iconv.decode(Buffer.from([0x80 + i]), name));
}

const isAsciiLetter = (b: number) => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
const isLower = (b: number) => b >= 0x61 && b <= 0x7a;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * UTF-8 checked piece by piece (Node's isUtf8), its byte-order mark dropped: a character
 * cut at the end of a piece is held back and checked with the next one. Bytes that are not
 * UTF-8 are a usage error naming --encoding, unless every byte before them was ASCII and
 * the encoding may be detected: then `take` answers undefined, and `rest()` holds the bytes
 * from there on, to be read in another encoding.
 */
class Utf8Check {
  private readonly label: string;
  private held: Buffer | undefined;
  /** Bytes of the input before `held`. */
  private offset = 0;
  private started = false;
  private bom = false;
  /** Every byte so far was ASCII. */
  private ascii = true;
  private left: Buffer | undefined;

  constructor(label: string) {
    this.label = label;
  }

  /** The whole characters of the bytes held and `piece`, checked. */
  take(piece: Buffer, mayDetect = false): Buffer | undefined {
    const buf = this.held ? Buffer.concat([this.held, piece]) : piece;
    let start = 0;
    if (!this.started) {
      // The mark may come cut too (stdin can give a byte at a time).
      if (buf.length < BOM.length && BOM.subarray(0, buf.length).equals(buf)) {
        this.held = Buffer.from(buf);
        return buf.subarray(0, 0);
      }
      this.started = true;
      if (buf.subarray(0, BOM.length).equals(BOM)) {
        start = BOM.length;
        this.bom = true;
      }
    }
    const end = wholeCharacters(buf);
    const out = buf.subarray(start, end);
    if (!isUtf8(out)) {
      if (mayDetect && this.ascii && !this.bom) {
        this.left = buf.subarray(start);
        return undefined;
      }
      this.fail(this.offset + start, this.offset + buf.length);
    }
    if (this.ascii && !isAscii(out)) this.ascii = false;
    this.offset += end;
    this.held = end < buf.length ? Buffer.from(buf.subarray(end)) : undefined;
    return out;
  }

  /** After `take` answered undefined: the bytes from the piece that is not UTF-8 on. */
  rest(): Buffer {
    return this.left!;
  }

  /** Where `rest()` starts in the input. */
  get offsetOfRest(): number {
    return this.offset;
  }

  /**
   * The end of the input: a character left cut is not UTF-8 (with `mayDetect`, and ASCII
   * before it, its bytes are answered, to be read in another encoding).
   */
  end(mayDetect = false): Buffer | undefined {
    if (!this.held) return undefined;
    if (mayDetect && this.ascii && !this.bom) return this.held;
    this.fail(this.offset, this.offset + this.held.length);
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
