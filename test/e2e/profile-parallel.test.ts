// The profile store under parallel `ws` processes (CI jobs sharing a runner do this): every
// read-modify-write of config.json (profiles and aliases alike) holds a cross-process lock,
// so no process's change is lost; and an empty config.json is a store with no profiles.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempConfigDir } from '../helpers/run.ts';

const BIN = new URL('../../bin/ws.js', import.meta.url).pathname;

let dir: string;
let cleanup: () => void;

function ws(args: string[], input = ''): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        ...process.env,
        WS_CONFIG_DIR: dir,
        FORCE_COLOR: '0',
        WS_PROFILE: '',
        WS_API_KEY: '',
        WS_TEAM_ID: '',
        WS_BASE_URL: '',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stdin.end(input);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const add = (name: string) =>
  ws(
    [
      'profile',
      'add',
      name,
      '--base-url',
      'http://127.0.0.1:9',
      '--team-id',
      '8f1e6a52-3c1d-4b7e-9a5f-2d4c6b8e0f11',
      '--with-key',
      '--no-verify',
    ],
    'key_0123456789abcdef\n',
  );

function profileNames(): string[] {
  const data = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
    profiles: Record<string, unknown>;
  };
  return Object.keys(data.profiles).sort();
}

describe('profile store under parallel processes', () => {
  before(() => {
    ({ dir, cleanup } = tempConfigDir());
  });
  after(() => cleanup());

  it('an empty config.json is a store with no profiles', async () => {
    writeFileSync(join(dir, 'config.json'), '');
    const listed = await ws(['profile', 'list', '--json']);
    assert.equal(listed.code, 0, listed.out);
    const added = await add('first');
    assert.equal(added.code, 0, added.out);
    assert.deepEqual(profileNames(), ['first']);
  });

  it('20 parallel adds and removes leave exactly the expected set', async () => {
    // Ten profiles to remove, made one after another.
    const old = Array.from({ length: 10 }, (_, i) => `old${i}`);
    for (const name of old) assert.equal((await add(name)).code, 0);
    const fresh = Array.from({ length: 10 }, (_, i) => `new${i}`);
    const results = await Promise.all([
      ...fresh.map((name) => add(name)),
      ...old.map((name) => ws(['profile', 'remove', name, '--yes'])),
    ]);
    for (const r of results) assert.equal(r.code, 0, r.out);
    assert.deepEqual(profileNames(), ['first', ...fresh].sort());
  });

  it('aliases set in parallel with profile adds are all kept, in the same file', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `al${i}`);
    const results = await Promise.all([
      ...names.map((name) =>
        ws(['alias', 'set', name, `records list contacts --limit ${name.length}`]),
      ),
      add('also'),
    ]);
    for (const r of results) assert.equal(r.code, 0, r.out);
    const data = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
      aliases: Record<string, string>;
    };
    assert.deepEqual(Object.keys(data.aliases).sort(), names);
    assert.ok(profileNames().includes('also'));
  });
});
