// The sandbox runs its import jobs on its own, with no request arriving: a `ws sandbox
// start` process (spawned, as a user or a CI job runs it) is given a job, left alone, and
// asked once, later, how it went. The job's steps used to be scheduled so that they did not
// keep the event loop turning: a job moved on only when some request arrived, so an import
// advanced at the client's polls (seconds apart) instead of at the sandbox's speed.
// Webhook deliveries are such work too; the webhook flags of `ws sandbox start` are
// checked here, on the process a user starts.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

// biome-ignore lint/suspicious/noExplicitAny: the test reads answers freely
type Json = Record<string, any>;

interface Ready {
  url: string;
  api_key: string;
  team_id: string;
}

/** `ws sandbox start` in the foreground with `args`; stopped (SIGINT) after `use`. */
async function withSandbox(args: string[], use: (ready: Ready) => Promise<void>): Promise<void> {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--port', '0', '--json', '--no-profile', '--quiet', ...args],
    {
      env: { ...process.env, WS_CONFIG_DIR: config.dir, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
      child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
    });
    await use(ready);
  } finally {
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

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

  it('delivers webhook events, on the timeout and retry delays its flags set', async () => {
    // A receiver that answers handshakes, takes /ok deliveries and never answers /hang ones.
    const posts: string[] = [];
    const receiver = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      req.resume();
      req.on('end', () => {
        if (req.method === 'GET') res.end(url.searchParams.get('service_hook_challenge'));
        else {
          posts.push(url.pathname);
          if (url.pathname === '/ok') res.end('thanks');
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      await withSandbox(
        ['--webhook-timeout', '300', '--webhook-retry-delays', '50,100'],
        async (ready) => {
          const headers = { 'x-api-key': ready.api_key, 'content-type': 'application/json' };
          const base = `${ready.url}/v2/webhooks/${ready.team_id}`;
          const api = async (method: string, path: string, body?: unknown) => {
            const res = await fetch(`${base}${path}`, {
              method,
              headers,
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            });
            return (await res.json()) as Json;
          };
          const poll = async (path: string, done: (d: Json) => boolean) => {
            for (let i = 0; i < 500; i++) {
              const found = await api('GET', path);
              if (done(found)) return found;
              await delay(20);
            }
            assert.fail(`gave up waiting for ${path}`);
          };
          const results: Record<string, Json> = {};
          for (const name of ['ok', 'hang']) {
            const hook = await api('POST', '', { name, url: `${origin}/${name}` });
            await poll(`/${hook.id}`, (w) => w.verified === true);
            const ping = await api('POST', `/${hook.id}/ping`);
            results[name] = await poll(
              `/${hook.id}/deliveries/${ping.delivery_id}`,
              (d) => d.status === 'success' || d.dead_lettered === true,
            );
          }
          assert.equal(results['ok']!.status, 'success');
          assert.equal(results['hang']!.attempts, 3);
          for (const attempt of results['hang']!.attempt_history) {
            assert.match(attempt.error, /^timed out after 300 ms/);
          }
          assert.deepEqual(posts, ['/ok', '/hang', '/hang', '/hang']);
        },
      );
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });

  it('--strict-webhook-urls refuses loopback receivers; --webhooks-preview answers the 403', async () => {
    await withSandbox(['--strict-webhook-urls'], async (ready) => {
      const res = await fetch(`${ready.url}/v2/webhooks/${ready.team_id}`, {
        method: 'POST',
        headers: { 'x-api-key': ready.api_key, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'local', url: 'http://localhost:9/hook' }),
      });
      assert.equal(res.status, 400);
      const body = (await res.json()) as { error: { errors: { code: string }[] } };
      assert.equal(body.error.errors[0]!.code, 'forbidden_address');
    });
    await withSandbox(['--webhooks-preview'], async (ready) => {
      const res = await fetch(`${ready.url}/v2/webhooks/${ready.team_id}`, {
        headers: { 'x-api-key': ready.api_key },
      });
      assert.equal(res.status, 403);
      assert.deepEqual(await res.json(), { message: 'Missing Authentication Token' });
    });
  });

  it('refuses bad webhook flag values as usage errors', () => {
    for (const [args, message] of [
      [['--webhook-timeout', '0'], /--webhook-timeout takes a whole number from 1 to 3600000/],
      [['--webhook-retry-delays', '100'], /--webhook-retry-delays takes two delays/],
      [['--webhook-retry-delays', '1,x'], /--webhook-retry-delays takes a whole number/],
    ] as const) {
      const r = spawnSync(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', ...args], {
        env: { ...process.env, WS_CONFIG_DIR: config.dir, NO_COLOR: '1' },
        encoding: 'utf8',
      });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
    }
  });
});
