// The data file keeps every write the sandbox acknowledged when a large sandbox is killed:
// as persist-crash.test.ts, with 10,000 records in the store before the first kill (a file
// of its own, so the two run side by side).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { assertNothingLost, ROUNDS } from './crash-writers.ts';
import { tempDir } from './helpers.ts';

describe('data file of a large sandbox under kill -9', () => {
  test(`${ROUNDS} kills of a sandbox of 10,000 records lose no acknowledged write`, async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.data');
    const filled = await startSandbox({ dataFile: file });
    for (let i = 0; i < 10_000; i++) {
      recordsOf(filled.store).create('contact', { default: { name: `Contact ${i}` } });
    }
    await filled.close();
    await assertNothingLost(file);
    const again = await startSandbox({ dataFile: file });
    t.after(() => again.close());
    assert.ok(recordsOf(again.store).count('contact') >= 10_000);
  });
});
