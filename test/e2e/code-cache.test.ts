// bin/ws.js turns on Node's compile cache where Node has it (22.1 and later): the bundle's
// compiled code lands in Node's default directory (node-compile-cache in the temporary
// directory, here a TMPDIR of the test's), and the next run answers the same from it.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. On Node 20 ws runs without it. The built ws is
// spawned as a user runs it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, wsEnv } from '../helpers/spawned.ts';

const root = mkdtempSync(join(tmpdir(), 'ws-compile-cache-'));
after(() => rmSync(root, { recursive: true, force: true }));
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const nodeHasIt = major > 22 || (major === 22 && minor >= 1);

/** Runs ws with `tmp` as its temporary directory; returns its output. */
function run(tmp: string, extra: Record<string, string> = {}): string {
  mkdirSync(tmp, { recursive: true });
  const env = wsEnv(join(root, 'config'), { TMPDIR: tmp, ...extra });
  // Node's own variable would turn the cache on by itself.
  delete env.NODE_COMPILE_CACHE;
  const r = spawnSync(process.execPath, [BIN, 'profile', 'list', '--json'], {
    env,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return r.stdout;
}

/** The files Node's compile cache wrote under `dir` (it keeps one directory per Node build). */
function entries(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe("Node's compile cache", () => {
  it(
    nodeHasIt ? 'is written by the first run and read by the next' : 'is absent on Node 20',
    () => {
      const tmp = join(root, 'tmp');
      const cache = join(tmp, 'node-compile-cache');
      const first = run(tmp);
      if (!nodeHasIt) {
        assert.deepEqual(entries(cache), []);
        return;
      }
      const written = entries(cache);
      assert.ok(written.length > 0, 'entries written');
      assert.equal(run(tmp), first, 'the next run answers the same');
      assert.deepEqual(entries(cache).sort(), written.sort(), 'and writes nothing new');
    },
  );

  it('is off with NODE_DISABLE_COMPILE_CACHE=1', () => {
    const tmp = join(root, 'disabled');
    run(tmp, { NODE_DISABLE_COMPILE_CACHE: '1' });
    assert.deepEqual(entries(join(tmp, 'node-compile-cache')), []);
  });
});
