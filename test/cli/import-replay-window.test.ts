// `ws import --resume` of a checkpoint older than the API's replay window (24 hours): the API
// answers a key whose stored answer expired with 409 idempotency_key_stale, so ws cannot know
// whether the chunks it sent then went in. With --dedupe-by it sends them again under new
// keys (rows that went in are matched); without, it stops before sending and says why.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { recordsOf } from '../../src/sandbox/index.ts';
import { type RecordsSandbox, useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();
beforeEach(() => {
  rmSync(join(ctx.s.t.configDir, 'imports'), { recursive: true, force: true });
});

const HOUR_MS = 3_600_000;
const emails = () =>
  [...recordsOf(ctx.s.t.sandbox.store).records('contact')].map((r) => r.default['email']);
const ws = (argv: string[], opts: Parameters<RecordsSandbox['ws']>[1] = {}) =>
  ctx.s.ws(argv, { ...opts, env: { WS_NO_CACHE: '1', ...opts.env } });

function csv(name: string, n: number): string {
  let out = 'Name,Email\n';
  for (let i = 0; i < n; i++) out += `Person ${i},p${i}@example.com\n`;
  const path = join(ctx.dir, name);
  writeFileSync(path, out);
  return path;
}

/** Run `argv` and press Ctrl-C once `calls` import calls went in; the checkpoint it left. */
async function interruptAfter(calls: number, argv: string[]): Promise<string> {
  const controller = new AbortController();
  const p = ws(argv, { signal: controller.signal });
  while (ctx.s.count(/\/contact\/import /) < calls) await new Promise((r) => setTimeout(r, 5));
  controller.abort();
  const r = await p;
  assert.equal(r.code, 130, r.stderr);
  const imports = join(ctx.s.t.configDir, 'imports');
  const [name] = readdirSync(imports).filter((f) => f.endsWith('.checkpoint.json'));
  return join(imports, name!);
}

/**
 * The checkpoint as a crash right after the first chunks were sent leaves it (nothing
 * recorded as finished), last written `hours` ago; the sandbox's clock as many hours on, so
 * past 24 the answers of those chunks' keys have expired there.
 */
function age(checkpoint: string, hours: number): void {
  const cp = JSON.parse(readFileSync(checkpoint, 'utf8'));
  const rolledBack = {
    ...cp,
    next_chunk: 0,
    prefix_hash: '',
    next_line: 2,
    counts: Object.fromEntries(Object.keys(cp.counts).map((k) => [k, 0])),
    failed_bytes: 0,
    results_bytes: 0,
    jobs: [],
    updated_at: new Date(Date.now() - hours * HOUR_MS).toISOString(),
  };
  writeFileSync(checkpoint, JSON.stringify(rolledBack));
  ctx.s.t.sandbox.store.clock.advance(hours * 3600);
}

describe('ws import --resume past the replay window', () => {
  it('with --dedupe-by: the chunks go again under new keys, and rows that went in are matched', async () => {
    const path = csv('window-dedupe.csv', 600);
    const args = ['import', 'contact', path, '--chunk-size', '100', '--concurrency', '1'];
    const checkpoint = await interruptAfter(2, [...args, '--dedupe-by', 'email']);
    const done = emails().length;
    assert.ok(done > 0 && done < 600, `${done} rows imported before the interrupt`);
    age(checkpoint, 25);
    const r = await ws([...args, '--dedupe-by', 'email', '--resume', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /stopped more than 24 hours ago, so the API no longer replays the chunks it sent: they are sent again under new keys/,
    );
    // No key was stale (all new), no row created twice.
    assert.equal(ctx.s.count(/\/contact\/import 409/), 0);
    assert.equal(emails().length, 600);
    assert.equal(new Set(emails()).size, 600);
    const summary = JSON.parse(r.stdout);
    assert.equal(summary.created, 600 - done);
    assert.equal(summary.created + summary.updated + summary.unchanged, 600);
  });

  it('without --dedupe-by: stops before sending, saying why and what to do (exit 2)', async () => {
    const path = csv('window-plain.csv', 600);
    const args = ['import', 'contact', path, '--chunk-size', '100', '--concurrency', '1'];
    const checkpoint = await interruptAfter(2, args);
    const done = emails().length;
    age(checkpoint, 25);
    const before = ctx.s.count(/\/contact\/import /);
    const r = await ws([...args, '--resume']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /stopped at \S+, more than 24 hours ago: the API keeps the answers of import calls for 24 hours, so ws can no longer tell whether the chunks in flight then \(from line 2 on\) were imported\. Sending them again could create their rows twice, so nothing was sent\./,
    );
    assert.match(r.stderr, /Import the file again with --dedupe-by SLUG/);
    assert.equal(ctx.s.count(/\/contact\/import /), before, 'nothing sent');
    assert.equal(emails().length, done);
    // What it says to do works: again with --dedupe-by, without --resume.
    const again = await ws(['import', 'contact', path, '--dedupe-by', 'email', '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(new Set(emails()).size, 600);
    assert.equal(emails().length, 600);
  });

  it('within the window, a resume replays the keys it had (no new keys)', async () => {
    const path = csv('window-fresh.csv', 400);
    const args = ['import', 'contact', path, '--chunk-size', '100', '--concurrency', '1'];
    const checkpoint = await interruptAfter(1, args);
    // Rolled back to the start, as after a crash, written 22 hours ago: still replayed.
    age(checkpoint, 22);
    const r = await ws([...args, '--resume', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(emails().length, 400, 'the chunks sent before were replayed, not created again');
  });
});

describe('ws import of rows imported in full more than 24 hours ago (same keys, now stale)', () => {
  it('with --dedupe-by: sends the chunks again under renewed keys and matches the rows', async () => {
    const path = csv('daily-dedupe.csv', 300);
    const args = ['import', 'contact', path, '--chunk-size', '100', '--dedupe-by', 'email'];
    assert.equal((await ws(args)).code, 0);
    ctx.s.t.sandbox.store.clock.advance(25 * 3600);
    const r = await ws([...args, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(ctx.s.count(/\/contact\/import 409/), 3, 'each chunk found stale, then renewed');
    const summary = JSON.parse(r.stdout);
    assert.equal(summary.unchanged, 300);
    assert.equal(emails().length, 300);
  });

  it('without --dedupe-by: stops at the first stale chunk, says what to do (exit 6), keeps no checkpoint', async () => {
    const path = csv('daily-plain.csv', 300);
    const args = ['import', 'contact', path, '--chunk-size', '100', '--concurrency', '1'];
    assert.equal((await ws(args)).code, 0);
    ctx.s.t.sandbox.store.clock.advance(25 * 3600);
    const r = await ws(args);
    assert.equal(r.code, 6, r.stderr);
    assert.match(
      r.stderr,
      /Lines 2-101 were sent by an import of the same rows with the same columns and options more than 24 hours ago.*409 idempotency_key_stale/,
    );
    assert.match(r.stderr, /Import the file with --dedupe-by SLUG/);
    assert.doesNotMatch(r.stderr, /--resume/);
    assert.equal(emails().length, 300, 'nothing created twice');
    const imports = join(ctx.s.t.configDir, 'imports');
    assert.deepEqual(
      readdirSync(imports).filter((f) => f.endsWith('.checkpoint.json')),
      [],
      'no checkpoint to resume',
    );
    // What it says to do works.
    const again = await ws([...args, '--dedupe-by', 'email', '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).unchanged, 300);
    assert.equal(emails().length, 300);
  });
});
