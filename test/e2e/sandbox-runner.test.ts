// The sandbox runs its import jobs on its own, with no request arriving: a `ws sandbox
// start` process (spawned, as a user or a CI job runs it) is given a job, left alone, and
// asked once, later, how it went. The job's steps used to be scheduled so that they did not
// keep the event loop turning: a job moved on only when some request arrived, so an import
// advanced at the client's polls (seconds apart) instead of at the sandbox's speed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { tempConfigDir } from '../helpers/run.ts';

const BIN = new URL('../../bin/ws.js', import.meta.url).pathname;
let config: { dir: string; cleanup: () => void };

before(() => {
  config = tempConfigDir();
});
after(() => config.cleanup());

describe('the sandbox process', () => {
  it('finishes an import job with no request arriving', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'sandbox', 'start', '--port', '0', '--json', '--no-profile', '--quiet'],
      {
        env: { ...process.env, WS_CONFIG_DIR: config.dir, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const ready = await new Promise<{ url: string; api_key: string; team_id: string }>(
        (resolve, reject) => {
          createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
          child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
        },
      );
      const headers = { 'x-api-key': ready.api_key, 'content-type': 'application/json' };
      // Enough rows for a job of many steps (each step is 500 rows, about 10 ms of work).
      const objects = Array.from({ length: 5000 }, (_, i) => ({
        default: { name: `Contact ${i}`, email: `c${i}@example.com` },
      }));
      const started = await fetch(`${ready.url}/v2/prism/${ready.team_id}/contact/import`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ objects }),
      });
      assert.equal(started.status, 202);
      const location = started.headers.get('location')!;
      // No request for a while: the job must go on by itself (it needs well under a second).
      await delay(3000);
      const job = (await (await fetch(`${ready.url}${location}`, { headers })).json()) as {
        status: string;
        processed: number;
        succeeded: number;
      };
      assert.deepEqual(
        { status: job.status, processed: job.processed, succeeded: job.succeeded },
        { status: 'complete', processed: 5000, succeeded: 5000 },
      );
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
