// The guides' examples of what the official client reaches beyond api.md, run as printed
// by bash with `ws` on PATH against a sandbox with the demo data: watching changes (each
// line of the first block until it is watching, then Ctrl-C: exit 130; the script block
// whole), grants, a view's pins, and lists. Each block read from its guide in docs/, so the
// examples a user copies are the ones tested.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { BIN, runBash, wsEnv } from '../helpers/spawned.ts';

let t: TestSandbox;
let dir: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  dir = mkdtempSync(join(tmpdir(), 'ws-readme-examples-'));
  const ws = join(dir, 'ws');
  writeFileSync(
    ws,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
  );
  chmodSync(ws, 0o755);
  env = wsEnv(t.configDir, { PATH: `${dir}:${process.env.PATH}` });
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.stop();
});

/** The ```sh blocks of the section of docs/`guide` under `heading`, in order. */
function blocks(guide: string, heading: string): string[] {
  const text = readFileSync(new URL(`../../docs/${guide}`, import.meta.url), 'utf8');
  const start = text.indexOf(heading);
  assert.ok(start >= 0, `docs/${guide} has ${heading}`);
  const end = text.indexOf('\n## ', start + heading.length);
  const sub = text.indexOf('\n### ', start + heading.length);
  const stop = Math.min(end === -1 ? text.length : end, sub === -1 ? text.length : sub);
  return [...text.slice(start, stop).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/**
 * A block run whole by bash (stopping at the first failure). Not spawnSync: the sandbox
 * answers from this process, whose event loop must keep turning.
 */
async function runBlock(
  script: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runBash(script, { cwd: dir, env, stopOnError: true });
  return { status: code, stdout, stderr };
}

interface Running {
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
  waitFor(pattern: RegExp, what: string): Promise<void>;
  signal(name: NodeJS.Signals): void;
}

/** A script that runs until stopped: its own process group, so a signal reaches ws. */
function start(script: string): Running {
  const child = spawn('bash', ['-c', script], {
    cwd: dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  let done = false;
  void exited.then(() => (done = true));
  return {
    out: () => out,
    err: () => err,
    exited,
    async waitFor(pattern, what) {
      const deadline = Date.now() + 60_000;
      while (!pattern.test(out + err)) {
        if (done || Date.now() > deadline)
          throw new Error(`never saw ${what}; stdout: ${out}\nstderr: ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    signal: (name) => process.kill(-child.pid!, name),
  };
}

describe("the guides' examples", () => {
  it('Watching changes: each command watches until Ctrl-C (exit 130)', async () => {
    const [commands] = blocks('records.md', '## Watching changes: `watch`');
    const lines = commands!
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((l) => l !== '');
    assert.equal(lines.length, 4);
    for (const line of lines) {
      const run = start(`exec ${line}`);
      await run.waitFor(/Watching /, `${line} watching`);
      run.signal('SIGINT');
      assert.equal(await run.exited, 130, `${line}: ${run.err()}`);
      assert.match(run.err(), /Stopped: 0 changes shown\./);
    }
  });

  it('Watching changes: the script stops, and later reads on where it stopped', async () => {
    const [, script] = blocks('records.md', '## Watching changes: `watch`');
    const run = start(script!);
    await run.waitFor(/"to":15000/, 'the update made while nothing watched');
    run.signal('SIGINT');
    assert.equal(await run.exited, 130, run.err());
    const first = readFileSync(join(dir, 'deal-changes.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      first.map((e) => [e.change, e.record.default.name]),
      [
        ['created', 'Acme'],
        ['updated', 'Acme'],
      ],
    );
    assert.match(readFileSync(join(dir, 'watch.log'), 'utf8'), /Stopped: 2 changes shown\./);
    const later = run
      .out()
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{"change"'))
      .map((l) => JSON.parse(l));
    assert.deepEqual(later, [
      { change: 'updated', changes: { amount: { from: 12000, to: 15000 } } },
    ]);
  });

  it('Grants', async () => {
    const [script] = blocks('records.md', '## Grants');
    const r = await runBlock(script!);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /share_level\tmetadata/);
    assert.match(r.stdout, /group_id\t\{"9e2f6c1e-8a39-4a8e-9d8e-1c2b3d4e5f61":"r"\}/);
  });

  it('Views: pinned records first', async () => {
    const [, script] = blocks('views.md', '# Views: `ws views`');
    const r = await runBlock(script!);
    assert.equal(r.status, 0, r.stderr);
    // `ws views records … --limit 5`: name, amount, pinned; the two pinned rows first.
    const rows = r.stdout.split('\n').filter((l) => /^[^\t]+\t\d*\t(true)?$/.test(l));
    assert.equal(rows.length, 5, r.stdout);
    assert.deepEqual(
      rows.map((l) => l.endsWith('\ttrue')),
      [true, true, false, false, false],
    );
    // Their amounts after the pins follow the view's sort (largest first).
    const amounts = rows.slice(2).map((l) => Number(l.split('\t')[1]));
    assert.deepEqual(
      amounts,
      [...amounts].sort((a, b) => b - a),
    );
    assert.match(r.stderr, /Reordered the pinned records of view "Top deals"\./);
  });

  it('Lists', async () => {
    const [script] = blocks('lists.md', '# Lists: `ws lists`');
    const r = await runBlock(script!);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /template_id\tsales_deals/);
    assert.match(r.stdout, /^Q3 pipeline\tsales_deals|\tQ3 pipeline\tsales_deals\tdeal\t/m);
    assert.match(r.stdout, /deal_stage/);
    assert.match(r.stdout, /Pipeline/);
  });
});
