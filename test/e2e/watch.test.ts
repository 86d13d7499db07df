// `ws records watch` as users run it, against a sandbox in a process of its own with a data
// file: one watcher piped (NDJSON) and one at a real pseudo-terminal (`script`), while
// another process makes 1,000 writes; the sandbox is killed (kill -9) and started again on
// its data file in the middle. Each watcher shows every write once and in order: no gap, no
// duplicate across the restart. The writer retries a request the kill cut off with the same
// Idempotency-Key (the replay keeps it from writing twice), as a careful client does.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { writeProfiles } from '../helpers/sandbox.ts';
import { BIN, spawnWs, wsEnv } from '../helpers/spawned.ts';

const WRITES = 1_000;
const dir = mkdtempSync(join(tmpdir(), 'ws-watch-'));
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const noScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).error
  ? 'script (util-linux) is not installed: the pseudo-terminal run needs it'
  : undefined;

interface SandboxProcess {
  child: ChildProcess;
  url: string;
  apiKey: string;
  teamId: string;
}

/** `ws sandbox start --json` in a process of its own; resolves once it listens. */
async function startSandbox(args: string[]): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--json', '--no-profile', ...args],
    {
      env: wsEnv(join(dir, 'sandbox-config')),
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  children.push(child);
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the sandbox exited ${code}`)));
  });
  const ready = JSON.parse(first);
  return { child, url: ready.url, apiKey: ready.api_key, teamId: ready.team_id };
}

/**
 * The writer: a process of its own creating contacts w0001…w1000 one after the other, each
 * with an Idempotency-Key, retrying one whose answer never came (the sandbox killed) until
 * it is answered. It prints its progress, one number a line.
 */
const WRITER = `
const [url, key, team, total] = process.argv.slice(1);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
for (let i = 1; i <= Number(total); i++) {
  const name = 'w' + String(i).padStart(4, '0');
  for (;;) {
    try {
      const res = await fetch(url + '/v2/prism/' + team + '/contact', {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': name },
        body: JSON.stringify({ default: { name } }),
      });
      if (res.status === 201) break;
      throw new Error('status ' + res.status);
    } catch {
      await sleep(50);
    }
  }
  console.log(i);
  if (i % 10 === 0) await sleep(15);
}
`;

/** The names in order, checked to be w0001…w1000 once each. */
function assertEveryWriteOnceInOrder(names: string[], who: string): void {
  const expected = Array.from({ length: WRITES }, (_, i) => `w${String(i + 1).padStart(4, '0')}`);
  const firstWrong = names.findIndex((n, i) => n !== expected[i]);
  assert.equal(
    names.length,
    WRITES,
    `${who}: ${names.length} changes shown (first wrong at ${firstWrong}: ${names[firstWrong]})`,
  );
  assert.deepEqual(names, expected, `${who}: every write once, in order`);
}

describe('ws records watch across 1,000 writes and a restart of the sandbox', () => {
  it('piped (NDJSON) and at a terminal: each write once and in order, no gap and no duplicate', {
    skip: noScript,
    timeout: 300_000,
  }, async () => {
    const data = join(dir, 'sandbox.data');
    let sandbox = await startSandbox(['--port', '0', '--data', data]);
    const port = new URL(sandbox.url).port;
    const config = join(dir, 'config');
    mkdirSync(config, { mode: 0o700 });
    writeProfiles(
      config,
      { sandbox: { base_url: sandbox.url, team_id: sandbox.teamId, api_key: sandbox.apiKey } },
      'sandbox',
    );
    const env = wsEnv(config);

    // Piped.
    const piped = spawnWs(['records', 'watch', 'contact'], env);
    children.push(piped.child);
    // At a terminal: `script` gives it a pseudo-terminal (200 columns), its output to a file.
    const typescript = join(dir, 'tty.txt');
    const command = `stty cols 200 rows 50; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} records watch contact`;
    const tty = spawn('script', ['-q', '-f', '-e', '-c', command, typescript], {
      env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    children.push(tty);
    await piped.waitForStderr(/Watching for changes/);
    await waitFor(
      () => readText(typescript).includes('Watching for changes'),
      'the terminal watcher',
    );

    const writer = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        WRITER,
        sandbox.url,
        sandbox.apiKey,
        sandbox.teamId,
        String(WRITES),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(writer);
    let written = 0;
    createInterface({ input: writer.stdout! }).on('line', (line) => {
      written = Number(line);
    });
    const writerDone = new Promise<number | null>((resolve) => writer.once('exit', resolve));
    state = () =>
      `written ${written}, piped ${piped.lines.length}, terminal ${ttyNames(readText(typescript)).length}; piped stderr: ${piped.stderr()}`;

    // Mid-stream: kill -9 the sandbox, then start it again on its data file and port.
    await waitFor(() => piped.lines.length >= 300 && written >= 300, '300 changes');
    sandbox.child.kill('SIGKILL');
    await new Promise((r) => sandbox.child.once('exit', r));
    await new Promise((r) => setTimeout(r, 500));
    sandbox = await startSandbox(['--port', port, '--data', data]);

    await waitFor(() => written === WRITES, 'the writer done', 60_000);
    assert.equal(await writerDone, 0, 'the writer made every write');
    await waitFor(() => piped.lines.length >= WRITES, 'every change piped', 40_000);
    const names = piped.lines.map((l) => JSON.parse(l).record.default.name as string);
    assertEveryWriteOnceInOrder(names, 'piped');
    for (const line of piped.lines) {
      const event = JSON.parse(line);
      assert.equal(event.change, 'created');
      assert.equal(event.source, 'create');
    }
    assert.match(piped.stderr(), /reconnecting in/);
    assert.match(piped.stderr(), /Reconnected; reading on after /);

    await waitFor(
      () => ttyNames(readText(typescript)).length >= WRITES,
      'every change at the terminal',
      40_000,
    );
    assertEveryWriteOnceInOrder(ttyNames(readText(typescript)), 'terminal');
    // One line per change: time, type, id, what happened, the values.
    assert.match(
      readText(typescript),
      /\d\d:\d\d:\d\d {2}contact {5}[0-9a-f-]{36} {2}created +name: w0001\r?\n/,
    );

    piped.child.kill('SIGINT');
    assert.equal(await piped.exited, 130);
    assert.match(piped.stderr(), /Stopped: 1000 changes shown\./);
    tty.kill('SIGTERM');
    sandbox.child.kill('SIGTERM');
  });
});

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The names of the created contacts, in the order the terminal showed them. */
function ttyNames(text: string): string[] {
  return [...text.matchAll(/ created +name: (w\d{4})/g)].map((m) => m[1]!);
}

let state = () => '';

async function waitFor(ok: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`never saw ${what} (${state()})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
