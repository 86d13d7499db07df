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
 * and the rows not yet written are a short string. Their size in bytes is counted as each is
 * pushed, so `bytes` is exact at all times.
 */
const WRITE_EVERY_CHARS = 64 * 1024;

export class ByteList {
  private buf: Buffer;
  /** Bytes in `buf`. */
  private used: number;
  /** Texts pushed since the last write to `buf` (separators included), and their bytes. */
  private pending = '';
  private pendingBytes = 0;
  /** Where each text starts and ends, in bytes. */
  private readonly starts: number[] = [];
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

  /** Bytes so far, prefix and separators included. */
  get bytes(): number {
    return this.used + this.pendingBytes;
  }

  push(text: string): void {
    if (this.starts.length > 0 && this.separatorBytes > 0) {
      this.pending += this.separator;
      this.pendingBytes += this.separatorBytes;
    }
    this.starts.push(this.bytes);
    this.pending += text;
    this.pendingBytes += Buffer.byteLength(text);
    this.lastEnd = this.bytes;
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
    this.pending += suffix;
    this.pendingBytes += Buffer.byteLength(suffix);
    this.write();
    return this.buf.subarray(0, this.used);
  }

  /** The pending texts into the buffer, grown to hold them. */
  private write(): void {
    if (this.pendingBytes === 0) return;
    if (this.used + this.pendingBytes > this.buf.length) {
      const grown = Buffer.allocUnsafe(
        Math.max(this.buf.length * 2, this.used + this.pendingBytes),
      );
      this.buf.copy(grown, 0, 0, this.used);
      this.buf = grown;
    }
    this.used += this.buf.write(this.pending, this.used, 'utf8');
    this.pending = '';
    this.pendingBytes = 0;
  }
}
