import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError, PartialFailureError, WaitTimeoutError } from '../../src/errors.ts';
import { reportError } from '../../src/report.ts';
import { testIO } from '../helpers/io.ts';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let t: TestSandbox;
let env: Record<string, string>;

before(async () => {
  t = await startTestSandbox();
  env = t.env as Record<string, string>;
});
after(() => t.stop());

describe('the exit-code table', () => {
  it('0 ok, 2 usage, 3 auth, 4 not found, 1 network, from real commands', async () => {
    assert.equal((await runWs(['api', 'GET', '/v2/prism/{teamId}/deal/count'], { env })).code, 0);
    assert.equal((await runWs(['--version'], { env })).code, 0);
    assert.equal((await runWs(['--help'], { env })).code, 0);
    assert.equal((await runWs(['profile', 'list', '--format', 'xml'], { env })).code, 2);
    assert.equal((await runWs(['profile', 'list', '--bogus-flag'], { env })).code, 2);
    assert.equal((await runWs(['no-such-command'], { env })).code, 2);
    assert.equal(
      (
        await runWs(['api', 'GET', '/v2/prism/{teamId}/contact/count'], {
          env: { ...env, WS_API_KEY: 'wsk_bad_000000000000' },
        })
      ).code,
      3,
    );
    assert.equal(
      (await runWs(['api', 'GET', '/v2/prism/{teamId}/nothing/here/at/all'], { env })).code,
      4,
    );
    assert.equal(
      (
        await runWs(['api', 'GET', '/v2/x', '--retries', '0'], {
          env: { ...env, WS_BASE_URL: 'http://127.0.0.1:1' },
        })
      ).code,
      1,
    );
  });

  it('a usage error from the parser is rendered like any other, as JSON with --json', async () => {
    const r = await runWs(['profile', 'list', '--bogus-flag', '--json'], { env });
    assert.equal(r.code, 2);
    assert.deepEqual(JSON.parse(r.stderr), {
      error: {
        status: null,
        code: 'usage',
        message: "Unknown option '--bogus-flag'",
        request_id: null,
        errors: [],
        hint: 'See `ws profile list --help`.',
      },
    });
    const human = await runWs(['no-such-command'], { env });
    assert.match(human.stderr, /^error: Unknown command 'no-such-command'\n/);
  });

  it('5 partial failure and 7 timed out map through the one reporter', () => {
    const a = testIO();
    assert.equal(
      reportError(a.io, new PartialFailureError('2 of 10 items failed.', 2, 10), {
        json: false,
        debug: false,
      }),
      5,
    );
    assert.equal(a.stderr(), 'error: 2 of 10 items failed.\n');
    const b = testIO();
    assert.equal(
      reportError(
        b.io,
        new WaitTimeoutError('The job is still running.', 'Run `ws import status JOB --wait`.'),
        { json: true, debug: false },
      ),
      7,
    );
    assert.deepEqual(JSON.parse(b.stderr()).error.code, 'timeout');
  });

  it('an API error worded as its one field error is said once; other field errors are listed', async () => {
    const body = '{"query":{"select":["name"],"filter":[{"score":{">":"abc"}}]}}';
    const r = await runWs(['api', 'POST', '/v2/prism/{teamId}/contact/query', '--input', '-'], {
      env,
      stdin: body,
    });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^error: query\.filter\[0\]\.score\.>: score is a number; 'abc' is not one\.\nrequest id: req_\w+\n$/,
    );
    const a = testIO();
    reportError(
      a.io,
      new ApiError({
        status: 400,
        message: 'The body is not valid.',
        errors: [
          { field: 'name', message: 'is required' },
          { field: 'type', message: 'is not a type' },
        ],
        method: 'POST',
        url: 'http://x/',
      }),
      { json: false, debug: false },
    );
    assert.equal(
      a.stderr(),
      'error: The body is not valid.\n  - name: is required\n  - type: is not a type\n',
    );
  });

  it('an unexpected error is exit 1 with no stack unless --debug', () => {
    const a = testIO();
    assert.equal(reportError(a.io, new TypeError('boom'), { json: false, debug: false }), 1);
    assert.equal(
      a.stderr(),
      'error: Unexpected error: boom\nRun again with --debug to see where it happened, and please report it.\n',
    );
    const b = testIO();
    reportError(b.io, new TypeError('boom'), { json: false, debug: true });
    assert.match(b.stderr(), /TypeError: boom\n\s+at /);
  });
});

describe('presentation flags', () => {
  it('NO_COLOR, --no-color and FORCE_COLOR decide colour', async () => {
    const coloured = await runWs(['profile', 'list'], {
      env: { ...env, FORCE_COLOR: '1' },
      tty: true,
    });
    assert.match(coloured.stdout, /\u001b\[1m/);
    const noColor = await runWs(['profile', 'list'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    assert.ok(!noColor.stdout.includes('\u001b['));
    const flag = await runWs(['profile', 'list', '--no-color'], {
      env: { ...env, FORCE_COLOR: '1' },
      tty: true,
    });
    assert.ok(!flag.stdout.includes('\u001b['));
    const piped = await runWs(['profile', 'list', '--format', 'table'], { env });
    assert.ok(!piped.stdout.includes('\u001b['), 'no colour when piped');
    const forcedPiped = await runWs(['profile', 'list', '--format', 'table'], {
      env: { ...env, FORCE_COLOR: '1' },
    });
    assert.match(forcedPiped.stdout, /\u001b\[1m/);
  });

  it('--quiet silences informational messages but not data or errors', async () => {
    const r = await runWs(['profile', 'use', 'sandbox', '--quiet'], { env });
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    const loud = await runWs(['profile', 'use', 'sandbox'], { env });
    assert.match(loud.stderr, /is now the default profile/);
    const err = await runWs(['profile', 'use', 'nope', '--quiet'], { env });
    assert.match(err.stderr, /No profile named "nope"/);
  });

  it('global flags work before and after the subcommand', async () => {
    const a = await runWs(['--json', '--fields', 'name', 'profile', 'list'], { env });
    const b = await runWs(['profile', 'list', '--json', '--fields', 'name'], { env });
    const c = await runWs(['profile', '--json', 'list', '--fields=name'], { env });
    assert.equal(a.stdout, '[\n  {\n    "name": "sandbox"\n  }\n]\n');
    assert.equal(b.stdout, a.stdout);
    assert.equal(c.stdout, a.stdout);
  });
});
