// Run `ws` in-process, as a user would type it, with captured output: argv in,
// exit code, stdout and stderr out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../../src/io/streams.ts';
import { main } from '../../src/main.ts';
import type { Choice, Prompter } from '../../src/prompt/prompter.ts';
import { testIO } from './io.ts';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Env;
  tty?: boolean;
  stdinTTY?: boolean;
  stdoutTTY?: boolean;
  stdin?: string;
  prompter?: Prompter;
  /** Shorten retry backoff (the delays are still recorded). */
  fastRetries?: boolean;
  delays?: number[];
  signal?: AbortSignal;
  /** The working directory ws is given (default: the process's). */
  cwd?: string;
}

export async function runWs(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const env: Env = { ...opts.env };
  const t = testIO({
    tty: opts.tty ?? false,
    ...(opts.stdinTTY !== undefined ? { stdinTTY: opts.stdinTTY } : {}),
    ...(opts.stdoutTTY !== undefined ? { stdoutTTY: opts.stdoutTTY } : {}),
    ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}),
    env,
  });
  const controller = new AbortController();
  const delays = opts.delays;
  const code = await main(argv, {
    io: t.io,
    env,
    signal: opts.signal ?? controller.signal,
    binPath: new URL('../../bin/ws.js', import.meta.url).pathname,
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    ...(opts.prompter ? { prompter: opts.prompter } : {}),
    clientOverrides: {
      ...(opts.fastRetries ? { backoffBaseMs: 1, backoffCapMs: 5 } : {}),
      ...(delays
        ? {
            sleep: (ms: number, signal?: AbortSignal) => {
              delays.push(ms);
              return new Promise<void>((resolve, reject) => {
                const timer = setTimeout(resolve, ms);
                signal?.addEventListener('abort', () => {
                  clearTimeout(timer);
                  reject(signal.reason);
                });
              });
            },
          }
        : {}),
    },
  });
  return { code, stdout: t.stdout(), stderr: t.stderr() };
}

/** A fresh, empty config directory; removed by the returned cleanup. */
export function tempConfigDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ws-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A prompter that answers from a script and fails the test on an unexpected question. */
export function scriptedPrompter(answers: Record<string, unknown>): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const answer = (message: string): unknown => {
    asked.push(message);
    for (const [k, v] of Object.entries(answers)) if (message.includes(k)) return v;
    throw new Error(`unexpected prompt: ${message}`);
  };
  return {
    asked,
    async input(o) {
      return String(answer(o.message));
    },
    async password(o) {
      return String(answer(o.message));
    },
    async confirm(o) {
      return Boolean(answer(o.message));
    },
    async select<T>(o: { message: string; choices: Choice<T>[] }) {
      return answer(o.message) as T;
    },
  };
}
