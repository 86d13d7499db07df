// Where webhooks may deliver: private and internal addresses are refused in every spelling,
// at create and update (400 on body.url) and again at each attempt; loopback receivers work
// by default and are refused under the service's strict rule; a delivery connects to the
// address that was checked (no second look-up), and follows no redirect.
//
// Only addresses on this machine are ever contacted: the refused ones are refused before any
// connection, and host names are answered by a resolver the test gives the sandbox.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressRefusal } from '../../src/sandbox/resources/webhooks/addresses.ts';
import { startFor } from './helpers.ts';
import {
  createHook,
  deliveryWhen,
  handshakeOf,
  handshakeThen,
  hooks,
  type Json,
  pinged,
  resolverOf,
  startReceiver,
  verifiedHook,
} from './webhook-helpers.ts';

/** Loopback in the spellings a url may use; refused only under the strict rule. */
const LOOPBACK: readonly string[] = [
  'http://127.0.0.1/',
  'http://127.9.9.9/',
  'http://2130706433/', // decimal
  'http://0177.0.0.1/', // octal
  'http://0x7f.1/', // hex, two parts
  'http://0x7f000001/', // hex, one part
  'http://127.1/', // two parts
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/', // IPv4-mapped
  'http://[::ffff:0:127.0.0.1]/', // IPv4-translated
  'http://[64:ff9b::127.0.0.1]/', // NAT64
  'http://[2002:7f00:1::]/', // 6to4
  'http://[::127.0.0.1]/', // IPv4-compatible
];

/** Private and internal addresses in many spellings: always refused. [url, what it is] */
const INTERNAL: readonly [string, RegExp][] = [
  ['http://10.0.0.1/', /private/],
  ['http://167772161/', /private/], // 10.0.0.1 in decimal
  ['http://012.0.0.1/', /private/], // 10.0.0.1 in octal
  ['http://0xa.0.0.1/', /private/],
  ['http://172.16.0.1/', /private/],
  ['http://172.31.255.254/', /private/],
  ['https://192.168.1.10:8443/hook', /private/],
  ['http://169.254.169.254/latest/meta-data/', /link-local/], // cloud metadata
  ['http://0xa9fea9fe/', /link-local/], // the same, in hex
  ['http://[fe80::1]/', /link-local/],
  ['http://[fd00:ec2::254]/', /unique local/], // a cloud's IPv6 metadata address
  ['http://[fc00::1]/', /unique local/],
  ['http://100.64.0.1/', /CGNAT/],
  ['http://100.127.255.254/', /CGNAT/],
  ['http://224.0.0.1/', /multicast/],
  ['http://[ff02::1]/', /multicast/],
  ['http://0.0.0.0/', /unspecified/],
  ['http://0/', /unspecified/],
  ['http://[::]/', /unspecified/],
  ['http://255.255.255.255/', /broadcast/],
  ['http://240.0.0.1/', /reserved/],
  ['http://192.0.2.1/', /reserved/],
  ['http://198.18.0.1/', /reserved/],
  ['http://[2001:db8::1]/', /reserved/],
  ['http://[::ffff:10.0.0.1]/', /private.*carries the IPv4 address 10\.0\.0\.1/],
  ['http://[::ffff:a9fe:a9fe]/', /link-local.*169\.254\.169\.254/],
  ['http://[64:ff9b::10.0.0.1]/', /private.*10\.0\.0\.1/],
  ['http://[64:ff9b::169.254.169.254]/', /link-local/],
  ['http://[2002:c0a8:101::]/', /private.*192\.168\.1\.1/], // 6to4 of 192.168.1.1
  ['http://[::10.0.0.1]/', /private.*10\.0\.0\.1/],
  ['http://[2001::1]/', /Teredo/],
  ['http://[64:ff9b:1::a00:1]/', /special-purpose/], // NAT64 local-use prefix
];

