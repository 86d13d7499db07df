// IOStreams own every decision about presentation: TTY or not, colour, prompts,
// progress. Commands write through them and never touch process.std* directly.
import type { Readable, Writable } from 'node:stream';
import { Chalk, type ChalkInstance } from 'chalk';
import type { Shaper } from '../output/shape.ts';

export type Env = Record<string, string | undefined>;

export interface IOStreamsInit {
  stdout: Writable;
  /**
   * stderr and stdin may be functions giving them when first used: opening process.stdin
   * costs start-up time, and so does process.stderr on a pipe or a terminal (node:net), which
   * a command that writes nothing there need not pay.
   */
  stderr: Writable | (() => Writable);
  stdin: Readable | (() => Readable);
  isStdoutTTY: boolean;
  isStderrTTY: boolean | (() => boolean);
  isStdinTTY: boolean | (() => boolean);
  env: Env;
  /** The terminal's width, when stdout is a terminal that reports one (read when needed). */
  columns?: number | (() => number | undefined);
  /** The same of stderr, where messages and progress go. */
  errColumns?: number | (() => number | undefined);
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
  /** The columns its text has on a terminal's line (undefined: as many as it takes). */
  width?(): number | undefined;
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

/** A value given at once, or by a function called the first time it is needed. */
class Later<T extends object | boolean> {
  private value: T | undefined;
  private make: (() => T) | undefined;
  constructor(value: T | (() => T)) {
    if (typeof value === 'function') this.make = value as () => T;
    else this.value = value;
  }
  get(): T {
    if (this.make !== undefined) {
      this.value = this.make();
      this.make = undefined;
    }
    return this.value as T;
  }
}

export class IOStreams {
  readonly isStdoutTTY: boolean;
  readonly env: Env;
  quiet = false;
  debugEnabled = false;
  yes = false;
  noInput = false;
  /** --wide: tables at their full width, nothing cut or left out to fit the terminal. */
  wide = false;
  private outChalk: ChalkInstance | undefined;
  private errChalk: ChalkInstance | undefined;
  private colorOff = false;
  private readonly stderrOf: Later<Writable>;
  private readonly stderrTTYOf: Later<boolean>;
  private readonly stdinOf: Later<Readable>;
  private readonly stdinTTYOf: Later<boolean>;
  private readonly columnsOf: number | (() => number | undefined) | undefined;
  private readonly errColumnsOf: number | (() => number | undefined) | undefined;
  private readonly stdoutOf: Writable;
  private diverted: Writable | undefined;
  /** With --jq or --template: what the output layer hands JSON to instead of printing it. */
  shaper: Shaper | undefined;

  constructor(init: IOStreamsInit) {
    this.stdoutOf = init.stdout;
    this.stderrOf = new Later(init.stderr);
    this.stdinOf = new Later(init.stdin);
    this.isStdoutTTY = init.isStdoutTTY;
    this.stderrTTYOf = new Later(init.isStderrTTY);
    this.stdinTTYOf = new Later(init.isStdinTTY);
    this.env = init.env;
    this.columnsOf = init.columns;
    this.errColumnsOf = init.errColumns;
  }

  /**
   * The width of the terminal stdout shows on, read each time (it may be resized), or
   * undefined when stdout is not a terminal or reports no width: tables are then not
   * fitted to a width.
   */
  get columns(): number | undefined {
    const n = typeof this.columnsOf === 'function' ? this.columnsOf() : this.columnsOf;
    return n !== undefined && n > 0 ? n : undefined;
  }

  /** Where data goes: the process's stdout, or what reads it back while --jq shapes it. */
  get stdout(): Writable {
    return this.diverted ?? this.stdoutOf;
  }

  /**
   * Send what commands write to stdout to `stream`, and the output layer's JSON to
   * `shaper` (src/output/shape.ts), which writes the shaped result to the real stdout.
   */
  divertOutput(stream: Writable, shaper: Shaper): void {
    this.diverted = stream;
    this.shaper = shaper;
  }

