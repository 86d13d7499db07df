// The API client lives as long as one command: verbs take it from the factory and never
// close it; main() closes it once the verb has returned, thrown or been interrupted, so no
// connection keeps the process alive. A counting transport shows each close.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpTransport } from '../../src/api/node-http.ts';
import { InterruptedError } from '../../src/errors.ts';
import type { Env } from '../../src/io/streams.ts';
import { main } from '../../src/main.ts';
import { testIO } from '../helpers/io.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { startStub } from '../helpers/stub-server.ts';

let t: TestSandbox;

before(async () => {
  t = await startTestSandbox({ seed: 'demo' });
});
after(() => t.stop());

/** The client's one-shot transport, counting how often it is closed. */
function countingAgent(): HttpTransport & { closes: number; closed: boolean } {
  const transport = Object.assign(
    new HttpTransport({ connectTimeoutMs: 10_000, answerTimeoutMs: 30_000 }),
    { closes: 0, closed: false },
  );
  const close = transport.close.bind(transport);
  transport.close = async () => {
    transport.closes++;
    transport.closed = true;
    await close();
  };
  return transport;
}

async function run(
  argv: string[],
  opts: { env?: Env; signal?: AbortSignal } = {},
): Promise<{ code: number; stderr: string; agent: ReturnType<typeof countingAgent> }> {
  const agent = countingAgent();
  const io = testIO();
  const code = await main(argv, {
    io: io.io,
    env: opts.env ?? t.env,
    signal: opts.signal ?? new AbortController().signal,
    clientOverrides: { transport: agent },
  });
  return { code, stderr: io.stderr(), agent };
}

describe('the API client: built on first use, closed by main()', () => {
  it('closes it once after a verb that succeeds', async () => {
    const r = await run(['records', 'count', 'contacts']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.agent.closes, 1);
    assert.equal(r.agent.closed, true);
  });

  it('closes it once after a verb that makes several requests (definitions, then pages)', async () => {
    const r = await run(['records', 'list', 'contacts', '--where', 'name~a', '--all']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.agent.closes, 1);
  });

  it('closes it after a verb that throws (404: exit 4)', async () => {
    const r = await run(['records', 'get', 'contact', '7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a']);
    assert.equal(r.code, 4, r.stderr);
    assert.equal(r.agent.closes, 1);
    assert.equal(r.agent.closed, true);
  });

  it('closes it after a verb stopped by Ctrl-C in the middle of a request (exit 130)', async () => {
    const controller = new AbortController();
    const stub = await startStub(() => {
      // The request has arrived: Ctrl-C before the answer is written.
      controller.abort(new InterruptedError('Interrupted.'));
      return { status: 200, body: { total: 1 } };
    });
    try {
      const r = await run(['records', 'count', 'contacts'], {
        env: {
          WS_CONFIG_DIR: t.configDir,
          WS_BASE_URL: stub.url,
          WS_API_KEY: 'wsk_stub_key_0123456789',
          WS_TEAM_ID: t.sandbox.teamId,
        },
        signal: controller.signal,
      });
      assert.equal(r.code, 130, r.stderr);
      assert.equal(stub.requests.length, 1);
      assert.equal(r.agent.closes, 1);
      assert.equal(r.agent.closed, true);
    } finally {
      await stub.close();
    }
  });

  it('builds none for a verb that sends no request', async () => {
    const r = await run(['profile', 'list']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.agent.closes, 0);
  });
});
