// ws webhooks doctor against receivers started here: one that does everything right
// passes every check (exit 0); each broken one fails exactly the checks it should (exit 1),
// with one verdict line per check.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWs, tempConfigDir } from '../helpers/run.ts';
import {
  type Answer,
  checking,
  echoChallenge,
  hmac,
  type ReceivedRequest,
  signatureOk,
  startReceiver,
} from '../helpers/webhook-receiver.ts';

const SECRET = 'whsec_doctordoctordoctordoctordoctor00';
const CHECKS = [
  'handshake',
  'signed delivery',
  'tampered body',
  'wrong secret',
  'stale timestamp',
  'future timestamp',
  'missing signature',
  'repeated delivery',
];

let dir: string;
let cleanup: () => void;
let secretFile: string;

before(() => {
  ({ dir, cleanup } = tempConfigDir());
  secretFile = join(dir, 'whsec.txt');
  writeFileSync(secretFile, SECRET, { mode: 0o600 });
});
after(() => cleanup());

/** Run doctor against a receiver answering with `answer`; gives the verdict per check. */
async function doctor(answer: (req: ReceivedRequest) => Answer, extra: string[] = []) {
  const receiver = await startReceiver(answer);
  try {
    const r = await runWs(
      [
        'webhooks',
        'doctor',
        receiver.url,
        '--secret-file',
        secretFile,
        '--format',
        'table',
        ...extra,
      ],
      { env: { NO_COLOR: '1' } },
    );
    const lines = r.stdout.trim().split('\n');
    const verdicts = Object.fromEntries(
      lines.map((l) => [l.slice(2, 20).trim(), l.startsWith('✓')] as const),
    );
    return { ...r, lines, verdicts, receiver };
  } finally {
    await receiver.close();
  }
}

/** The checks that failed. */
const failed = (v: Record<string, boolean>) => CHECKS.filter((c) => v[c] === false);