  /** The width of the terminal stderr shows on (messages, progress), as `columns` is read. */
  get errColumns(): number | undefined {
    const n = typeof this.errColumnsOf === 'function' ? this.errColumnsOf() : this.errColumnsOf;
    return n !== undefined && n > 0 ? n : undefined;
  }

  get stderr(): Writable {
    return this.stderrOf.get();
  }

  get isStderrTTY(): boolean {
    return this.stderrTTYOf.get();
  }

  /** Colour for data on stdout (tables), made when first used and again after configure(). */
  get out(): ChalkInstance {
    this.outChalk ??= new Chalk({ level: colorLevel(this.env, this.isStdoutTTY, this.colorOff) });
    return this.outChalk;
  }

  /** Colour for messages on stderr, as `out` is made. */
  get err(): ChalkInstance {
    this.errChalk ??= new Chalk({ level: colorLevel(this.env, this.isStderrTTY, this.colorOff) });
    return this.errChalk;
  }

  get stdin(): Readable {
    return this.stdinOf.get();
  }

  get isStdinTTY(): boolean {
    return this.stdinTTYOf.get();
  }

  /** Apply the global flags once they are parsed. */
  configure(flags: PresentationFlags): void {
    this.colorOff = flags.color === false;
    this.quiet = flags.quiet ?? false;
    this.debugEnabled = (flags.debug ?? false) || isTruthy(this.env.WS_DEBUG);
    this.yes = flags.yes ?? false;
    this.noInput = (flags.noInput ?? false) || isTruthy(this.env.WS_NO_INPUT);
    this.outChalk = undefined;
    this.errChalk = undefined;
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
    // A terminal that reports no width (a pseudo-terminal opened without a size, as `script`
    // or some CI runners do) gets plain lines: the spinner would count its text as filling
    // endless lines and never stop clearing them.
    if (this.isStderrTTY && (this.stderr as Partial<NodeJS.WriteStream>).columns !== 0) {
      const { default: ora } = await import('ora');
      const spinner = ora({
        text,
        stream: this.stderr as NodeJS.WriteStream,
        isEnabled: true,
        // ws colours the frames itself: the bundle's chalk does not detect colour support
        // (scripts/build.mjs), and this.err knows --no-color, NO_COLOR and FORCE_COLOR.
        color: false,
        // ora would put stdin in raw mode to hide what is typed, which turns off the
        // terminal's Ctrl-C: the keystroke becomes a byte that only reaches ws if stdin is
        // read, and a paused stdin is not. Left as it is, Ctrl-C is a SIGINT, which main()
        // turns into cancelling the command (exit 130) and a second one into leaving.
        discardStdin: false,
      });
      const { frames, interval } = spinner.spinner;
      spinner.spinner = { interval, frames: frames.map((f) => this.err.cyan(f)) };
      // The text stays on the spinner's line: a line that wraps is redrawn badly.
      const { cutToWidth } = await import('../output/width.ts');
      const width = () => {
        const n = this.errColumns;
        return n === undefined ? undefined : n - 2;
      };
      const fit = (t: string) => {
        const n = width();
        return n === undefined ? t : cutToWidth(t, n);
      };
      spinner.text = fit(text);
      spinner.start();
      return {
        update: (t) => {
          spinner.text = fit(t);
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
        width,
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
  const tty = process.stdout.isTTY === true;
  return new IOStreams({
    stdout: process.stdout,
    stderr: () => process.stderr,
    stdin: () => process.stdin,
    isStdoutTTY: tty,
    isStderrTTY: () => process.stderr.isTTY === true,
    isStdinTTY: () => process.stdin.isTTY === true,
    env,
    columns: () => (tty ? process.stdout.columns : undefined),
    errColumns: () => (process.stderr.isTTY ? process.stderr.columns : undefined),
  });
}
