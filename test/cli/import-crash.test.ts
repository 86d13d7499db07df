// `ws import` killed with SIGKILL in the middle, then run again: with --resume, or without it
// but with --dedupe-by, no row is created twice. Spawns bin/ws.js (built by `npm run build`).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, it } from 'node:test';
import { recordsOf } from '../../src/sandbox/index.ts';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const BIN = new URL('../../bin/ws.js', import.meta.url).pathname;
const BUILT = existsSync(new URL('../../dist/ws.js', import.meta.url));
const ROWS = 3000;

let t: TestSandbox;
let dir: string;
let imports = 0;
before(async () => {
  // Each answer takes a little while, so the kill lands with chunks in flight.
  t = await startTestSandbox({
    latencyMs: 20,
    log: (line) => {
      if (/\/contact\/import /.test(line)) imports++;
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'ws-import-crash-'));
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.stop();
});
beforeEach(() => {
  t.sandbox.reset();
  imports = 0;
});

function file(name: string): string {
  const lines = ['Name,Email'];
  for (let i = 0; i < ROWS; i++) lines.push(`Person ${i},person${i}@example.com`);
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Start `ws` in a child process and SIGKILL it once `after` import calls were answered. */
async function killMidway(args: string[], after: number): Promise<void> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...t.env, WS_NO_CACHE: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  while (imports < after && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  child.kill('SIGKILL');
  await exited;
}

function emails(): string[] {
  return [...recordsOf(t.sandbox.store).records('contact')].map((r) => String(r.default['email']));
}

const ws = (argv: string[]) => runWs(argv, { env: { ...t.env, WS_NO_CACHE: '1' } });

it('kill -9, then the same command with --resume: every row once', {
  skip: !BUILT && 'run npm run build first',
}, async () => {
  const path = file('resume.csv');
  const args = ['import', 'contact', path, '--chunk-size', '100', '--concurrency', '3'];
  await killMidway(args, 5);
  const before = emails().length;
  assert.ok(before > 0 && before < ROWS, `${before} rows went in before the kill`);
  const r = await ws([...args, '--resume', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const all = emails();
  assert.equal(all.length, ROWS);
  assert.equal(new Set(all).size, ROWS);
});

it('kill -9, then the same command again with --dedupe-by: every row once', {
  skip: !BUILT && 'run npm run build first',
}, async () => {
  const path = file('dedupe.csv');
  const args = [
    'import',
    'contact',
    path,
    '--chunk-size',
    '100',
    '--concurrency',
    '3',
    '--dedupe-by',
    'email',
  ];
  await killMidway(args, 5);
  assert.ok(emails().length > 0);
  const r = await ws([...args, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const all = emails();
  assert.equal(all.length, ROWS);
  assert.equal(new Set(all).size, ROWS);
});
