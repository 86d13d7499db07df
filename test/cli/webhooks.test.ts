// ws webhooks list/get/create/update/delete/enable/disable/verify/ping against a sandbox
// that delivers to real receivers started here; the secret shown once (terminal, file,
// JSON) and never in a trace; names looked up; and the gateway's preview 403 explained for
// every verb of both nouns.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { runWs, scriptedPrompter, tempConfigDir } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import {
  checking,
  echoChallenge,
  hmac,
  startReceiver,
  type TestReceiver,
} from '../helpers/webhook-receiver.ts';

let t: TestSandbox;
let env: Record<string, string>;
let receiver: TestReceiver;
let secret = '';

before(async () => {
  t = await startTestSandbox({ webhooks: { retryDelaysMs: [60_000, 60_000] } });
  env = { ...(t.env as Record<string, string>), NO_COLOR: '1' };
});
after(() => t.stop());
beforeEach(async () => {
  t.sandbox.reset();
  receiver = await startReceiver(checking(() => secret));
});
afterEach(() => receiver.close());

/** Create a webhook through ws (no waiting); gives the create answer. */
async function create(
  name: string,
  url = receiver.url,
): Promise<{
  id: string;
  secret: string;
  name: string;
  url: string;
  verification: { status: string };
  verification_token: string;
}> {
  const r = await runWs(['webhooks', 'create', '--name', name, '--url', url, '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
  const created = JSON.parse(r.stdout);
  secret = created.secret;
  return created;
}

/** Wait until `check` holds, polling the sandbox's state (no time is asserted). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not reached');
}

async function verified(id: string): Promise<boolean> {
  const r = await runWs(['webhooks', 'get', id, '--json'], { env });
  return JSON.parse(r.stdout).verified === true;
}

describe('ws webhooks create', () => {
  it('--json carries the secret once; the receiver gets the handshake; get never shows it', async () => {
    const created = await create('orders');
    assert.match(created.secret, /^whsec_/);
    assert.equal(created.name, 'orders');
    assert.equal(created.url, receiver.url);
    assert.equal(created.verification.status, 'pending');
    await until(() => verified(created.id));
    assert.equal(receiver.requests[0]!.method, 'GET');
    assert.equal(
      receiver.requests[0]!.url.searchParams.get('service_hook_token'),
      created.verification_token,
    );
    const got = await runWs(['webhooks', 'get', 'orders', '--json'], { env });
    assert.equal(got.code, 0);
    assert.equal(JSON.parse(got.stdout).secret, undefined);
    assert.ok(!got.stdout.includes(created.secret));
  });

  it('on a terminal: the secret with a warning that it is shown once, then the handshake outcome', async () => {
    const r = await runWs(['webhooks', 'create', '--name', 'orders', '--url', receiver.url], {
      env,
      tty: true,
    });
    assert.equal(r.code, 0, r.stderr);
    const line = r.stdout.split('\n').find((l) => l.startsWith('secret'));
    assert.match(line ?? '', /^secret\s+whsec_\w/);
    assert.match(r.stderr, /warning: this signing secret is shown only once: store it now/);
    assert.match(r.stderr, /✓ Verified: http:\/\/127\.0\.0\.1:\d+\/hooks echoed the challenge/);
    // The webhook is shown as it stands after the handshake.
    assert.match(r.stdout, /^verified\s+yes$/m);
  });

  it('--secret-file writes the secret (mode 0600) and leaves it out of the output', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const file = join(dir, 'whsec.txt');
      const r = await runWs(
        [
          'webhooks',
          'create',
          '--name',
          'orders',
          '--url',
          receiver.url,
          '--secret-file',
          file,
          '--json',
        ],
        { env },
      );
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.secret, undefined);
      assert.equal(out.secret_file, file);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      secret = readFileSync(file, 'utf8').trim();
      assert.match(secret, /^whsec_/);
      assert.ok(!r.stderr.includes(secret) && !r.stdout.includes(secret));
      // It is the webhook's secret: a ping arrives signed with it (checked by an HMAC made here).
      await until(() => verified(out.id));
      const ping = await runWs(['webhooks', 'ping', 'orders', '--wait', '--json'], { env });
      assert.equal(ping.code, 0, ping.stderr);
      const post = receiver.posts()[0]!;
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(
        String(post.headers['x-service-signature']),
      )!;
      assert.equal(v1, hmac(secret, t!, post.body));
    } finally {
      cleanup();
    }
  });

  it('a --secret-file that cannot be written is refused before the webhook is created', async () => {
    const r = await runWs(
      [
        'webhooks',
        'create',
        '--name',
        'x',
        '--url',
        receiver.url,
        '--secret-file',
        '/nonexistent/dir/s',
      ],
      { env },
    );
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /Cannot write --secret-file \/nonexistent\/dir\/s: its directory does not exist/,
    );
    const list = await runWs(['webhooks', 'list', '--json'], { env });
    assert.deepEqual(JSON.parse(list.stdout), []);
  });

  it('piped: missing --name or a bad --url is a usage error naming the flag', async () => {
    const a = await runWs(['webhooks', 'create', '--url', receiver.url], { env });
    assert.equal(a.code, 2);
    assert.match(a.stderr, /--name is required/);
    const b = await runWs(['webhooks', 'create', '--name', 'x', '--url', 'ftp://x.example/'], {
      env,
    });
    assert.equal(b.code, 2);
    assert.match(b.stderr, /--url "ftp:\/\/x\.example\/" must start with http:\/\/ or https:\/\//);
    const c = await runWs(['webhooks', 'create', '--name', 'x', '--url', 'hooks'], { env });
    assert.equal(c.code, 2);
    assert.match(c.stderr, /is not an absolute URL/);
  });

  it('--debug traces never show the secret (at most its last four characters)', async () => {
    const r = await runWs(
      ['webhooks', 'create', '--name', 'traced', '--url', receiver.url, '--json', '--debug'],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout).secret as string;
    assert.match(r.stderr, /→ POST .*\/v2\/webhooks\//);
    assert.ok(!r.stderr.includes(s), 'the secret is not in the trace');
    assert.ok(r.stderr.includes(`…${s.slice(-4)}`), 'only its end is');
  });
});

describe('ws webhooks list, get, update, enable, disable, delete', () => {
  it('list shows every webhook; get finds one by name (ignoring case) or id', async () => {
    const a = await create('orders');
    await create('invoices');
    const list = await runWs(['webhooks', 'list'], { env });
    assert.equal(list.code, 0);
    assert.deepEqual(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[1])
        .sort(),
      ['invoices', 'orders'],
    );
    const byName = await runWs(['webhooks', 'get', 'ORDERS', '--json'], { env });
    assert.equal(JSON.parse(byName.stdout).id, a.id);
    const byId = await runWs(['webhooks', 'get', a.id, '--fields', 'name,url'], { env });
    assert.equal(byId.stdout, `name\torders\nurl\t${receiver.url}\n`);
  });

  it('create and update refuse a name another webhook has (exit 6), whatever its case', async () => {
    const first = await create('orders');
    const again = await runWs(['webhooks', 'create', '--name', 'Orders', '--url', receiver.url], {
      env,
    });
    assert.equal(again.code, 6, again.stderr);
    assert.match(again.stderr, new RegExp(`A webhook is already named "orders" \\(${first.id}`));
    assert.match(
      again.stderr,
      /pick another --name, or change that webhook with `ws webhooks update orders`/,
    );
    await create('refunds');
    const renamed = await runWs(['webhooks', 'update', 'refunds', '--name', 'orders'], { env });
    assert.equal(renamed.code, 6, renamed.stderr);
    const same = await runWs(['webhooks', 'update', 'orders', '--name', 'orders'], { env });
    assert.equal(same.code, 0, same.stderr);
    const listed = await runWs(['webhooks', 'list', '--json'], { env });
    assert.deepEqual(
      JSON.parse(listed.stdout)
        .map((w: { name: string }) => w.name)
        .sort(),
      ['orders', 'refunds'],
    );
  });

  it('an unknown name is not found (exit 4) with the names; a shared name is a usage error with the ids', async () => {
    const a = await create('twin');
    // A second webhook of that name, made through the API (ws refuses to make one).
    const made = await fetch(`${t.sandbox.url}/v2/webhooks/${t.sandbox.teamId}`, {
      method: 'POST',
      headers: { 'x-api-key': t.sandbox.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'twin', url: receiver.url }),
    });
    const b = (await made.json()) as { id: string };
    await create('other');
    const none = await runWs(['webhooks', 'get', 'missing'], { env });
    assert.equal(none.code, 4);
    assert.match(none.stderr, /No webhook has the id or name "missing"/);
    assert.match(none.stderr, /"other"/);
    const two = await runWs(['webhooks', 'get', 'twin'], { env });
    assert.equal(two.code, 2);
    assert.match(two.stderr, /2 webhooks are named "twin"/);
    assert.ok(two.stderr.includes(a.id) && two.stderr.includes(b.id));
    const unknownId = await runWs(['webhooks', 'get', '00000000-0000-4000-8000-000000000000'], {
      env,
    });
    assert.equal(unknownId.code, 4);
    assert.match(unknownId.stderr, /ws webhooks list/);
  });

  it('update changes fields; a new url runs the handshake again, waited for with --wait', async () => {
    const a = await create('orders');
    await until(() => verified(a.id));
    const other = await startReceiver();
    try {
      const r = await runWs(
        [
          'webhooks',
          'update',
          'orders',
          '--url',
          other.url,
          '--description',
          'v2',
          '--wait',
          '--json',
        ],
        { env },
      );
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.url, other.url);
      assert.equal(out.description, 'v2');
      assert.equal(out.verified, true);
      assert.equal(out.handshake.status, 'success');
      assert.equal(other.requests[0]!.method, 'GET');
    } finally {
      await other.close();
    }
    const none = await runWs(['webhooks', 'update', 'orders'], { env });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Nothing to change/);
  });

  it('disable stops deliveries (ping says why), enable brings them back', async () => {
    const a = await create('orders');
    await until(() => verified(a.id));
    const off = await runWs(['webhooks', 'disable', 'orders', '--json'], { env });
    assert.equal(off.code, 0, off.stderr);
    assert.equal(JSON.parse(off.stdout).enabled, false);
    const ping = await runWs(['webhooks', 'ping', 'orders'], { env });
    assert.equal(ping.code, 1);
    assert.match(ping.stderr, /Webhook orders did not get the test event: it is disabled/);
    assert.match(ping.stderr, /ws webhooks enable orders/);
    const on = await runWs(['webhooks', 'enable', a.id, '--json'], { env });
    assert.equal(JSON.parse(on.stdout).enabled, true);
    const again = await runWs(['webhooks', 'ping', 'orders', '--json'], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).dispatched, true);
  });

  it('delete: refused without a confirmation when piped; asks on a terminal; --yes deletes', async () => {
    const a = await create('orders');
    const refused = await runWs(['webhooks', 'delete', 'orders'], { env });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Not deleting webhook .* without confirmation/);
    const no = await runWs(['webhooks', 'delete', 'orders'], {
      env,
      tty: true,
      prompter: scriptedPrompter({ 'Delete webhook "orders"': false }),
    });
    assert.equal(no.code, 1);
    assert.match(no.stderr, /Cancelled: nothing was changed/);
    const yes = await runWs(['webhooks', 'rm', 'orders'], {
      env,
      tty: true,
      prompter: scriptedPrompter({ [`Delete webhook "orders" (${receiver.url})`]: true }),
    });
    assert.equal(yes.code, 0, yes.stderr);
    const gone = await runWs(['webhooks', 'get', a.id], { env });
    assert.equal(gone.code, 4);
    const b = await create('second');
    const forced = await runWs(['webhooks', 'delete', b.id, '--yes', '--json'], { env });
    assert.deepEqual(JSON.parse(forced.stdout), { deleted: b.id });
  });
});

describe('ws webhooks verify and ping', () => {
  it('verify --wait: exit 0 when the receiver echoes the challenge, 1 with the reason when not', async () => {
    const a = await create('orders');
    await until(() => verified(a.id));
    const ok = await runWs(['webhooks', 'verify', 'orders', '--wait'], { env });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /✓ Verified: .* echoed the challenge/);
    receiver.answer = (req) =>
      req.method === 'GET' ? { status: 200, body: 'not the challenge' } : { status: 200 };
    const bad = await runWs(['webhooks', 'verify', 'orders', '--wait', '--json'], { env });
    assert.equal(bad.code, 1);
    const out = JSON.parse(bad.stdout);
    assert.equal(out.handshake.status, 'failed');
    assert.equal(out.verified, false);
    assert.match(
      bad.stderr,
      /the handshake with .* failed: answered 200, but the body was not the challenge/,
    );
  });

  it('verify without waiting returns at once, saying how to wait', async () => {
    await create('orders');
    const r = await runWs(['webhooks', 'verify', 'orders', '--no-wait', '--json'], { env });
    assert.equal(r.code, 0);
    assert.equal(JSON.parse(r.stdout).verification.status, 'pending');
    assert.match(r.stderr, /ws webhooks verify orders --wait/);
  });

  it('ping --wait reports the delivery: acknowledged (exit 0) or failed with its retry (exit 1)', async () => {
    const a = await create('orders');
    await until(() => verified(a.id));
    const ok = await runWs(['webhooks', 'ping', 'orders', '--wait', '--json'], { env });
    assert.equal(ok.code, 0, ok.stderr);
    const good = JSON.parse(ok.stdout);
    assert.equal(good.dispatched, true);
    assert.equal(good.delivery.status, 'success');
    assert.equal(good.delivery.delivery_id, good.delivery_id);
    assert.match(ok.stderr, /✓ Delivered webhook\.test to .*: 200/);
    receiver.answer = (req) => echoChallenge(req) ?? { status: 500, body: 'boom' };
    const failed = await runWs(['webhooks', 'ping', 'orders', '--wait'], { env });
    assert.equal(failed.code, 1);
    assert.match(
      failed.stderr,
      /The delivery of webhook\.test to .* failed: answered 500; deliveries need a 2xx answer .*Attempt 1 failed; the next is due at/,
    );
    assert.match(failed.stderr, /ws deliveries get [0-9a-f-]{36} --webhook/);
  });

  it('ping of a webhook whose handshake failed says it is not verified', async () => {
    receiver.answer = () => ({ status: 404 });
    await create('orders');
    const r = await runWs(['webhooks', 'ping', 'orders'], { env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /it is not verified/);
    assert.match(r.stderr, /ws webhooks verify orders/);
  });
});

describe('against the gateway that keeps webhooks a preview', () => {
  let p: TestSandbox;
  let penv: Record<string, string>;
  before(async () => {
    p = await startTestSandbox({ webhooks: { preview: true } });
    penv = p.env as Record<string, string>;
  });
  after(() => p.stop());

  const ID = '00000000-0000-4000-8000-000000000001';
  const verbs: string[][] = [
    ['webhooks', 'list'],
    ['webhooks', 'get', 'orders'],
    ['webhooks', 'get', ID],
    ['webhooks', 'create', '--name', 'x', '--url', 'https://x.example/h'],
    ['webhooks', 'update', ID, '--name', 'y'],
    ['webhooks', 'delete', ID, '--yes'],
    ['webhooks', 'enable', ID],
    ['webhooks', 'disable', ID],
    ['webhooks', 'verify', ID],
    ['webhooks', 'ping', ID],
    ['webhooks', 'listen'],
    ['webhooks', 'listen', '--public-url', 'https://x.example/h', '--port', '0'],
    ['webhooks', 'doctor', 'http://127.0.0.1:9/', '--webhook', 'orders'],
    ['deliveries', 'list'],
    ['deliveries', 'list', '--webhook', ID],
    ['deliveries', 'get', ID],
    ['deliveries', 'get', ID, '--webhook', ID],
    ['deliveries', 'tail'],
    ['deliveries', 'replay', ID, '--to', 'http://127.0.0.1:9/', '--dry-run'],
  ];
  for (const argv of verbs) {
    it(`${argv.slice(0, 2).join(' ')} explains webhooks_unavailable (exit 1): ${argv.slice(2).join(' ')}`, async () => {
      const r = await runWs([...argv, '--json'], {
        env: { ...penv, WS_WEBHOOK_SECRET: 'whsec_0123456789abcdef0123456789abcdef' },
      });
      assert.equal(r.code, 1, r.stderr);
      const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;
      assert.equal(err.code, 'webhooks_unavailable');
      assert.equal(err.status, 403);
      assert.match(err.message, /Webhook routes are not yet available on this service/);
    });
  }
});
