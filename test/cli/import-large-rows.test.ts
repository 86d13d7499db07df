// `ws import` with rows near and past the size of a request body: chunks are cut by bytes as
// well as rows, a row too large to send fails alone, and a 413 splits a chunk.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { recordsOf } from '../../src/sandbox/index.ts';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const MiB = 1024 * 1024;

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ws-import-large-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A sandbox whose request log is kept: the status of every import call. */
async function sandboxWithLog(
  maxBodyBytes?: number,
): Promise<{ t: TestSandbox; imports: number[] }> {
  const imports: number[] = [];
  const t = await startTestSandbox({
    ...(maxBodyBytes ? { maxBodyBytes } : {}),
    log: (line) => {
      const m = /^POST \S+\/import (\d{3}) /.exec(line);
      if (m) imports.push(Number(m[1]));
    },
  });
  return { t, imports };
}

function names(t: TestSandbox): string[] {
  return [...recordsOf(t.sandbox.store).records('contact')]
    .map((r) => String(r.default['name']))
    .sort();
}

function failedRows(path: string): Record<string, string>[] {
  return parse(readFileSync(path), { columns: true });
}

describe('rows larger than a chunk or a request', () => {
  let t: TestSandbox;
  let imports: number[];
  before(async () => {
    ({ t, imports } = await sandboxWithLog());
  });
  after(() => t.stop());

  it('sends every row that fits a request, fails the one that does not, and sends nothing too large', async () => {
    const path = join(dir, 'big.csv');
    writeFileSync(
      path,
      [
        'name,email,notes',
        'Ann,ann@example.com,small',
        `Bob,bob@example.com,${'b'.repeat(3 * MiB)}`,
        // 2.5 million characters, 7.5 MB as UTF-8: with Bob's row, past what a request takes.
        `Chen,chen@example.com,${'漢'.repeat(2_500_000)}`,
        `Dee,dee@example.com,${'d'.repeat(10 * MiB)}`,
        'Eve,eve@example.com,small',
        '',
      ].join('\n'),
    );
    const r = await runWs(['import', 'contact', path, '--json'], { env: t.env });
    assert.equal(r.code, 5, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.equal(summary.created, 4);
    assert.equal(summary.failed, 1);
    assert.deepEqual(names(t), ['Ann', 'Bob', 'Chen', 'Eve']);
    assert.ok(imports.length > 0 && imports.every((s) => s === 200 || s === 202), `${imports}`);

    const failed = failedRows(join(dir, 'big.failed.csv'));
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!['ws_line'], '5');
    assert.equal(failed[0]!['ws_error_code'], 'row_too_large');
    assert.match(failed[0]!['ws_error_message']!, /^notes: a value of 10,485,760 bytes/);
    assert.equal(failed[0]!['notes']!.length, 10 * MiB, 'the row is kept whole to fix');
  });

  it('stops at that row with --strict, having sent nothing of it', async () => {
    const path = join(dir, 'strict.csv');
    writeFileSync(path, `name,notes\nFay,${'f'.repeat(10 * MiB + 1)}\nGus,small\n`);
    const before = imports.length;
    const r = await runWs(['import', 'contact', path, '--strict'], { env: t.env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /Line 2: notes: a value of 10,485,761 bytes.*\(row_too_large\); stopped there/,
    );
    assert.equal(imports.length, before);
    assert.ok(!names(t).includes('Gus'));
  });
});

describe('a service that takes smaller bodies (413)', () => {
  let t: TestSandbox;
  let imports: number[];
  before(async () => {
    ({ t, imports } = await sandboxWithLog(64 * 1024));
  });
  after(() => t.stop());

  it('splits the chunk until its rows fit, and fails only a row refused alone', async () => {
    const lines = ['name,email,notes'];
    for (let i = 0; i < 200; i++) lines.push(`P${i},p${i}@example.com,${'n'.repeat(3000)}`);
    lines.push(`Huge,huge@example.com,${'h'.repeat(70_000)}`, 'Last,last@example.com,ok');
    const path = join(dir, 'mid.csv');
    writeFileSync(path, `${lines.join('\n')}\n`);

    const r = await runWs(['import', 'contact', path, '--json'], { env: t.env });
    assert.equal(r.code, 5, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.equal(summary.created, 201);
    assert.equal(summary.failed, 1);
    assert.equal(names(t).length, 201);
    assert.ok(!names(t).includes('Huge'));
    assert.ok(imports.includes(413), 'the chunk was refused first');
    const failed = failedRows(join(dir, 'mid.failed.csv'));
    assert.deepEqual(
      failed.map((f) => [f['ws_line'], f['ws_error_code'], f['name']]),
      [['202', 'payload_too_large', 'Huge']],
    );

    // The same command again sends the same halves under the same keys: nothing twice.
    const again = await runWs(['import', 'contact', path, '--json'], { env: t.env });
    assert.equal(again.code, 5, again.stderr);
    assert.equal(names(t).length, 201);
    assert.equal(JSON.parse(again.stdout).failed, 1);
  });

  it('stops on Ctrl-C among the halves, and --resume finishes without a row twice', async () => {
    const lines = ['name,notes'];
    for (let i = 0; i < 60; i++) lines.push(`R${i},${'r'.repeat(3000)}`);
    const path = join(dir, 'resume.csv');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const args = ['import', 'contact', path, '--chunk-size', '30', '--concurrency', '1'];
    const controller = new AbortController();
    const start = imports.length;
    let ended = false;
    const run = runWs(args, { env: t.env, signal: controller.signal }).finally(() => {
      ended = true;
    });
    // Ctrl-C once the first chunk (90 KB) was refused and its first half went in.
    while (!ended && !imports.slice(start).some((s) => s < 300))
      await new Promise((r) => setTimeout(r, 2));
    assert.deepEqual(imports.slice(start, start + 2), [413, 200]);
    controller.abort();
    const stopped = await run;
    assert.equal(stopped.code, 130, stopped.stderr);
    const done = names(t).filter((n) => n.startsWith('R')).length;
    assert.ok(done < 60, `${done} rows before Ctrl-C`);

    const resumed = await runWs([...args, '--resume', '--json'], { env: t.env });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(JSON.parse(resumed.stdout).failed, 0);
    const rs = names(t).filter((n) => n.startsWith('R'));
    assert.equal(rs.length, 60);
    assert.equal(new Set(rs).size, 60);
    assert.ok(!existsSync(join(dir, 'resume.failed.csv')));
  });
});
