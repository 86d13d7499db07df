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

export class ByteList {
  private buf: Buffer;
  private used: number;
  /** Where each text starts and ends in `buf`. */
  private readonly starts: number[] = [];
  private lastEnd = 0;
  private readonly separator: string;

  /** Texts after `prefix`, with `separator` between two of them. */
  constructor(prefix = '', separator = '', capacity = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(Math.max(capacity, prefix.length * 3));
    this.used = this.buf.write(prefix, 0);
    this.separator = separator;
  }

  get length(): number {
    return this.starts.length;
  }

  /** Bytes written, prefix and separators included. */
  get bytes(): number {
    return this.used;
  }

  push(text: string): void {
    if (this.starts.length > 0 && this.separator !== '') this.write(this.separator);
    this.starts.push(this.used);
    this.write(text);
    this.lastEnd = this.used;
  }

  /** The text at `index`. */
  at(index: number): string | undefined {
    if (index < 0 || index >= this.starts.length) return undefined;
    const end =
      index + 1 < this.starts.length
        ? this.starts[index + 1]! - Buffer.byteLength(this.separator)
        : this.lastEnd;
    return this.buf.toString('utf8', this.starts[index]!, end);
  }

  /** The bytes so far with `suffix` after them: the last thing done with the list. */
  finish(suffix = ''): Buffer {
    this.write(suffix);
    return this.buf.subarray(0, this.used);
  }

  private write(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    const most = text.length * 3;
    if (this.used + most > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.used + most));
      this.buf.copy(grown, 0, 0, this.used);
      this.buf = grown;
    }
    this.used += this.buf.write(text, this.used, 'utf8');
  }
}
