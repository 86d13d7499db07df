// IOStreams for tests: captured stdout and stderr, TTY on or off, scripted stdin.
import { PassThrough, Readable } from 'node:stream';
import { type Env, IOStreams } from '../../src/io/streams.ts';

export interface TestIOOptions {
  tty?: boolean;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  stdinTTY?: boolean;
  stdin?: string;
  env?: Env;
  /** The terminal's width (default 120; null for none, as when stdout is piped). */
  columns?: number | null;
}

export interface TestIO {
  io: IOStreams;
  stdout(): string;
  stderr(): string;
}

export function testIO(opts: TestIOOptions = {}): TestIO {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const stdin = Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]);
  const tty = opts.tty ?? false;
  const io = new IOStreams({
    stdout,
    stderr,
    stdin,
    isStdoutTTY: opts.stdoutTTY ?? tty,
    isStderrTTY: opts.stderrTTY ?? tty,
    isStdinTTY: opts.stdinTTY ?? tty,
    env: opts.env ?? {},
    ...(opts.columns === null ? {} : { columns: opts.columns ?? 120 }),
    ...(opts.columns === null || !(opts.stderrTTY ?? tty)
      ? {}
      : { errColumns: opts.columns ?? 120 }),
  });
  return {
    io,
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
  };
}
