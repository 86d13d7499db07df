// The built `ws` run on a pseudo-terminal (util-linux `script`), for what only shows on a
// terminal: prompts, spinners and status lines, Ctrl-C typed as a user types it. What the
// user sees is read back with the terminal's escape sequences removed.
import { type ChildProcess, spawn } from 'node:child_process';
import { shellWord } from '../../src/util/shell.ts';
import { BIN } from './spawned.ts';

export interface PtySession {
  child: ChildProcess;
  /** Everything shown so far, escape sequences and carriage returns removed. */
  screen(): string;
  waitFor(match: RegExp): Promise<void>;
  /** Type on the terminal: "\x03" is Ctrl-C, "\r" is Enter. */
  type(text: string): void;
  /** The exit code of ws. */
  exited: Promise<number | null>;
}

/** Remove what moves the cursor or colours text, as the screen shows only the text. */
export function plain(text: string): string {
  return text
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\x1b[()][A-Z0-9]/g, '')
    .replace(/\r/g, '');
}

export function runInPty(argv: string[], env: NodeJS.ProcessEnv): PtySession {
  const cmd = `stty cols 120 rows 40; exec ${shellWord(process.execPath)} ${shellWord(BIN)} ${argv.map(shellWord).join(' ')}`;
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  let done = false;
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  child.stdout!.on('data', (c: Buffer) => {
    raw += c.toString();
    wake();
  });
  child.stderr!.on('data', (c: Buffer) => {
    raw += c.toString();
    wake();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => {
      done = true;
      resolve(code);
      wake();
    });
  });
  return {
    child,
    screen: () => plain(raw),
    exited,
    type: (text) => {
      child.stdin!.write(text);
    },
    async waitFor(match) {
      while (!match.test(plain(raw))) {
        if (done) throw new Error(`ws exited before the screen showed ${match}:\n${plain(raw)}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}
