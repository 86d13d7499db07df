// stdout when it is not a terminal (a pipe, a file, /dev/null): written with write(2) on its
// file descriptor. process.stdout would be a stream made for it on first use, which costs a
// command ~1 ms of start-up on a file and ~2 ms on a pipe (with its first write), and Node
// writes to pipes and files synchronously on Linux and macOS anyway: the same writes, in the
// same order, with nothing left queued at exit.
import { EventEmitter } from 'node:events';
import { writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { WsError } from '../errors.ts';

type Callback = (err?: Error | null) => void;

/** What the file descriptor does when written to, for tests to stand in for write(2). */
export type WriteFd = (fd: number, data: string | Uint8Array) => number;

export interface FdStdoutOptions {
  fd?: number;
  /** The stream to go on with once the descriptor would block (process.stdout). */
  stream: () => Writable;
  /** The reader went away (EPIPE): `ws … | head` stops there, as it would on a stream. */
  onBrokenPipe: () => void;
  write?: WriteFd;
}

/**
 * A Writable's write() (and its events) over a file descriptor. A descriptor left
 * non-blocking by whoever opened the pipe can refuse bytes (EAGAIN): the rest, and every
 * later write, then go through the stream, which waits for the pipe to drain (its 'drain'
 * is this writer's). A closed descriptor (`ws … >&-`) takes the output and drops it, as
 * Node's stdout does; any other failure (a full disk) throws, and the command reports it.
 */
export class FdStdout extends EventEmitter {
  private readonly fd: number;
  private readonly opts: FdStdoutOptions;
  private readonly writeFd: WriteFd;
  private stream: Writable | undefined;
  private closed = false;

  constructor(opts: FdStdoutOptions) {
    super();
    this.fd = opts.fd ?? 1;
    this.opts = opts;
    // Two calls: each of writeSync's overloads takes one of the two types.
    this.writeFd =
      opts.write ??
      ((fd, data) => (typeof data === 'string' ? writeSync(fd, data) : writeSync(fd, data)));
  }

  /** Bytes given but not yet written (only once the stream took over; writes are whole before). */
  get writableLength(): number {
    return this.stream?.writableLength ?? 0;
  }

  write(chunk: string | Uint8Array, encoding?: BufferEncoding | Callback, cb?: Callback): boolean {
    const done = typeof encoding === 'function' ? encoding : cb;
    if (this.stream !== undefined) return this.stream.write(chunk, done);
    if (this.closed) {
      done?.(null);
      return true;
    }
    let data: string | Uint8Array = chunk;
    for (;;) {
      let written: number;
      try {
        written = this.writeFd(this.fd, data);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') return this.handOver(data, done);
        if (code === 'EPIPE') {
          this.opts.onBrokenPipe();
          this.closed = true;
        } else if (code === 'EBADF') {
          this.closed = true;
        } else {
          throw outputFailed(err as NodeJS.ErrnoException);
        }
        done?.(null);
        return true;
      }
      // A pipe may take part of a large write; the rest is written next.
      const total = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      if (written >= total) break;
      data = (typeof data === 'string' ? Buffer.from(data) : data).subarray(written);
    }
    done?.(null);
    return true;
  }

  /** From now on, writes go through the stream (the descriptor would block). */
  private handOver(rest: string | Uint8Array, done: Callback | undefined): boolean {
    const stream = this.opts.stream();
    this.stream = stream;
    stream.on('drain', () => this.emit('drain'));
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') this.opts.onBrokenPipe();
      else if (this.listenerCount('error') > 0) this.emit('error', err);
    });
    return stream.write(rest, done);
  }
}

/** A write to stdout that failed for a reason a person can act on (a full disk). */
function outputFailed(err: NodeJS.ErrnoException): WsError {
  const reason = err.message.replace(/^[A-Z]+: /, '').replace(/, write$/, '');
  return new WsError(`Could not write the output: ${reason} (${err.code ?? 'error'}).`, {
    code: 'output_failed',
    cause: err,
    hint: 'Check where the output goes (a full disk, a device that refuses writes), or send it elsewhere.',
  });
}
