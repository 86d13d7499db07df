// The built `ws` spawned as a user (or a CI job) runs it, for commands that run until they
// are stopped (`ws webhooks listen`, `ws deliveries tail`): stdout read line by line as it
// comes, stderr kept, signals sent, the exit awaited. Run `npm run build` first.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const BIN = new URL('../../bin/ws.js', import.meta.url).pathname;

export interface Spawned {
  child: ChildProcess;
  /** stdout lines so far. */
  lines: string[];
  stderr(): string;
  /** The first stdout line (from the start) that matches; waits for it. */
  waitFor(match: (line: string) => boolean, what?: string): Promise<string>;
  /** Waits until stderr matches. */
  waitForStderr(match: RegExp): Promise<void>;
  /** Resolves with the exit code (null when killed by a signal), once stdout and stderr are read. */
  exited: Promise<number | null>;
}

/** The environment a spawned ws gets: the config dir given, nothing of the caller's ws settings. */
export function wsEnv(configDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    WS_CONFIG_DIR: configDir,
    FORCE_COLOR: '0',
    NO_COLOR: '1',
    WS_PROFILE: '',
    WS_API_KEY: '',
    WS_TEAM_ID: '',
    WS_BASE_URL: '',
    ...extra,
  };
}

/**
 * A new temporary directory holding a `ws` command that runs the built bin/ws.js, to put
 * first on PATH so that examples run as printed (`ws …`). The caller removes it.
 */
export function wsOnPath(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const ws = join(dir, 'ws');
  writeFileSync(
    ws,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
  );
  chmodSync(ws, 0o755);
  return dir;
}

/**
 * `bash -c script` (with `-e` when `stopOnError`: stop at the first failing command), its
 * exit code and output once it ends. Not spawnSync: a sandbox answering from this process
 * needs its event loop turning meanwhile.
 */
export function runBash(
  script: string,
  opts: { cwd?: string; env: NodeJS.ProcessEnv; stopOnError?: boolean },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const flags = opts.stopOnError ? ['-e', '-c'] : ['-c'];
  const child = spawn('bash', [...flags, script], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

export function spawnWs(args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let err = '';
  const waiters: (() => void)[] = [];
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
    for (const w of waiters.splice(0)) w();
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of waiters.splice(0)) w();
  });
  let done = false;
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => {
      done = true;
      resolve(code);
      for (const w of waiters.splice(0)) w();
    });
  });
  return {
    child,
    lines,
    stderr: () => err,
    exited,
    async waitForStderr(match) {
      while (!match.test(err)) {
        if (done) throw new Error(`ws exited before stderr matched ${match}; stderr: ${err}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    async waitFor(match, what = 'a line') {
      for (;;) {
        const found = lines.find(match);
        if (found !== undefined) return found;
        if (done)
          throw new Error(`ws exited before ${what}; stdout: ${lines.join('\n')}\nstderr: ${err}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}