describe('the address rule', () => {
  test('every spelling of a private or internal address is refused, in both modes', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const strict = await startFor(t, {
      validateResponses: true,
      webhooks: { strictAddresses: true },
    });
    for (const box of [sandbox, strict]) {
      for (const [url, what] of INTERNAL) {
        const answer = await hooks(box, 'POST', '', { body: { name: 'internal', url } });
        assert.equal(answer.status, 400, url);
        const [error] = answer.body.error.errors;
        assert.equal(`${error.field}:${error.code}`, 'body.url:forbidden_address', url);
        assert.match(error.message, what, url);
      }
      assert.deepEqual((await hooks(box, 'GET')).body.data, [], 'nothing was created');
      assert.deepEqual(box.contractViolations, []);
    }
  });

  test('loopback is allowed by default and refused under the strict rule', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const strict = await startFor(t, { webhooks: { strictAddresses: true } });
    for (const url of LOOPBACK) {
      const allowed = await hooks(sandbox, 'POST', '', { body: { name: 'local', url } });
      assert.equal(allowed.status, 201, `${url}: ${allowed.text}`);
      const refused = await hooks(strict, 'POST', '', { body: { name: 'local', url } });
      assert.equal(refused.status, 400, url);
      assert.equal(refused.body.error.errors[0].code, 'forbidden_address');
      assert.match(refused.body.error.message, /loopback.*strict rule/, url);
    }
    assert.deepEqual(sandbox.contractViolations, []);
  });

  test('the same judgement, address by address (the module the routes use)', () => {
    for (const address of [
      '93.184.216.34',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '2002:808:808::',
    ]) {
      assert.equal(addressRefusal(address, true), undefined, address);
    }
    for (const address of ['127.0.0.1', '::1', '::ffff:7f00:1', '64:ff9b::7f00:1']) {
      assert.equal(addressRefusal(address, false), undefined, address);
      assert.match(addressRefusal(address, true) ?? '', /loopback/, address);
    }
    assert.match(addressRefusal('fe80::1%eth0', false) ?? '', /link-local/);
    assert.match(addressRefusal('not-an-ip', false) ?? '', /not an IP address/);
  });

  test('a host name is refused when ANY of its addresses is, and accepted when it has none', async (t) => {
    const names = {
      'mixed.example': ['93.184.216.34', '10.1.2.3'],
      'metadata.example': ['169.254.169.254'],
      'local.example': ['::1'],
    };
    const sandbox = await startFor(t, { webhooks: { resolve: resolverOf(names) } });
    const strict = await startFor(t, {
      webhooks: { resolve: resolverOf(names), strictAddresses: true },
    });
    for (const [box, host, what] of [
      [sandbox, 'mixed.example', /mixed\.example resolves to 10\.1\.2\.3, a private address/],
      [sandbox, 'metadata.example', /resolves to 169\.254\.169\.254, a link-local/],
      [strict, 'local.example', /resolves to ::1, a loopback address/],
    ] as const) {
      const answer = await hooks(box, 'POST', '', {
        body: { name: 'n', url: `https://${host}/hook` },
      });
      assert.equal(answer.status, 400, host);
      assert.match(answer.body.error.message, what);
    }
    // A name that does not resolve is accepted: its handshake fails and says why.
    const unknown = await createHook(sandbox, 'https://nowhere.example/hook');
    const handshake = await handshakeOf(sandbox, unknown);
    assert.equal(handshake.status, 'failed');
    assert.equal(handshake.status_code, null);
    assert.match(
      handshake.attempt_history[0].error,
      /nowhere\.example did not resolve \(ENOTFOUND\)/,
    );
  });

  test('an update to a refused url is 400 and changes nothing', async (t) => {
    const sandbox = await startFor(t, { validateResponses: true });
    const receiver = await startReceiver(t);
    const hook = await verifiedHook(sandbox, `${receiver.origin}/h`);
    const answer = await hooks(sandbox, 'PATCH', `/${hook.id}`, {
      body: { url: 'http://[::ffff:192.168.0.1]/h', name: 'changed' },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.errors[0].field, 'body.url');
    const read = await hooks(sandbox, 'GET', `/${hook.id}`);
    assert.equal(read.body.url, hook.url);
    assert.equal(read.body.name, hook.name);
    assert.equal(read.body.verified, true);
  });
});

