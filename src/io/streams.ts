// IOStreams own every decision about presentation: TTY or not, colour, prompts,
// progress. Commands write through them and never touch process.std* directly.
import type { Readable, Writable } from 'node:stream';
import { Chalk, type ChalkInstance } from 'chalk';

export type Env = Record<string, string | undefined>;

export interface IOStreamsInit {
  stdout: Writable;
  stderr: Writable;
  /** Or a function giving it when first used (opening process.stdin costs start-up time). */
  stdin: Readable | (() => Readable);
  isStdoutTTY: boolean;
  isStderrTTY: boolean;
  isStdinTTY: boolean | (() => boolean);
  env: Env;
  columns?: number;
}

export interface PresentationFlags {
  color?: boolean; // false with --no-color
  quiet?: boolean;
  debug?: boolean;
  yes?: boolean;
  noInput?: boolean;
}

export interface Progress {
  /** Replace the progress text. */
  update(text: string): void;
  /** Stop and leave a final line (a tick on a TTY). */
  succeed(text?: string): void;
  /** Stop and leave a failure line. */
  fail(text?: string): void;
  /** Stop without a final line. */
  stop(): void;
}

/** 0 = no colour, 1 = 16 colours, 2 = 256, 3 = truecolor. */
export function colorLevel(env: Env, isTTY: boolean, flagOff: boolean): 0 | 1 | 2 | 3 {
  if (flagOff) return 0;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2') return 2;
    if (force === '3') return 3;
    return 1;
  }
  if (!isTTY || env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (env.TERM?.includes('256')) return 2;
  return 1;
}

export class IOStreams {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly isStdoutTTY: boolean;
  readonly isStderrTTY: boolean;
  readonly env: Env;
  readonly columns: number;
  quiet = false;
  debugEnabled = false;
  yes = false;
  noInput = false;
  /** Colour for data on stdout (tables) and for messages on stderr. */
  out: ChalkInstance;
  err: ChalkInstance;
  private colorOff = false;
  private stdinOf: Readable | (() => Readable);
  private stdinTTYOf: boolean | (() => boolean);

  constructor(init: IOStreamsInit) {
    this.stdout = init.stdout;
    this.stderr = init.stderr;
    this.stdinOf = init.stdin;
    this.isStdoutTTY = init.isStdoutTTY;
    this.isStderrTTY = init.isStderrTTY;
    this.stdinTTYOf = init.isStdinTTY;
    this.env = init.env;
    this.columns = init.columns ?? 100;
    this.out = new Chalk({ level: colorLevel(this.env, this.isStdoutTTY, false) });
    this.err = new Chalk({ level: colorLevel(this.env, this.isStderrTTY, false) });
  }

  get stdin(): Readable {
    if (typeof this.stdinOf === 'function') this.stdinOf = this.stdinOf();
    return this.stdinOf;
  }

  get isStdinTTY(): boolean {
    if (typeof this.stdinTTYOf === 'function') this.stdinTTYOf = this.stdinTTYOf();
    return this.stdinTTYOf;
  }

  /** Apply the global flags once they are parsed. */
  configure(flags: PresentationFlags): void {
    this.colorOff = flags.color === false;
    this.quiet = flags.quiet ?? false;
    this.debugEnabled = (flags.debug ?? false) || isTruthy(this.env.WS_DEBUG);
    this.yes = flags.yes ?? false;
    this.noInput = (flags.noInput ?? false) || isTruthy(this.env.WS_NO_INPUT);
    this.out = new Chalk({ level: colorLevel(this.env, this.isStdoutTTY, this.colorOff) });
    this.err = new Chalk({ level: colorLevel(this.env, this.isStderrTTY, this.colorOff) });
  }

  /** A person can answer a prompt: both ends are terminals and nothing forbids asking. */
  canPrompt(): boolean {
    return this.isStdinTTY && this.isStdoutTTY && !this.noInput && !this.yes;
  }

  /** Write data to stdout. */
  write(text: string): void {
    this.stdout.write(text);
  }

  /** Write a line of data to stdout. */
  println(text = ''): void {
    this.stdout.write(`${text}\n`);
  }

  /** A message for people on stderr (silenced by --quiet). */
  info(text: string): void {
    if (!this.quiet) this.stderr.write(`${text}\n`);
  }

  /** A success message on stderr (silenced by --quiet). */
  success(text: string): void {
    if (!this.quiet) this.stderr.write(`${this.err.green('✓')} ${text}\n`);
  }

  /** A warning on stderr (always shown). */
  warn(text: string): void {
    this.stderr.write(`${this.err.yellow('warning:')} ${text}\n`);
  }

  /** A debug trace line on stderr, only with --debug or WS_DEBUG=1. */
  debug(text: string): void {
    if (this.debugEnabled) this.stderr.write(`${this.err.dim(text)}\n`);
  }

  /**
   * Progress on stderr: a spinner on a terminal, a plain line every few seconds
   * otherwise, nothing with --quiet.
   */
  async progress(
    text: string,
    opts: { intervalMs?: number; now?: () => number } = {},
  ): Promise<Progress> {
    if (this.quiet) return silentProgress;
    if (this.isStderrTTY) {
      const { default: ora } = await import('ora');
      const spinner = ora({
        text,
        stream: this.stderr as NodeJS.WriteStream,
        isEnabled: true,
        color: 'cyan',
      });
      if (this.err.level === 0) spinner.color = 'white';
      spinner.start();
      return {
        update: (t) => {
          spinner.text = t;
        },
        succeed: (t) => {
          spinner.succeed(t);
        },
        fail: (t) => {
          spinner.fail(t);
        },
        stop: () => {
          spinner.stop();
        },
      };
    }
    const interval = opts.intervalMs ?? 3000;
    const now = opts.now ?? Date.now;
    let last = now();
    let current = text;
    this.stderr.write(`${text}\n`);
    return {
      update: (t) => {
        current = t;
        if (now() - last >= interval) {
          last = now();
          this.stderr.write(`${t}\n`);
        }
      },
      succeed: (t) => {
        this.stderr.write(`${t ?? current}\n`);
      },
      fail: (t) => {
        this.stderr.write(`${t ?? current}\n`);
      },
      stop: () => {},
    };
  }
}

const silentProgress: Progress = { update() {}, succeed() {}, fail() {}, stop() {} };

export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** The IOStreams of the real process. */
export function systemIO(env: Env = process.env): IOStreams {
  return new IOStreams({
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: () => process.stdin,
    isStdoutTTY: process.stdout.isTTY === true,
    isStderrTTY: process.stderr.isTTY === true,
    isStdinTTY: () => process.stdin.isTTY === true,
    env,
    columns: process.stdout.columns,
  });
}
