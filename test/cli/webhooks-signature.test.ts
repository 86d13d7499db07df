// Delivery signatures: ws's signature module against an HMAC computed here, then `ws
// webhooks sign` (its header, its JSON, its curl command run for real) and `ws webhooks
// check-signature` (exit 0 valid, 1 not, and the likely cause of each kind of mistake).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { parseSignature, signatureHeader, verifySignature } from '../../src/webhooks/signature.ts';
import { runWs, tempConfigDir } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { hmac, signatureOk, startReceiver } from '../helpers/webhook-receiver.ts';

const SECRET = 'whsec_abcdefghijklmnopqrstuvwxyz012345';
const BODY =
  '{"id":"d1","webhook_id":"w1","event":"webhook.test","occurred_at":"2026-01-01T00:00:00.000Z","data":{}}';

describe('the signature module', () => {
  it('signs t.body with HMAC-SHA256 of the secret, as computed independently', () => {
    assert.equal(
      signatureHeader(SECRET, BODY, 1700000000),
      `t=1700000000,v1=${hmac(SECRET, 1700000000, BODY)}`,
    );
    // Bytes, not text: a body that is not UTF-8 is signed as it is.
    const bytes = Buffer.from([0xff, 0x00, 0x7b]);
    assert.equal(signatureHeader(SECRET, bytes, 5), `t=5,v1=${hmac(SECRET, 5, bytes)}`);
  });

  it('accepts any one of several v1 values, and only within ±300 s', () => {
    const t = 1700000000;
    const good = hmac(SECRET, t, BODY);
    const header = `t=${t},v1=${'0'.repeat(64)},v1=${good}`;
    assert.deepEqual(verifySignature({ secret: SECRET, body: BODY, header, nowS: t + 300 }), {
      valid: true,
      timestamp: t,
      ageSeconds: 300,
    });
    const old = verifySignature({ secret: SECRET, body: BODY, header, nowS: t + 301 });
    assert.equal(old.valid, false);
    assert.equal(!old.valid && old.reason, 'timestamp_too_old');
    const ahead = verifySignature({ secret: SECRET, body: BODY, header, nowS: t - 301 });
    assert.equal(!ahead.valid && ahead.reason, 'timestamp_in_future');
    assert.equal(
      verifySignature({ secret: SECRET, body: BODY, header, nowS: t - 300 }).valid,
      true,
    );
  });

  it('refuses another body, another secret, a missing or unreadable header', () => {
    const t = 1700000000;
    const header = signatureHeader(SECRET, BODY, t);
    const reason = (v: ReturnType<typeof verifySignature>) => (v.valid ? 'valid' : v.reason);
    assert.equal(
      reason(verifySignature({ secret: SECRET, body: `${BODY} `, header, nowS: t })),
      'no_match',
    );
    assert.equal(
      reason(verifySignature({ secret: `${SECRET}x`, body: BODY, header, nowS: t })),
      'no_match',
    );
    assert.equal(
      reason(verifySignature({ secret: SECRET, body: BODY, header: undefined, nowS: t })),
      'missing_header',
    );
    assert.equal(
      reason(verifySignature({ secret: SECRET, body: BODY, header: 'v1=ab', nowS: t })),
      'malformed_header',
    );
    assert.equal(
      reason(verifySignature({ secret: SECRET, body: BODY, header: `t=${t}`, nowS: t })),
      'malformed_header',
    );
    assert.deepEqual(parseSignature(' t=12 , v1=AB ,v0=zz'), { t: 12, v1: ['ab'] });
  });
});

