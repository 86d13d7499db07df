// A real terminal for tests: `ws` (the built bin/ws.js) runs in a tmux pane of a given
// size, on a tmux server of its own, and the test reads the screen as a person sees it,
// types keys (Ctrl-C) into it, and gets the exit code and the terminal's mode (`stty -a`)
// once `ws` has exited. What only shows on a terminal (spinners, raw mode, table width) is
// tested here rather than with streams that pretend to be one.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import stringWidth from 'string-width';

const run = promisify(execFile);
const BIN = new URL('../../bin/ws.js', import.meta.url).pathname;

/** Why the terminal tests cannot run here, or undefined when they can. */
export const noTerminal: string | undefined = (() => {
  const r = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return 'tmux is not installed: the terminal tests need it';
  return undefined;
})();

function quote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export interface Finished {
  code: number;
  /** The terminal's settings after ws exited, as `stty -a` prints them. */
  stty: string;
  screen: string;
}

export class Terminal {
  private readonly dir = mkdtempSync(join(tmpdir(), 'ws-tty-'));
  private readonly socket = join(this.dir, 'tmux.sock');
  private started = false;

  constructor(
    private readonly size: { columns: number; rows?: number },
    private readonly env: Record<string, string>,
  ) {}

  private tmux(...args: string[]) {
    return run('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' });
  }

  /**
   * Run `ws ARGS…` in a fresh pane. The shell around it only records how ws ended: its
   * exit code, then the terminal's mode. It catches SIGINT itself (a handler, which ws
   * does not inherit), so a Ctrl-C reaches ws as it would from an interactive shell.
   */
  async start(args: string[], opts: { cwd?: string } = {}): Promise<void> {
    const script = join(this.dir, 'run.sh');
    writeFileSync(
      script,
      [
        "trap ':' INT",
        `${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}`,
        `echo $? > ${quote(join(this.dir, 'code'))}`,
        `stty -a > ${quote(join(this.dir, 'stty'))}`,
        `echo '[ws exited]'`,
        'exec sleep 600',
        '',
      ].join('\n'),
    );
    const env = Object.entries({ FORCE_COLOR: '0', NO_COLOR: '', ...this.env }).flatMap(
      ([k, v]) => ['-e', `${k}=${v}`],
    );
    await this.tmux(
      ...['new-session', '-d', '-x', String(this.size.columns), '-y', String(this.size.rows ?? 40)],
      ...env,
      ...(opts.cwd ? ['-c', opts.cwd] : []),
      `sh ${quote(script)}`,
    );
    this.started = true;
  }

  /**
   * Run an interactive program (a shell, for completion) in a fresh pane with exactly `env`
   * (tmux would put its own PATH in a session's environment).
   */
  async startProgram(argv: string[], env: Record<string, string>, cwd?: string): Promise<void> {
    const vars = Object.entries(env).map(([k, v]) => quote(`${k}=${v}`));
    await this.tmux(
      ...['new-session', '-d', '-x', String(this.size.columns), '-y', String(this.size.rows ?? 40)],
      ...(cwd ? ['-c', cwd] : []),
      `env -i ${vars.join(' ')} ${argv.map(quote).join(' ')}`,
    );
    this.started = true;
  }

  /** The screen as shown, one line per terminal row, trailing blanks dropped. */
  async screen(): Promise<string> {
    const { stdout } = await this.tmux('capture-pane', '-p');
    return stdout.replace(/\s+$/, '');
  }

  /**
   * The lines of the screen the terminal wrapped because they were wider than it (tmux
   * joins them again), blanks at their ends dropped.
   */
  async wrapped(): Promise<string[]> {
    const { stdout } = await this.tmux('capture-pane', '-p', '-J');
    return stdout
      .split('\n')
      .map((l) => l.replace(/\s+$/, ''))
      .filter((l) => stringWidth(l) > this.size.columns);
  }

  /** Wait until the screen shows `pattern`; fail, showing the screen, after `ms`. */
  async waitFor(pattern: RegExp, ms = 60_000): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const text = await this.screen();
      if (pattern.test(text)) return text;
      if (Date.now() > deadline)
        throw new Error(`the terminal never showed ${pattern}; it shows:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Type keys, in tmux's names: 'C-c' is Ctrl-C. */
  async keys(...keys: string[]): Promise<void> {
    await this.tmux('send-keys', ...keys);
  }

  /** Type text as it is (no key names). */
  async type(text: string): Promise<void> {
    await this.tmux('send-keys', '-l', text);
  }

  /** Whether the terminal's cursor is visible. */
  async cursorVisible(): Promise<boolean> {
    const { stdout } = await this.tmux('display-message', '-p', '#{cursor_flag}');
    return stdout.trim() === '1';
  }

  /** Wait for ws to exit, then its exit code, the terminal's mode and the screen. */
  async finished(ms = 60_000): Promise<Finished> {
    const screen = await this.waitFor(/\[ws exited\]$/, ms);
    return {
      code: Number(readFileSync(join(this.dir, 'code'), 'utf8')),
      stty: readFileSync(join(this.dir, 'stty'), 'utf8'),
      screen: screen.replace(/\n?\[ws exited\]$/, ''),
    };
  }

  async close(): Promise<void> {
    if (this.started) await this.tmux('kill-server').catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Whether `stty -a` output shows a terminal in its usual (cooked) mode: signals and lines. */
export function cooked(stty: string): boolean {
  const flags = stty.split(/[\s;]+/);
  return flags.includes('isig') && flags.includes('icanon') && flags.includes('echo');
}