describe('ws webhooks doctor', () => {
  it('a receiver that does everything right passes all eight checks (exit 0)', async () => {
    const r = await doctor(checking(() => SECRET));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(r.verdicts), CHECKS);
    assert.deepEqual(failed(r.verdicts), []);
    assert.match(r.stderr, /passed all 8 checks/);
    // What it sent: the handshake first, then deliveries whose signatures an HMAC made here
    // judges as doctor says (good, tampered, wrong secret, stale, future, none, good).
    const [hs, ...posts] = r.receiver.requests;
    assert.equal(hs!.method, 'GET');
    assert.equal(hs!.url.searchParams.get('service_hook_mode'), 'subscribe');
    const ok = posts.map((p) =>
      signatureOk(p.headers['x-service-signature'] as string | undefined, p.body, SECRET),
    );
    assert.deepEqual(ok, [true, false, false, false, false, false, true]);
    assert.equal(
      posts[6]!.headers['x-service-delivery-id'],
      posts[0]!.headers['x-service-delivery-id'],
    );
    const stale = /^t=(\d+),v1=(\w+)$/.exec(String(posts[3]!.headers['x-service-signature']))!;
    assert.equal(stale[2], hmac(SECRET, stale[1]!, posts[3]!.body), 'stale: right HMAC, old t');
  });

  it('--json prints every check with its outcome', async () => {
    const receiver = await startReceiver(checking(() => SECRET));
    try {
      const r = await runWs(['webhooks', 'doctor', receiver.url, '--json'], {
        env: { WS_WEBHOOK_SECRET: SECRET },
      });
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.passed, true);
      assert.deepEqual(
        out.checks.map((c: { check: string; passed: boolean; status: number }) => [
          c.check,
          c.passed,
        ]),
        CHECKS.map((c) => [c, true]),
      );
      assert.equal(out.checks[2].status, 401);
    } finally {
      await receiver.close();
    }
  });

  it('a receiver that checks nothing fails the five refusals (exit 1)', async () => {
    const r = await doctor((req) => echoChallenge(req) ?? { status: 200 });
    assert.equal(r.code, 1);
    assert.deepEqual(failed(r.verdicts), [
      'tampered body',
      'wrong secret',
      'stale timestamp',
      'future timestamp',
      'missing signature',
    ]);
    assert.match(
      r.stdout,
      /✗ tampered body\s+accepted \(200 in \d+ms\): check the signature over the raw body bytes/,
    );
    assert.match(
      r.stderr,
      /failed 5 of 8 checks: tampered body, wrong secret, stale timestamp, future timestamp, missing signature/,
    );
  });

  it('a receiver that checks the HMAC but not the timestamp fails stale and future', async () => {
    const r = await doctor((req) => {
      const hs = echoChallenge(req);
      if (hs) return hs;
      const sig = String(req.headers['x-service-signature'] ?? '');
      const t = /t=(\d+)/.exec(sig)?.[1];
      return t && sig.includes(hmac(SECRET, t, req.body)) ? { status: 200 } : { status: 400 };
    });
    assert.deepEqual(failed(r.verdicts), ['stale timestamp', 'future timestamp']);
    assert.match(r.stdout, /✗ stale timestamp\s+accepted .*refuse a t more than 300 s old/);
  });

  it('a handshake answered 404, or with a newline after the challenge, fails the handshake', async () => {
    const good = checking(() => SECRET);
    const none = await doctor((req) => (req.method === 'GET' ? { status: 404 } : good(req)));
    assert.deepEqual(failed(none.verdicts), ['handshake']);
    assert.match(
      none.stdout,
      /✗ handshake\s+answered 404 in \d+ms: the handshake needs 200 with the challenge as the body/,
    );
    const newline = await doctor((req) => {
      const hs = echoChallenge(req);
      return hs ? { status: 200, body: `${hs.body}\n` } : good(req);
    });
    assert.deepEqual(failed(newline.verdicts), ['handshake']);
    assert.match(
      newline.stdout,
      /the body was not the challenge: echo service_hook_challenge exactly/,
    );
  });

  it('a receiver that refuses a delivery id it has seen fails the repeated delivery', async () => {
    const seen = new Set<string>();
    const good = checking(() => SECRET);
    const r = await doctor((req) => {
      const a = good(req);
      if (req.method !== 'POST' || a.status !== 200) return a;
      const id = String(req.headers['x-service-delivery-id']);
      if (seen.has(id)) return { status: 409, body: 'duplicate' };
      seen.add(id);
      return a;
    });
    assert.deepEqual(failed(r.verdicts), ['repeated delivery']);
    assert.match(
      r.stdout,
      /✗ repeated delivery\s+answered 409 .*a retry: acknowledge it with a 2xx/,
    );
  });

  it('a receiver slower than --max-time fails the signed delivery with "no answer"', async () => {
    const good = checking(() => SECRET);
    const r = await doctor(
      (req) =>
        req.method === 'POST' && good(req).status === 200
          ? { status: 200, delayMs: 3000 }
          : good(req),
      ['--max-time', '1'],
    );
    assert.deepEqual(failed(r.verdicts), ['signed delivery', 'repeated delivery']);
    assert.match(
      r.stdout,
      /✗ signed delivery\s+no answer within 1 s: a correctly signed delivery must get a 2xx within 1 s/,
    );
  });

  it('refusing with a 5xx passes, with a note that a 4xx is better', async () => {
    const good = checking(() => SECRET);
    const r = await doctor((req) => {
      const a = good(req);
      return a.status === 401 ? { status: 500 } : a;
    });
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /✓ wrong secret\s+refused \(500 in \d+ms\); a 4xx is better/);
  });

  it('a receiver that is not running fails every check, each saying so', async () => {
    const r = await runWs(['webhooks', 'doctor', 'http://127.0.0.1:9/hooks', '--format', 'table'], {
      env: { WS_WEBHOOK_SECRET: SECRET, NO_COLOR: '1' },
    });
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout
        .trim()
        .split('\n')
        .filter((l) => l.includes('connection refused')).length,
      8,
    );
  });
});
