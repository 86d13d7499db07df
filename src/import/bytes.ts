// Texts kept as UTF-8 bytes in one growing buffer, each found again by its index: how a
// chunk of an import holds its rows while it is filled and in flight (the objects of its
// request body, and the rows' text for a row the API rejects).
//
// Held as strings, those rows lived on the JavaScript heap for the life of a chunk, and
// every garbage collection of the young generation copied them and counted them as
// survivors; V8 grows the young generation as survivors add up, and Node 24 lets it grow
// far (an import peaked at 255 MiB on Node 24 against 155 MiB on Node 20). Bytes in a
// Buffer are outside the heap: the collector never copies them, and the buffer is also the
// request body as it is sent (no joining of strings, no encoding at send time).

/**
 * Texts are written to the buffer some 64 K characters at a time: one write of a few
 * thousand rows costs far less than a write each (200,000 rows: 70 ms against 110-220 ms),
 * and the rows not yet written are a short string. Their sizes in bytes are not counted one
 * by one either: a write of ASCII text (most CSV files) writes a byte a character, and only
 * a write with other characters in it measures each of its texts.
 */
const WRITE_EVERY_CHARS = 64 * 1024;

export class ByteList {
  private buf: Buffer;
  /** Bytes in `buf`. */
  private used: number;
  /** Texts pushed since the last write to `buf`, with their separators. */
  private pending = '';
  /**
   * Where each text starts, in bytes; for the texts from `pendingFrom` on (not written yet),
   * in characters of `pending`.
   */
  private readonly starts: number[] = [];
  private pendingFrom = 0;
  /** Where the last written text ends. */
  private lastEnd = 0;
  private readonly separator: string;
  private readonly separatorBytes: number;

  /** Texts after `prefix`, with `separator` between two of them. */
  constructor(prefix = '', separator = '', capacity = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(Math.max(capacity, prefix.length * 3));
    this.used = this.buf.write(prefix, 0);
    this.separator = separator;
    this.separatorBytes = Buffer.byteLength(separator);
  }

  get length(): number {
    return this.starts.length;
  }

  /** Bytes so far, prefix and separators included (the texts pushed are written first). */
  get bytes(): number {
    this.write();
    return this.used;
  }

  /**
   * The most bytes the list may hold: a character of a text not yet written is three bytes
   * at most.
   */
  get mostBytes(): number {
    return this.used + this.pending.length * 3;
  }

  /** Whether `bytes` has reached `n`, measured exactly only when `n` is near. */
  reaches(n: number): boolean {
    // A character takes a byte at least and three at most.
    if (this.used + this.pending.length >= n) return true;
    if (this.mostBytes < n) return false;
    return this.bytes >= n;
  }

  push(text: string): void {
    if (this.starts.length > 0) this.pending += this.separator;
    this.starts.push(this.pending.length);
    this.pending += text;
    if (this.pending.length >= WRITE_EVERY_CHARS) this.write();
  }

  /** The text at `index`. */
  at(index: number): string | undefined {
    if (index < 0 || index >= this.starts.length) return undefined;
    this.write();
    const end =
      index + 1 < this.starts.length ? this.starts[index + 1]! - this.separatorBytes : this.lastEnd;
    return this.buf.toString('utf8', this.starts[index]!, end);
  }

  /** The bytes so far with `suffix` after them: the last thing done with the list. */
  finish(suffix = ''): Buffer {
    this.write();
    this.room(suffix.length * 3);
    this.used += this.buf.write(suffix, this.used, 'utf8');
    return this.buf.subarray(0, this.used);
  }

  /** The pending texts into the buffer, their starts counted in bytes. */
  private write(): void {
    if (this.pendingFrom === this.starts.length) return;
    const text = this.pending;
    this.room(text.length * 3);
    const base = this.used;
    const written = this.buf.write(text, base, 'utf8');
    if (written === text.length) {
      // ASCII only: a byte a character.
      for (let i = this.pendingFrom; i < this.starts.length; i++) this.starts[i]! += base;
    } else {
      let chars = 0;
      let bytes = base;
      for (let i = this.pendingFrom; i < this.starts.length; i++) {
        const at = this.starts[i]!;
        bytes += Buffer.byteLength(text.slice(chars, at));
        chars = at;
        this.starts[i] = bytes;
      }
    }
    this.used += written;
    this.lastEnd = this.used;
    this.pending = '';
    this.pendingFrom = this.starts.length;
  }

  /** Room for `most` more bytes. */
  private room(most: number): void {
    if (this.used + most <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.used + most));
    this.buf.copy(grown, 0, 0, this.used);
    this.buf = grown;
  }
}