describe('connecting', () => {
  test('each attempt resolves once and connects to the address it checked', async (t) => {
    const receiver = await startReceiver(t);
    const calls: string[] = [];
    // Only the sandbox's resolver knows this name: a connection that looked it up again (the
    // system resolver) would not find it.
    const sandbox = await startFor(t, {
      webhooks: { resolve: resolverOf({ 'hooks.internal.test': ['127.0.0.1'] }, calls) },
    });
    const hook = await verifiedHook(sandbox, `http://hooks.internal.test:${receiver.port}/in`);
    const ping = await hooks(sandbox, 'POST', `/${hook.id}/ping`);
    const delivery = await deliveryWhen(
      sandbox,
      hook.id,
      ping.body.delivery_id,
      (d) => d.status !== 'pending',
    );
    assert.equal(delivery.status, 'success', JSON.stringify(delivery));
    // Once at create, once for the handshake, once for the ping.
    assert.deepEqual(calls, ['hooks.internal.test', 'hooks.internal.test', 'hooks.internal.test']);
    for (const got of receiver.received) {
      assert.equal(got.headers.host, `hooks.internal.test:${receiver.port}`);
    }
  });

  test('an address that turned internal since the webhook was created is refused at delivery', async (t) => {
    const receiver = await startReceiver(t);
    const names: Record<string, string[]> = { 'moving.example': ['127.0.0.1'] };
    const sandbox = await startFor(t, {
      webhooks: { resolve: resolverOf(names), retryDelaysMs: [0, 0] },
    });
    const hook = await verifiedHook(sandbox, `http://moving.example:${receiver.port}/h`);
    names['moving.example'] = ['10.20.30.40'];
    const delivery = await pinged(sandbox, hook.id, (d) => d.dead_lettered);
    assert.equal(delivery.attempts, 3);
    for (const attempt of delivery.attempt_history) {
      assert.equal(attempt.status_code, null);
      assert.match(
        attempt.error,
        /^refused: moving\.example resolves to 10\.20\.30\.40, a private address/,
      );
    }
    assert.equal(receiver.posts().length, 0);
  });

  test('redirects are not followed: a 3xx fails the handshake and the delivery', async (t) => {
    const receiver = await startReceiver(t, (req) =>
      req.path === '/moved' ? { status: 200, body: 'reached' } : { status: 200 },
    );
    const sandbox = await startFor(t, { webhooks: { retryDelaysMs: [0, 0] } });
    const redirect = (status: number) => ({
      status,
      headers: { location: `${receiver.origin}/moved` },
      body: 'see /moved',
    });
    receiver.respond = () => redirect(302);
    const hook = await createHook(sandbox, `${receiver.origin}/h`);
    const handshake = await handshakeOf(sandbox, hook);
    assert.equal(handshake.status, 'failed');
    assert.equal(handshake.status_code, 302);
    assert.match(handshake.attempt_history[0].error, /redirects are not followed/);

    // Deliveries: verified first, then every answer a redirect.
    receiver.respond = handshakeThen((_req, n) => redirect([301, 307, 308][n] ?? 303));
    const verify = await hooks(sandbox, 'POST', `/${hook.id}/verify`);
    const verified = await handshakeOf(sandbox, verify.body);
    assert.equal(verified.status, 'success');
    const delivery = await pinged(sandbox, hook.id, (d) => d.dead_lettered);
    assert.deepEqual(
      delivery.attempt_history.map((a: Json) => [a.status, a.status_code]),
      [
        ['failed', 301],
        ['failed', 307],
        ['failed', 308],
      ],
    );
    assert.equal(
      receiver.received.filter((r) => r.path === '/moved').length,
      0,
      'the Location was never requested',
    );
  });
});
