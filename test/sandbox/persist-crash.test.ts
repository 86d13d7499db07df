// The data file keeps every write the sandbox acknowledged, whenever the process dies: real
// `ws sandbox start --data` processes are killed with SIGKILL at random moments while six
// clients create and patch records, then started again on the same file; every create
// answered 201 must be there, and every patch answered 200 at least at the version it was
// answered with. Here with an empty store; persist-crash-large.test.ts with 10,000 records
// (bench/sandbox-persist.mjs with 100,000).

import assert from 'node:assert/strict';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import { assertNothingLost, ROUNDS } from './crash-writers.ts';
import { tempDir } from './helpers.ts';

describe('data file under kill -9', () => {
  test(`${ROUNDS} kills of an empty sandbox lose no acknowledged write`, async (t) => {
    const dir = await tempDir(t);
    await assertNothingLost(join(dir, 'sandbox.data'));
  });

  test('temp files of a killed rewrite are removed at start', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.data');
    const first = await startSandbox({ dataFile: file });
    await first.close();
    // A rewrite killed half-way leaves its temp file (named after the dead process).
    await writeFile(join(dir, '.sandbox.data.999999999.a1b2c3d4e5f6.tmp'), '{"format"');
    await writeFile(join(dir, 'unrelated.tmp'), 'kept');
    const second = await startSandbox({ dataFile: file });
    t.after(() => second.close());
    assert.deepEqual((await readdir(dir)).sort(), ['sandbox.data', 'unrelated.tmp']);
  });
});
