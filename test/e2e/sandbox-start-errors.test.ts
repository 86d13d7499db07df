// `ws sandbox start` as a user runs it: start-up errors under --json carry one of the
// codes of docs/scripting.md, and listening beyond this machine is announced with a warning.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempConfigDir } from '../helpers/run.ts';

const BIN = new URL('../../bin/ws.js', import.meta.url).pathname;
let dir: string;
let cleanup: () => void;
const env = () => ({ ...process.env, WS_CONFIG_DIR: dir, FORCE_COLOR: '0', WS_PROFILE: '' });

describe('ws sandbox start: errors and warnings', () => {
  before(() => {
    ({ dir, cleanup } = tempConfigDir());
  });
  after(() => cleanup());

  it('a --data file that is not a sandbox data file: code "usage", exit 2', () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"format":"something else"}');
    const r = spawnSync(
      process.execPath,
      [BIN, 'sandbox', 'start', '--port', '0', '--json', '--no-profile', '--data', file],
      { env: env(), encoding: 'utf8', timeout: 30_000 },
    );
    assert.equal(r.status, 2, r.stderr);
    const error = JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;
    assert.equal(error.code, 'usage');
    assert.match(error.message, /broken\.json is corrupt/);
  });

  it('--host 0.0.0.0 warns that the sandbox is reachable from the network', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'sandbox', 'start', '--host', '0.0.0.0', '--port', '0', '--json', '--no-profile'],
      { env: env(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve();
      });
    });
    const closed = new Promise((resolve) => child.on('close', resolve));
    child.kill('SIGINT');
    await closed;
    assert.match(JSON.parse(out).url, /^http:\/\/0\.0\.0\.0:\d+$/);
    assert.match(err, /warning.*0\.0\.0\.0.*anyone who can reach this machine/is);
  });
});
