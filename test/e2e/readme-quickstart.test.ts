// The README's "Try it on a sandbox" block, run line by line as a new user would (with `ws` on
// PATH, a config directory of its own, and the sandbox on a free port instead of 4800): every
// line succeeds except the import, which exits 5 on the 8 rows examples/contacts.csv holds
// bad on purpose (as the README says), writes them where --failed-file says, and leaves the
// checkout as it was.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, wsEnv } from '../helpers/spawned.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'ws-quickstart-'));
after(() => {
  spawnSync(process.execPath, [BIN, 'sandbox', 'stop'], { env: wsEnv(join(dir, 'config')) });
  rmSync(dir, { recursive: true, force: true });
});

/** The commands of the block, with `\`-continued lines joined. */
function quickStart(): string[] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = text.indexOf('Try it on a sandbox');
  assert.ok(start >= 0, 'the README has the quick start');
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(start))![1]!;
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '');
}

describe("the README's quick start", () => {
  it('runs as printed; the import reports the 8 bad rows, exits 5 and writes nothing into the checkout', () => {
    const ws = join(dir, 'ws');
    writeFileSync(
      ws,
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
    );
    chmodSync(ws, 0o755);
    const env = { ...wsEnv(join(dir, 'config')), PATH: `${dir}:${process.env.PATH}` };
    const failed = join(dir, 'contacts.failed.csv');
    const before = spawnSync('git', ['status', '--porcelain', '--ignored', 'examples'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).stdout;

    const lines = quickStart();
    assert.ok(lines.some((l) => l.startsWith('ws import contacts examples/contacts.csv')));
    for (const printed of lines) {
      const line = printed
        .replace('ws sandbox start --detach', 'ws sandbox start --port 0 --detach')
        .replace('/tmp/contacts.failed.csv', failed);
      const r = spawnSync('bash', ['-c', line], { cwd: ROOT, env, encoding: 'utf8' });
      if (printed.startsWith('ws import')) {
        assert.equal(r.status, 5, `${printed}\n${r.stderr}`);
        assert.match(r.stderr, /8 of 60 rows failed/);
        // The failed rows, with their line and error first.
        assert.equal(readFileSync(failed, 'utf8').trim().split('\n').length, 1 + 8);
      } else {
        assert.equal(r.status, 0, `${printed}\n${r.stderr}`);
      }
    }
    assert.equal(existsSync(join(ROOT, 'examples', 'contacts.failed.csv')), false);
    const afterStatus = spawnSync('git', ['status', '--porcelain', '--ignored', 'examples'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).stdout;
    assert.equal(afterStatus, before);
  });
});
