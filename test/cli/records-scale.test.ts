// `ws records list contacts --all --format ndjson` over 20,000 records: every id once, in
// the minimum of requests (400 pages of 50), written as pages arrive (the output is already
// there when the last page is asked for, so memory does not grow with the result; the
// figures are in bench/records.mjs).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/main.ts';
import { recordsOf } from '../../src/sandbox/index.ts';
import { testIO } from '../helpers/io.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const N = 20_000;
let t: TestSandbox;
const requests: string[] = [];
let onRequest: () => void = () => {};

before(async () => {
  t = await startTestSandbox({
    log: (line) => {
      requests.push(line);
      onRequest();
    },
  });
  const model = recordsOf(t.sandbox.store);
  for (let i = 0; i < N; i++)
    model.create('contact', { default: { name: `Contact ${i}`, email: `c${i}@example.com` } });
});
after(() => t.stop());

describe('ws records list --all at scale', () => {
  it('prints 20,000 distinct ids in 400 requests, streaming each page as it arrives', async () => {
    const io = testIO({ tty: false });
    let linesWhenLastPageAsked = -1;
    onRequest = () => {
      // The sandbox logs a request when it answers; the 400th is the last page.
      if (requests.length === 400) linesWhenLastPageAsked = io.stdout().split('\n').length - 1;
    };
    const code = await main(['records', 'list', 'contacts', '--all', '--format', 'ndjson'], {
      io: io.io,
      env: { ...t.env, NO_COLOR: '1' },
      signal: new AbortController().signal,
    });
    onRequest = () => {};
    assert.equal(code, 0, io.stderr());
    const lines = io.stdout().trimEnd().split('\n');
    assert.equal(lines.length, N);
    const ids = new Set(lines.map((l) => JSON.parse(l).id as string));
    assert.equal(ids.size, N);
    assert.equal(requests.length, 400);
    assert.ok(
      requests.every((l) => /^GET \/v2\/prism\/[^/]+\/contact 200 /.test(l)),
      'only list pages',
    );
    // 399 pages were already on stdout when the 400th was answered.
    assert.equal(linesWhenLastPageAsked, 399 * 50);
    assert.equal(io.stderr(), '');
  });
});
