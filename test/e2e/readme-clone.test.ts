// The README's example of `ws sandbox clone` ("A sandbox cloned from a workspace"), run as
// printed by bash with `ws` on PATH, against a sandbox with the demo data saved as profile
// "prod": the snapshot it writes loads in a sandbox and holds the demo's records, and the
// JSON summary says the requests spent were the least the listing needs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import { sandboxProfile, startTestSandbox, writeProfiles } from '../helpers/sandbox.ts';
import { BIN, wsEnv } from '../helpers/spawned.ts';

const README = new URL('../../README.md', import.meta.url).pathname;

function block(heading: string): string {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(heading);
  assert.ok(start >= 0, `the README has ${heading}`);
  const m = /```sh\n([\s\S]*?)```/.exec(text.slice(start));
  assert.ok(m, `a sh block under ${heading}`);
  return m[1]!;
}

test('the README example of ws sandbox clone runs as printed', async (t) => {
  const src = await startTestSandbox({ seed: 'demo' });
  const dir = mkdtempSync(join(tmpdir(), 'ws-readme-clone-'));
  t.after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await src.stop();
  });
  writeProfiles(src.configDir, { prod: { ...sandboxProfile(src), rate_limit: 10 } }, 'prod');
  writeFileSync(
    join(dir, 'ws'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
  );
  chmodSync(join(dir, 'ws'), 0o755);
  const script = block('### A sandbox cloned from a workspace');
  const child = spawn('bash', ['-e', '-c', script], {
    cwd: dir,
    env: wsEnv(src.configDir, { PATH: `${dir}:${process.env.PATH}` }),
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  assert.equal(status, 0, stderr);
  assert.match(stderr, /✓ Cloned prod into workspace\.json/);
  const summary = JSON.parse(readFileSync(join(dir, 'clone-summary.json'), 'utf8'));
  assert.equal(summary.requests.spent, summary.requests.least);
  assert.equal(statSync(join(dir, 'workspace.json')).mode % 0o1000, 0o600);
  const clone = await startSandbox({ snapshot: join(dir, 'workspace.json') });
  try {
    const res = await fetch(`${clone.url}/v2/prism/${clone.teamId}/contact/count`, {
      headers: { 'x-api-key': clone.apiKey },
    });
    assert.equal(((await res.json()) as { total: number }).total, summary.copied.records.contact);
  } finally {
    await clone.close();
  }
});
