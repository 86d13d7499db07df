// Which proxy carries a request (src/api/proxy.ts): the variables users set for curl and
// Go programs, read with the same rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiClient } from '../../src/api/client.ts';
import { proxyFor } from '../../src/api/proxy.ts';
import { RateLimiter } from '../../src/api/ratelimit.ts';
import type { Exchange } from '../../src/api/transport.ts';
import { testIO } from '../helpers/io.ts';

const via = (url: string, env: Record<string, string>) => proxyFor(new URL(url), env)?.href;

describe('proxyFor', () => {
  it('takes HTTPS_PROXY for https and HTTP_PROXY for http, lower case first, ALL_PROXY for both', () => {
    const env = { HTTPS_PROXY: 'http://secure:3128', HTTP_PROXY: 'http://plain:3128' };
    assert.equal(via('https://api.example.com', env), 'http://secure:3128/');
    assert.equal(via('http://api.example.com', env), 'http://plain:3128/');
    assert.equal(
      via('https://api.example.com', { ...env, https_proxy: 'http://lower:8080' }),
      'http://lower:8080/',
    );
    assert.equal(via('https://api.example.com', { ALL_PROXY: 'all:1' }), 'http://all:1/');
    assert.equal(via('https://api.example.com', { HTTP_PROXY: 'http://plain:3128' }), undefined);
    assert.equal(via('https://api.example.com', { HTTPS_PROXY: '  ' }), undefined);
  });

  it('leaves out what NO_PROXY names: domains with their subdomains, ports, addresses, ranges, *', () => {
    const proxy = { HTTPS_PROXY: 'http://p:3128', HTTP_PROXY: 'http://p:3128' };
    const direct = (url: string, noProxy: string) =>
      via(url, { ...proxy, NO_PROXY: noProxy }) === undefined;
    assert.ok(direct('https://example.com', 'example.com'));
    assert.ok(direct('https://api.example.com', 'example.com'));
    assert.ok(direct('https://api.example.com', '.example.com'));
    assert.ok(direct('https://api.example.com', '*.example.com'));
    assert.ok(!direct('https://notexample.com', 'example.com'));
    assert.ok(direct('https://API.Example.com', 'other.org, example.com'));
    assert.ok(direct('https://api.example.com', 'api.example.com:443'));
    assert.ok(!direct('https://api.example.com:8443', 'api.example.com:443'));
    assert.ok(direct('http://10.1.2.3', '10.0.0.0/8'));
    assert.ok(!direct('http://11.1.2.3', '10.0.0.0/8'));
    assert.ok(direct('http://192.168.1.5:8080', '192.168.1.5'));
    assert.ok(direct('http://[fd00::1]', 'fd00::/8'));
    assert.ok(direct('https://anything.example', '*'));
    assert.ok(!direct('https://api.example.com', ''));
  });

  it('never proxies loopback hosts (a local sandbox)', () => {
    const env = { HTTP_PROXY: 'http://p:3128' };
    for (const url of [
      'http://localhost:4800',
      'http://127.0.0.1:4800',
      'http://127.1.2.3',
      'http://[::1]:4800',
    ])
      assert.equal(via(url, env), undefined, url);
  });

  it('refuses a value that is not an http:// or https:// proxy, naming the variable', () => {
    assert.throws(() => via('https://a.example', { https_proxy: 'socks5://p:1080' }), {
      message: 'https_proxy names a socks5 proxy; ws speaks to http:// and https:// proxies.',
    });
    assert.throws(() => via('https://a.example', { HTTPS_PROXY: 'http://[bad' }), {
      message: 'HTTPS_PROXY is not a URL.',
    });
  });
});

describe('the client and its proxy', () => {
  it('hands the transport the proxy of its base URL, from the environment it is given', async () => {
    const seen: (string | undefined)[] = [];
    const transport = {
      async send(x: Exchange) {
        seen.push(x.proxy?.href);
        return { status: 200, headers: {}, text: '{}' };
      },
      async close() {},
    };
    for (const env of [
      { HTTPS_PROXY: 'http://p:3128' },
      { HTTPS_PROXY: 'http://p:3128', NO_PROXY: 'example.com' },
      {},
    ]) {
      const c = new ApiClient({
        baseUrl: 'https://api.example.com',
        apiKey: 'wsk_k_000000000000',
        teamId: 't',
        io: testIO().io,
        limiter: new RateLimiter(0),
        env,
        transport,
      });
      await c.request({ method: 'GET', path: '/v2/x' });
      await c.close();
    }
    assert.deepEqual(seen, ['http://p:3128/', undefined, undefined]);
  });
});
