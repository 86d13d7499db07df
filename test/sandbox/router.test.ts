import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SandboxError } from '../../src/sandbox/errors.ts';
import { decodeSegment, parseTarget, Router, splitPath } from '../../src/sandbox/router.ts';

describe('splitPath / parseTarget', () => {
  test('splits the raw path first, then decodes each segment on its own', () => {
    assert.deepEqual(splitPath('/a%2Fb/%3F%23/%25/%2e%2e/caf%C3%A9/%E2%9C%93/plus+sign'), [
      'a/b',
      '?#',
      '%',
      '..',
      'café',
      '✓',
      'plus+sign',
    ]);
  });

  test('keeps empty segments (trailing slash, double slash)', () => {
    assert.deepEqual(splitPath('/a//b/'), ['a', '', 'b', '']);
    assert.deepEqual(splitPath('/'), ['']);
  });

  test('takes raw bytes handed over by the HTTP parser as UTF-8', () => {
    const latin1 = Buffer.from('café', 'utf8').toString('latin1');
    assert.equal(decodeSegment(latin1), 'café');
  });

  test('a malformed escape or invalid UTF-8 is a 400 naming the segment', () => {
    for (const path of ['/a/%zz', '/a/%4', '/a/%FF']) {
      assert.throws(
        () => splitPath(path),
        (err: unknown) =>
          err instanceof SandboxError &&
          err.status === 400 &&
          err.code === 'invalid_request' &&
          err.message.includes('Path segment 2'),
      );
    }
  });

  test('separates the query string and gathers repeated names into arrays', () => {
    const target = parseTarget('/v2/x%2Fy?list_id=1&a=b%20c&a=d&e=');
    assert.equal(target.rawPath, '/v2/x%2Fy');
    assert.deepEqual(target.segments, ['v2', 'x/y']);
    assert.deepEqual(target.query, { list_id: '1', a: ['b c', 'd'], e: '' });
  });

  test('a query name like __proto__ is an ordinary own property', () => {
    const { query } = parseTarget('/x?__proto__=1&constructor=2');
    assert.equal(Object.getPrototypeOf(query), Object.prototype);
    assert.deepEqual(Object.keys(query), ['__proto__', 'constructor']);
    assert.equal(Object.getOwnPropertyDescriptor(query, '__proto__')?.value, '1');
  });

  test('accepts the absolute form of a request target', () => {
    assert.deepEqual(parseTarget('http://host:1/a/b?x=1').segments, ['a', 'b']);
  });
});

describe('Router', () => {
  const router = new Router<string>();
  router.add('GET', '/v2/prism/{teamId}/{objectType}/count', 'count');
  router.add('GET', '/v2/prism/{teamId}/{objectType}/{id}', 'get');
  router.add('PATCH', '/v2/prism/{teamId}/{objectType}/{id}', 'patch');
  router.add('GET', '/v2/prism/{teamId}/imports/{jobId}', 'import');
  router.add('POST', '/v2/prism/{teamId}/{objectType}/query', 'query');
  router.add('*', '/v2/webhooks/{...rest}', 'webhooks');
  router.add('GET', '/echo/{...segments}', 'echo');

  const match = (method: string, path: string) => router.match(method, splitPath(path));

  test('matches templates and decodes parameters by name', () => {
    assert.deepEqual(match('GET', '/v2/prism/t1/contact/count'), {
      kind: 'found',
      route: 'count',
      params: { teamId: 't1', objectType: 'contact' },
      rest: [],
    });
    assert.deepEqual(match('GET', '/v2/prism/t1/con%2Ftact/abc'), {
      kind: 'found',
      route: 'get',
      params: { teamId: 't1', objectType: 'con/tact', id: 'abc' },
      rest: [],
    });
  });

  test('literal segments win over parameters', () => {
    const found = match('GET', '/v2/prism/t1/imports/j1');
    assert.equal(found.kind === 'found' && found.route, 'import');
  });

  test('the most specific template decides, even when it lacks the method', () => {
    // GET .../query addresses the query operation (POST only), not a record named 'query'.
    assert.deepEqual(match('GET', '/v2/prism/t1/contact/query'), {
      kind: 'method_not_allowed',
      allow: ['POST'],
    });
  });

  test('more literal segments win over an earlier literal', () => {
    const r = new Router<string>();
    r.add('GET', '/a/{x}/{y}', 'early');
    r.add('GET', '/{w}/b/c', 'more');
    const found = r.match('GET', ['a', 'b', 'c']);
    assert.equal(found.kind === 'found' && found.route, 'more');
    const other = r.match('GET', ['a', 'b', 'z']);
    assert.equal(other.kind === 'found' && other.route, 'early');
  });

  test('an empty segment never matches a parameter', () => {
    assert.deepEqual(match('GET', '/v2/prism//contact/count'), { kind: 'not_found' });
    assert.deepEqual(match('GET', '/v2/prism/t1/contact/count/'), { kind: 'not_found' });
  });

  test('known path, wrong method: method_not_allowed with the allowed methods', () => {
    assert.deepEqual(match('DELETE', '/v2/prism/t1/contact/count'), {
      kind: 'method_not_allowed',
      allow: ['GET', 'HEAD'],
    });
    assert.deepEqual(match('PUT', '/v2/prism/t1/contact/c1'), {
      kind: 'method_not_allowed',
      allow: ['GET', 'HEAD', 'PATCH'],
    });
  });

  test('HEAD uses the GET route', () => {
    const found = match('HEAD', '/v2/prism/t1/contact/count');
    assert.equal(found.kind === 'found' && found.route, 'count');
  });

  test('a rest segment takes zero or more segments and any method with *', () => {
    const deep = match('DELETE', '/v2/webhooks/t1/w1/deliveries');
    assert.deepEqual(deep, {
      kind: 'found',
      route: 'webhooks',
      params: {},
      rest: ['t1', 'w1', 'deliveries'],
    });
    const none = match('POST', '/v2/webhooks');
    assert.equal(none.kind === 'found' && none.route, 'webhooks');
    assert.deepEqual(match('GET', '/echo/a%2Fb//c'), {
      kind: 'found',
      route: 'echo',
      params: {},
      rest: ['a/b', '', 'c'],
    });
  });

  test('unknown paths are not_found', () => {
    assert.deepEqual(match('GET', '/v3/anything'), { kind: 'not_found' });
    assert.deepEqual(match('GET', '/v2/prism/t1'), { kind: 'not_found' });
  });

  test('rejects duplicate routes and malformed templates', () => {
    const r = new Router<string>();
    r.add('GET', '/a/{x}', 'one');
    assert.throws(() => r.add('GET', '/a/{y}', 'two'), /Duplicate route: GET \/a\/\{y\}/);
    assert.throws(() => r.add('GET', 'a/b', 'x'), /must start with/);
    assert.throws(() => r.add('GET', '/{...rest}/b', 'x'), /must come last/);
    assert.throws(() => r.add('GET', '/a/{x}/{x}', 'x'), /appears twice/);
    assert.throws(() => r.add('GET', '/a//b', 'x'), /Invalid segment/);
  });
});
