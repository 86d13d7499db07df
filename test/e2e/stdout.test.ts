// stdout as scripts give it to the built `ws`: a pipe whose reader stops early, a pipe left
// non-blocking by a parent process and read slowly, a closed descriptor, a full disk. The
// output arrives whole and in order, or the command says why it could not write it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox, recordsOf, startSandbox } from '../../src/sandbox/index.ts';
import { tempConfigDir } from '../helpers/run.ts';
import { BIN, wsEnv } from '../helpers/spawned.ts';

let sandbox: RunningSandbox;
let config: { dir: string; cleanup: () => void };
/** Well over a pipe's 64 KiB of buffer as JSON. */
const RECORDS = 1200;

before(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 0 });
  const model = recordsOf(sandbox.store);
  for (let i = 0; i < RECORDS; i++)
    model.create('contact', { default: { name: `Contact ${i}`, email: `c${i}@example.com` } });
  config = tempConfigDir();
});
after(async () => {
  await sandbox.close();
  config.cleanup();
});

const env = () =>
  wsEnv(config.dir, {
    WS_BASE_URL: sandbox.url,
    WS_TEAM_ID: sandbox.teamId,
    WS_API_KEY: sandbox.apiKey,
  });
const LIST = ['records', 'list', 'contacts', '--all', '--format', 'json'];

/** A shell line run as a script would (not spawnSync: the sandbox answers in this process). */
function sh(line: string): Promise<{ status: number | null; stderr: string }> {
  const child = spawn('sh', ['-c', line], { env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stderr })));
}

describe('stdout', () => {
  it('a reader that stops early ends the command there, with exit 0 and nothing on stderr', async () => {
    const child = spawn(process.execPath, [BIN, ...LIST], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
    });
    // Read the first chunk, then go away (as `| head -c 100` does).
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0, err);
    assert.equal(err, '');
  });

  it('a pipe a parent left non-blocking, read slowly, gets the whole output in order', async () => {
    // Some parents (Python's asyncio, Go, a shell's coprocess) hand a child a non-blocking
    // pipe. Here fd 1, a pipe to a reader that waits a second before reading, is made so by
    // opening it as a socket (libuv does), then ws runs in the same process: it fills the
    // pipe's 64 KiB and its writes would block.
    const parent = join(config.dir, 'parent.cjs');
    // The pipeline's status is the reader's: ws's exit code is kept in a file.
    const exitFile = join(config.dir, 'exit-code');
    writeFileSync(
      parent,
      `new (require('node:net').Socket)({ fd: 1, readable: false });
process.on('exit', (code) => require('node:fs').writeFileSync(${JSON.stringify(exitFile)}, String(code)));
process.argv = ${JSON.stringify([process.execPath, BIN, ...LIST])};
require(${JSON.stringify(BIN)});
`,
    );
    const child = spawn('sh', ['-c', `"${process.execPath}" "${parent}" | (sleep 1; cat)`], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((resolve) => child.once('close', resolve));
    assert.equal(readFileSync(exitFile, 'utf8'), '0', err);
    assert.equal(err, '');
    const text = Buffer.concat(chunks).toString('utf8');
    assert.ok(text.length > 128 * 1024, `only ${text.length} bytes`);
    const rows = JSON.parse(text) as { properties: { name: string } }[];
    assert.equal(rows.length, RECORDS);
    assert.deepEqual(
      rows.map((r) => r.properties.name).sort(),
      Array.from({ length: RECORDS }, (_, i) => `Contact ${i}`).sort(),
    );
  });

  it('a closed stdout takes the output and drops it: the command still succeeds', async () => {
    const r = await sh(
      `"${process.execPath}" "${BIN}" records list contacts --limit 3 --format csv >&-`,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
  });

  it('a full disk is an error that says so, with exit 1', async (t) => {
    if (!existsSync('/dev/full')) {
      t.skip('this system has no /dev/full to stand for a full disk');
      return;
    }
    const r = await sh(
      `"${process.execPath}" "${BIN}" records list contacts --limit 3 --format csv >/dev/full`,
    );
    assert.equal(r.status, 1);
    assert.match(r.stderr, /Could not write the output: no space left on device \(ENOSPC\)/);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
  });
});
