// A script that runs `ws records list --all` twice in a row against a service that counts
// requests over a sliding second (the sandbox with rateLimit 10, as the hosted service):
// each `ws` is its own process (the built binary) and paces itself; the second starts in
// the second the first ended with, meets the service's 429s, waits for their Retry-After,
// and finishes with every record.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox, recordsOf, startSandbox } from '../../src/sandbox/index.ts';
import { tempConfigDir } from '../helpers/run.ts';
import { writeProfiles } from '../helpers/sandbox.ts';

const BIN = new URL('../../bin/ws.js', import.meta.url).pathname;
let sandbox: RunningSandbox;
let config: { dir: string; cleanup: () => void };
const log: string[] = [];

before(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 10, log: (l) => log.push(l) });
  const model = recordsOf(sandbox.store);
  for (let i = 0; i < 1000; i++) model.create('contact', { default: { name: `C ${i}` } });
  config = tempConfigDir();
  writeProfiles(
    config.dir,
    {
      paced: {
        base_url: sandbox.url,
        team_id: sandbox.teamId,
        api_key: sandbox.apiKey,
        rate_limit: 10,
      },
    },
    'paced',
  );
});
after(async () => {
  await sandbox.close();
  config.cleanup();
});

function ws(args: string[]): Promise<{ code: number | null; lines: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, WS_CONFIG_DIR: config.dir, NO_COLOR: '1', WS_NO_CACHE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('exit', (code) =>
      resolve({ code, lines: out.split('\n').filter(Boolean).length, stderr: err }),
    );
  });
}

describe('the rate limit across commands', () => {
  it('two list --all in a row: both finish with every record, the second after waiting out 429s', async () => {
    const args = ['records', 'list', 'contacts', '--all', '--format', 'ndjson'];
    const first = await ws(args);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.lines, 1000);
    const second = await ws(args);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.lines, 1000);
    // 20 pages each, every one answered 200 in the end; each 429 was waited out.
    assert.equal(log.filter((l) => / 200 /.test(l)).length, 40);
    assert.ok(!first.stderr.includes('429') && !second.stderr.includes('429'));
  });
});
