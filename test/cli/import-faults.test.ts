// `ws import` against a sandbox that fails 10% of requests before doing anything and drops
// 5% of the connections after committing: 20,000 rows go in exactly once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { recordsOf } from '../../src/sandbox/index.ts';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let t: TestSandbox;
let dir: string;
before(async () => {
  t = await startTestSandbox({ failRate: 0.1, failAfterCommit: 0.05 });
  dir = mkdtempSync(join(tmpdir(), 'ws-import-faults-'));
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.stop();
});

it('imports 20,000 rows exactly once through failures and dropped answers', async () => {
  const lines = ['Name,Email,Score'];
  for (let i = 0; i < 20_000; i++) lines.push(`Person ${i},person${i}@example.com,${i % 100}`);
  const path = join(dir, 'people.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  const r = await runWs(['import', 'contact', path, '--json'], {
    env: { ...t.env, WS_NO_CACHE: '1' },
    fastRetries: true,
  });
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout);
  assert.equal(summary.created, 20_000);
  assert.equal(summary.failed, 0);
  const records = [...recordsOf(t.sandbox.store).records('contact')];
  assert.equal(records.length, 20_000);
  const emails = new Set(records.map((rec) => rec.default['email']));
  assert.equal(emails.size, 20_000, 'no email appears twice');
});
