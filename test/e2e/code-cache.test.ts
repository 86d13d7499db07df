// bin/ws.js compiles the bundle with V8's code cache: it is written on the first run, used by
// the next, survives damaged entries, and is not used from a directory that others may write
// to. The built ws is spawned as a user runs it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, wsEnv } from '../helpers/spawned.ts';

const root = mkdtempSync(join(tmpdir(), 'ws-code-cache-'));
after(() => rmSync(root, { recursive: true, force: true }));

const version = JSON.parse(
  spawnSync(process.execPath, ['-p', 'JSON.stringify(require("./package.json").version)'], {
    cwd: new URL('../..', import.meta.url).pathname,
    encoding: 'utf8',
  }).stdout,
);

function spawn(cache: string, args: string[], env: Record<string, string> = {}) {
  const configDir = join(root, 'config');
  mkdirSync(configDir, { recursive: true });
  return spawnSync(process.execPath, [BIN, ...args], {
    env: wsEnv(configDir, { XDG_CACHE_HOME: cache, NODE_COMPILE_CACHE: '', ...env }),
    encoding: 'utf8',
  });
}

function run(
  cache: string,
  env: Record<string, string> = {},
  args = ['profile', 'list', '--json'],
) {
  const r = spawn(cache, args, env);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return r.stdout;
}

/** Every file under `dir`. */
function files(dir: string): string[] {
  let out: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  for (const n of names) {
    const p = join(dir, n);
    out = statSync(p).isDirectory() ? [...out, ...files(p)] : [...out, p];
  }
  return out;
}

describe('code cache', () => {
  const dirOf = (cache: string) => join(cache, 'ws', `code-${process.version}-${version}`);

  it('is written by the first run, in a directory of this Node and ws only its user may open', () => {
    const cache = join(root, 'fresh');
    const first = run(cache);
    assert.ok(files(dirOf(cache)).length > 0, 'entries written');
    assert.equal(statSync(dirOf(cache)).mode & 0o777, 0o700);
    const entries = files(dirOf(cache)).length;
    assert.equal(run(cache), first, 'the next run answers the same from the cache');
    assert.equal(files(dirOf(cache)).length, entries, 'and writes nothing new');
  });

  it('keeps entries per command, written by its first run that succeeds', () => {
    const cache = join(root, 'commands');
    run(cache);
    assert.deepEqual(readdirSync(dirOf(cache)), ['profile-list']);
    const listEntries = files(dirOf(cache)).map((f) => [f, statSync(f).mtimeMs] as const);
    // A failure writes nothing: its data would hold the way it failed.
    const failed = spawn(cache, ['profile', 'show', 'no-such-profile']);
    assert.notEqual(failed.status, 0);
    assert.deepEqual(readdirSync(dirOf(cache)), ['profile-list']);
    // Another command writes entries of its own (its help, too) and leaves these alone.
    const script = run(cache, {}, ['completion', 'bash']);
    run(cache, {}, ['completion', '--help']);
    assert.deepEqual(readdirSync(dirOf(cache)).sort(), [
      'completion-bash',
      'completion-help',
      'profile-list',
    ]);
    assert.ok(files(join(dirOf(cache), 'completion-bash')).length > 0);
    for (const [f, mtime] of listEntries) assert.equal(statSync(f).mtimeMs, mtime);
    assert.equal(run(cache, {}, ['completion', 'bash']), script);
  });

  it("drops entries of files the build no longer has, and this Node's directories of other ws versions", () => {
    const cache = join(root, 'pruned');
    const older = join(cache, 'ws', `code-${process.version}-0.0.1`);
    const otherNode = join(cache, 'ws', `code-v0.0.0-${version}`);
    for (const d of [older, otherNode]) {
      mkdirSync(join(d, 'profile-list'), { recursive: true });
      writeFileSync(join(d, 'profile-list', 'ws.js-1-1'), 'old');
    }
    const expected = run(cache);
    assert.deepEqual(files(older), [], 'the other version of ws is gone');
    assert.equal(files(otherNode).length, 1, "another Node's directory stays");
    // A build since: an entry of a file dist/ no longer has, one of another size, and the
    // entries of this build, one of them missing (so that the run writes).
    const commandDir = join(dirOf(cache), 'profile-list');
    const current = readdirSync(commandDir);
    rmSync(join(commandDir, current[0]!));
    writeFileSync(join(commandDir, 'chunks%2Fgone-abc.js-10-10'), 'old');
    writeFileSync(join(commandDir, 'ws.js-1-1'), 'old');
    assert.equal(run(cache), expected);
    assert.deepEqual(readdirSync(commandDir).sort(), [...current].sort());
  });

  it('survives damaged entries: they are refused, the command runs, and they are written again', () => {
    const cache = join(root, 'damaged');
    const expected = run(cache);
    const damaged = files(dirOf(cache));
    for (const f of damaged) writeFileSync(f, Buffer.alloc(statSync(f).size, 0x5a));
    assert.equal(run(cache), expected);
    const rewritten = files(dirOf(cache)).filter((f) =>
      readFileSync(f).some((byte) => byte !== 0x5a),
    );
    assert.ok(rewritten.length > 0, 'damaged entries were written again');
    assert.equal(run(cache), expected);
  });

  it('is not used from a directory others may write to, nor with NODE_DISABLE_COMPILE_CACHE', () => {
    const cache = join(root, 'shared');
    mkdirSync(dirOf(cache), { recursive: true });
    chmodSync(dirOf(cache), 0o777);
    const out = run(cache);
    assert.deepEqual(files(dirOf(cache)), [], 'nothing written there');
    const off = join(root, 'off');
    assert.equal(run(off, { NODE_DISABLE_COMPILE_CACHE: '1' }), out);
    assert.deepEqual(files(off), []);
  });
});
