import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox, writeProfiles } from '../helpers/sandbox.ts';
import { type Stub, type StubAnswer, startStub } from '../helpers/stub-server.ts';

let t: TestSandbox;
let env: Record<string, string>;
const COUNT = '/v2/prism/{teamId}/contact/count';

before(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  env = t.env as Record<string, string>;
});
after(() => t.stop());

/** A stub service with profile "stub" as the default. */
async function withStub(
  answer: (req: { method: string; url: string; body: string }, i: number) => StubAnswer,
  fn: (stub: Stub, env: Record<string, string>) => Promise<void>,
) {
  const stub = await startStub(answer);
  writeProfiles(
    t.configDir,
    {
      sandbox: {
        base_url: t.sandbox.url,
        team_id: t.sandbox.teamId,
        api_key: t.sandbox.apiKey,
        rate_limit: 0,
      },
      stub: {
        base_url: stub.url,
        team_id: t.sandbox.teamId,
        api_key: 'wsk_stub_key_0123456789',
        rate_limit: 0,
      },
    },
    'sandbox',
  );
  try {
    await fn(stub, { ...env, WS_PROFILE: 'stub' });
  } finally {
    await stub.close();
  }
}

describe('ws api', () => {
  it("sends a GET with the profile's key and fills in {teamId}", async () => {
    const r = await runWs(['api', 'GET', COUNT], { env });
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.equal(typeof body.total, 'number');
    assert.ok(body.total > 0, 'the demo seed has contacts');
  });

  it('-i prints the status line and headers before the body', async () => {
    const r = await runWs(['api', 'GET', COUNT, '-i'], { env });
    assert.equal(r.code, 0);
    const [head, body] = r.stdout.split('\n\n');
    assert.match(head!, /^HTTP\/1\.1 200 OK\n/);
    assert.match(head!, /\nx-request-id: req_[0-9a-f]{24}/);
    assert.match(head!, /\ncontent-type: application\/json/);
    assert.equal(typeof JSON.parse(body!).total, 'number');
  });

  it('a 404 prints the error on stderr and exits 4; --json makes it one JSON object', async () => {
    const r = await runWs(['api', 'GET', '/v2/prism/{teamId}/planet/count'], { env });
    assert.equal(r.code, 4);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: .*planet/);
    assert.match(r.stderr, /request id: req_/);
    const j = await runWs(['api', 'GET', '/v2/prism/{teamId}/planet/count', '--json'], { env });
    assert.equal(j.code, 4);
    assert.equal(j.stdout, '');
    const lines = j.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1);
    const err = JSON.parse(lines[0]!).error;
    assert.deepEqual(Object.keys(err), [
      'status',
      'code',
      'message',
      'request_id',
      'errors',
      'hint',
    ]);
    assert.equal(err.status, 404);
    assert.equal(err.code, 'not_found');
    assert.match(err.request_id, /^req_/);
  });

  it('a 400 with field errors lists them and exits 2', async () => {
    const body = {
      error: {
        code: 'invalid_request',
        message: 'The request is not valid.',
        request_id: 'req_stub_1',
        errors: [{ field: 'query.limit', message: 'must be at most 50', code: 'maximum' }],
      },
    };
    await withStub(
      () => ({ status: 400, body }),
      async (_stub, senv) => {
        const r = await runWs(
          ['api', 'POST', '/v2/prism/{teamId}/contact/query', '-F', 'query[limit]=51'],
          { env: senv },
        );
        assert.equal(r.code, 2, r.stderr);
        assert.equal(
          r.stderr,
          'error: The request is not valid.\n  - query.limit: must be at most 50\nrequest id: req_stub_1\n',
        );
      },
    );
  });

  it('-f still sends a field, with a warning on stderr that names -F', async () => {
    await withStub(
      () => ({ status: 200, body: { ok: true } }),
      async (stub, senv) => {
        const r = await runWs(['api', 'POST', '/v2/x', '-f', 'n=1'], { env: senv });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(
          r.stderr,
          'warning: -f is the old short flag of --field in `ws api`; use -F (-f means --file everywhere else in ws, and will here too).\n',
        );
        assert.deepEqual(JSON.parse(stub.requests[0]!.body), { n: 1 });
      },
    );
  });

  it('sends typed -F fields as a JSON body and -H headers, with an Idempotency-Key', async () => {
    await withStub(
      () => ({ status: 201, body: { id: 'x' } }),
      async (stub, senv) => {
        const r = await runWs(
          [
            'api',
            'POST',
            '/v2/prism/{teamId}/contact',
            '-F',
            'default[name]=Ada',
            '-F',
            'default[age]=36',
            '-F',
            'default[vip]=true',
            '-H',
            'X-Trace: 1',
          ],
          { env: senv },
        );
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(JSON.parse(r.stdout), { id: 'x' });
        const req = stub.requests[0]!;
        assert.equal(req.url, `/v2/prism/${t.sandbox.teamId}/contact`);
        assert.deepEqual(JSON.parse(req.body), { default: { name: 'Ada', age: 36, vip: true } });
        assert.equal(req.headers['x-trace'], '1');
        assert.equal(req.headers['content-type'], 'application/json');
        assert.match(String(req.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
      },
    );
  });

  it('--input sends a file (or stdin) as the body, and --idempotency-key sets the key', async () => {
    await withStub(
      () => ({ status: 200, body: {} }),
      async (stub, senv) => {
        const r = await runWs(
          ['api', 'PATCH', '/v2/x', '--input', '-', '--idempotency-key', 'my-key-1'],
          {
            env: senv,
            stdin: '{"default":{"name":"Grace"}}',
          },
        );
        assert.equal(r.code, 0, r.stderr);
        assert.equal(stub.requests[0]!.body, '{"default":{"name":"Grace"}}');
        assert.equal(stub.requests[0]!.headers['idempotency-key'], 'my-key-1');
        const missing = await runWs(['api', 'POST', '/v2/x', '--input', '/nonexistent/body.json'], {
          env: senv,
        });
        assert.equal(missing.code, 2);
        assert.match(missing.stderr, /Cannot read --input \/nonexistent\/body\.json: no such file/);
      },
    );
  });

  it('--paginate follows next_cursor on GET (query) and POST (body) and merges the pages', async () => {
    const pages: Record<string, { data: unknown[]; next_cursor: string | null }> = {
      '': { data: [{ id: 1 }, { id: 2 }], next_cursor: 'c2' },
      c2: { data: [{ id: 3 }], next_cursor: 'c3' },
      c3: { data: [{ id: 4 }], next_cursor: null },
    };
    await withStub(
      (req) => {
        const cursor =
          req.method === 'GET'
            ? (new URL(req.url, 'http://x').searchParams.get('cursor') ?? '')
            : (JSON.parse(req.body).cursor ?? '');
        return {
          status: 200,
          body: { ...pages[cursor]!, has_more: pages[cursor]!.next_cursor !== null },
        };
      },
      async (stub, senv) => {
        const get = await runWs(
          ['api', 'GET', '/v2/prism/{teamId}/contact', '--paginate', '-F', 'limit=2'],
          { env: senv },
        );
        assert.equal(get.code, 0, get.stderr);
        assert.deepEqual(JSON.parse(get.stdout), [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
        assert.deepEqual(
          stub.requests.map((r) => r.url.replace(/^.*\?/, '')),
          ['limit=2', 'limit=2&cursor=c2', 'limit=2&cursor=c3'],
        );

        const post = await runWs(
          [
            'api',
            'POST',
            '/v2/prism/{teamId}/contact/query',
            '--paginate',
            '-F',
            'query[select][]=name',
            '--format',
            'ndjson',
          ],
          { env: senv },
        );
        assert.equal(post.code, 0, post.stderr);
        assert.equal(post.stdout, '{"id":1}\n{"id":2}\n{"id":3}\n{"id":4}\n');
        const bodies = stub.requests.slice(3).map((r) => JSON.parse(r.body));
        assert.deepEqual(bodies, [
          { query: { select: ['name'] } },
          { query: { select: ['name'] }, cursor: 'c2' },
          { query: { select: ['name'] }, cursor: 'c3' },
        ]);
        const keys = new Set(stub.requests.slice(3).map((r) => r.headers['idempotency-key']));
        assert.equal(keys.size, 3, 'each page is its own operation');

        assert.equal(get.stderr, 'Fetching page 1…\n4 items in 3 pages.\n');
        const last = await runWs(
          ['api', 'GET', '/v2/prism/{teamId}/contact', '--paginate', '-F', 'cursor=c3'],
          { env: senv },
        );
        assert.equal(last.code, 0, last.stderr);
        assert.equal(last.stderr, 'Fetching page 1…\n1 item in 1 page.\n');
      },
    );
  });

  it('refuses bad usage before sending anything', async () => {
    for (const argv of [
      ['api', 'FETCH', COUNT],
      ['api', 'GET', 'https://elsewhere.example/v2'],
      ['api', 'GET', COUNT, '-H', 'x-api-key: abc'],
      ['api', 'GET', COUNT, '--paginate', '-i'],
      ['api', 'GET', COUNT, '--fields', 'total'],
      ['api', 'GET'],
    ]) {
      const r = await runWs(argv, { env });
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
    }
  });
});

describe('error bodies of every form', () => {
  it('the v2 body, the older { message } body and a non-JSON page all render cleanly', async () => {
    const answers: Record<string, StubAnswer> = {
      a: {
        status: 409,
        body: {
          error: {
            code: 'idempotency_key_mismatch',
            message: 'Key reused with another body',
            request_id: 'req_a',
          },
        },
      },
      b: { status: 404, body: { message: 'Not Found' } },
      c: {
        status: 500,
        body: '<html><body><h1>500 Internal Server Error</h1><p>nginx</p></body></html>',
      },
      d: {
        status: 412,
        body: { error: { code: 'precondition_failed', message: 'The record changed' } },
      },
    };
    const asked: string[] = [];
    await withStub(
      (r) => {
        const path = r.url.split('/').pop()!;
        asked.push(path);
        return answers[path]!;
      },
      async (_stub, senv) => {
        const a = await runWs(['api', 'GET', '/v2/a', '--json'], { env: senv });
        assert.equal(a.code, 6);
        assert.deepEqual(JSON.parse(a.stderr).error, {
          status: 409,
          code: 'idempotency_key_mismatch',
          message: 'Key reused with another body',
          request_id: 'req_stub_1',
          errors: [],
          hint: null,
        });
        const b = await runWs(['api', 'GET', '/v2/b'], { env: senv });
        assert.equal(b.code, 4);
        assert.equal(b.stderr, 'error: Not Found\nrequest id: req_stub_2\n');
        const c = await runWs(['api', 'GET', '/v2/c'], { env: senv, fastRetries: true });
        assert.equal(c.code, 1);
        // A 500 is sent again (--retries, default 3) before it is reported.
        assert.equal(asked.filter((p) => p === 'c').length, 4);
        assert.match(
          c.stderr,
          /^error: HTTP 500 Internal Server Error: 500 Internal Server Error nginx\n/,
        );
        assert.ok(!c.stderr.includes('<html>'));
        assert.ok(!/\n\s+at /.test(c.stderr), 'no stack trace');
        const d = await runWs(['api', 'GET', '/v2/d'], { env: senv });
        assert.equal(d.code, 6);
        assert.match(d.stderr, /The record changed/);
      },
    );
  });

  it("explains the webhook routes' gateway 403 (a sandbox started with the preview option)", async () => {
    const preview = await startTestSandbox({ webhooks: { preview: true } });
    let r: Awaited<ReturnType<typeof runWs>>;
    try {
      r = await runWs(['api', 'GET', '/v2/webhooks/{teamId}', '--json'], { env: preview.env });
    } finally {
      await preview.stop();
    }
    assert.equal(r.code, 1);
    const err = JSON.parse(r.stderr).error;
    assert.equal(err.status, 403);
    assert.equal(err.code, 'webhooks_unavailable');
    assert.match(err.message, /^Webhook routes are not yet available on this service/);
  });
});