describe('ws webhooks sign and check-signature', () => {
  let t: TestSandbox;
  let env: Record<string, string>;
  let dir: string;
  let cleanup: () => void;
  let secretFile: string;
  let bodyFile: string;
  const now = () => Math.floor(Date.now() / 1000);

  before(async () => {
    t = await startTestSandbox();
    ({ dir, cleanup } = tempConfigDir());
    env = { ...(t.env as Record<string, string>), NO_COLOR: '1' };
    secretFile = join(dir, 'whsec.txt');
    writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
    bodyFile = join(dir, 'body.json');
    writeFileSync(bodyFile, BODY);
  });
  after(async () => {
    cleanup();
    await t.stop();
  });

  const check = (signature: string, body: string, extra: string[] = [], secret = secretFile) =>
    runWs(
      [
        'webhooks',
        'check-signature',
        '--secret-file',
        secret,
        '--signature',
        signature,
        '--body',
        body,
        ...extra,
      ],
      { env },
    );

  it('sign prints the header value for the exact bytes of --body', async () => {
    const r = await runWs(
      [
        'webhooks',
        'sign',
        '--secret-file',
        secretFile,
        '--body',
        `@${bodyFile}`,
        '--timestamp',
        '1700000000',
      ],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `t=1700000000,v1=${hmac(SECRET, 1700000000, BODY)}\n`);
    const stdin = await runWs(['webhooks', 'sign', '--body', '-', '--timestamp', '7'], {
      env: { ...env, WS_WEBHOOK_SECRET: SECRET },
      stdin: BODY,
    });
    assert.equal(stdin.stdout, `t=7,v1=${hmac(SECRET, 7, BODY)}\n`);
  });

  it('sign --json gives the delivery headers and the body; without --body, a new webhook.test delivery', async () => {
    const r = await runWs(['webhooks', 'sign', '--secret-file', secretFile, '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const body = JSON.parse(out.body);
    assert.equal(body.event, 'webhook.test');
    assert.deepEqual(body.data, {});
    assert.equal(out.headers['X-Service-Delivery-Id'], body.id);
    assert.equal(out.headers['X-Service-Webhook-Id'], body.webhook_id);
    assert.equal(out.headers['X-Service-Event'], 'webhook.test');
    assert.equal(out.headers['X-Service-Signature'], out.signature);
    assert.ok(signatureOk(out.signature, Buffer.from(out.body), SECRET));
  });

  it('sign --curl prints a command that delivers a correctly signed request', async () => {
    const receiver = await startReceiver();
    try {
      const r = await runWs(
        ['webhooks', 'sign', '--secret-file', secretFile, '--curl', receiver.url],
        { env },
      );
      assert.equal(r.code, 0, r.stderr);
      // Not a sync spawn: the receiver answers from this process's event loop.
      await promisify(execFile)('sh', ['-c', r.stdout]);
      const post = receiver.posts()[0]!;
      assert.equal(post.headers['content-type'], 'application/json');
      assert.equal(post.headers['x-service-event'], 'webhook.test');
      assert.ok(signatureOk(String(post.headers['x-service-signature']), post.body, SECRET));
    } finally {
      await receiver.close();
    }
  });

  it('sign without --body and without --json or --curl is a usage error; so is a missing secret', async () => {
    const a = await runWs(['webhooks', 'sign', '--secret-file', secretFile], { env });
    assert.equal(a.code, 2);
    assert.match(a.stderr, /--body is needed/);
    const b = await runWs(['webhooks', 'sign', '--body', '{}'], { env });
    assert.equal(b.code, 2);
    assert.match(
      b.stderr,
      /A webhook secret is needed to sign the body: pass --secret-file F, or set WS_WEBHOOK_SECRET/,
    );
  });

  it('check-signature: a right signature exits 0', async () => {
    const r = await check(`t=${now()},v1=${hmac(SECRET, now(), BODY)}`, `@${bodyFile}`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^✓ Valid signature/);
    const j = await check(`X-Service-Signature: t=${now()},v1=${hmac(SECRET, now(), BODY)}`, BODY, [
      '--json',
    ]);
    assert.equal(JSON.parse(j.stdout).valid, true);
  });

  it('a body re-serialised before checking is named as the cause', async () => {
    const pretty = JSON.stringify(JSON.parse(BODY), null, 2);
    const r = await check(`t=${now()},v1=${hmac(SECRET, now(), BODY)}`, pretty);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /✗ Invalid signature: no v1 value is the HMAC of this body with this secret/,
    );
    assert.match(
      r.stdout,
      /The body was re-serialised: the signature matches this body as compact JSON/,
    );
  });

  it('the API key or the verification token given as the secret is named', async () => {
    const keyFile = join(dir, 'key.txt');
    writeFileSync(keyFile, t.sandbox.apiKey, { mode: 0o600 });
    const sig = `t=${now()},v1=${hmac(SECRET, now(), BODY)}`;
    const key = await check(sig, BODY, [], keyFile);
    assert.equal(key.code, 1);
    assert.match(key.stdout, /The secret given is the API key/);
    assert.ok(!key.stdout.includes(t.sandbox.apiKey), 'the key itself is not shown');
    const tokenFile = join(dir, 'token.txt');
    writeFileSync(tokenFile, 'whtok_abcdefghijklmnopqrstuvwxyz0123', { mode: 0o600 });
    const token = await check(sig, BODY, [], tokenFile);
    assert.match(token.stdout, /The secret given is a verification token \(whtok_…\)/);
  });

  it('a header made with the API key instead of the secret is named', async () => {
    const r = await check(`t=${now()},v1=${hmac(t.sandbox.apiKey, now(), BODY)}`, BODY, ['--json']);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout);
    assert.equal(out.valid, false);
    assert.equal(out.reason, 'no_match');
    assert.ok(out.likely_causes.some((c: string) => /made with the API key/.test(c)));
  });

  it('a timestamp outside the tolerance is named, with how far off it is', async () => {
    const old = now() - 3600;
    const r = await check(`t=${old},v1=${hmac(SECRET, old, BODY)}`, BODY);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /signed 3\d{3} s ago, more than the 300 s allowed/);
    assert.match(
      r.stdout,
      /The signature is right, but it was made 1 h ago .* outside the 300 s tolerance/,
    );
    const wide = await check(`t=${old},v1=${hmac(SECRET, old, BODY)}`, BODY, [
      '--tolerance',
      '7200',
    ]);
    assert.equal(wide.code, 0);
    const ahead = now() + 900;
    const f = await check(`t=${ahead},v1=${hmac(SECRET, ahead, BODY)}`, BODY);
    assert.match(f.stdout, /its timestamp is 15 min in the future/);
  });

  it('the header of another webhook is named', async () => {
    const sig = `t=${now()},v1=${hmac('whsec_ofanotherwebhook000000000000000', now(), BODY)}`;
    const r = await check(sig, BODY, ['--webhook', '00000000-0000-4000-8000-000000000002']);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /The header belongs to another webhook: this delivery is for webhook w1, and the secret is that of webhook 00000000-0000-4000-8000-000000000002/,
    );
    const header = await check(sig, BODY, ['--webhook-id', 'w2']);
    assert.match(
      header.stdout,
      /The header belongs to another webhook: this delivery is for webhook w1, not w2/,
    );
    const unsure = await check(sig, BODY);
    assert.match(
      unsure.stdout,
      /The secret may be another webhook's: this delivery is for webhook w1/,
    );
  });

  it('a missing or unreadable header is explained', async () => {
    const missing = await check('', BODY);
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /No X-Service-Signature header was given/);
    const bad = await check('sha256=abc', BODY);
    assert.match(bad.stdout, /The header cannot be read: the header has no t=<unix seconds> part/);
  });

  it('the secret never appears in output, --debug traces or errors', async () => {
    const stale = now() - 3600;
    const runs = [
      await check(`t=${now()},v1=${hmac(SECRET, now(), BODY)}`, `${BODY} `, ['--debug']),
      await check(`t=${stale},v1=${hmac(SECRET, stale, BODY)}`, BODY, ['--json', '--debug']),
      await check(`t=${now()},v1=00`, BODY, ['--webhook', 'no-such-webhook', '--debug']),
      await runWs(['webhooks', 'sign', '--secret-file', secretFile, '--json', '--debug'], { env }),
      await runWs(
        [
          'webhooks',
          'listen',
          '--webhook',
          'no-such-webhook',
          '--secret-file',
          secretFile,
          '--debug',
        ],
        { env },
      ),
      await runWs(
        ['webhooks', 'doctor', 'http://127.0.0.1:9/hooks', '--secret-file', secretFile, '--debug'],
        { env },
      ),
      await runWs(['webhooks', 'sign', '--body', '{}', '--debug'], {
        env: { ...env, WS_WEBHOOK_SECRET: `${SECRET} trailing` },
      }),
    ];
    // Each failed (sign --json printed a signature; a secret of two words is refused), and
    // said something: the check is not vacuous.
    assert.deepEqual(
      runs.map((r) => r.code),
      [1, 1, 4, 0, 4, 1, 2],
    );
    for (const r of runs) {
      assert.ok(r.stdout.length + r.stderr.length > 0);
      assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), r.stdout + r.stderr);
      assert.ok(!r.stderr.includes(SECRET.slice(6, 20)), r.stderr);
    }
  });

  it('a secret file readable by others gets a warning', async () => {
    const open = join(dir, 'open.txt');
    writeFileSync(open, SECRET, { mode: 0o644 });
    const r = await check(`t=${now()},v1=${hmac(SECRET, now(), BODY)}`, BODY, [], open);
    assert.equal(r.code, 0);
    assert.match(r.stderr, /can be read by other users \(mode 644\); run `chmod 600/);
  });
});
