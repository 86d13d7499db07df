// The file that carries a key's busy rate-limit places from one command to the next: a place
// a command read from the file and saves back counts once (else every command run in a row
// would add the earlier ones again, and a script's tenth command would wait a second for
// requests never sent); places saved by commands run in parallel are all kept.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readLimiterFile, writeLimiterFile } from '../../src/api/ratelimit-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'ws-ratelimit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('rate-limit file', () => {
  const now = 1_000_000;

  it('keeps a resumed place once when it is saved back with a new one', async () => {
    const file = join(dir, 'resumed.json');
    await writeLimiterFile(file, [now + 500, now + 600], 10, now);
    // The next command resumed from those two and made one request of its own.
    for (let i = 0; i < 5; i++) {
      const resumed = readLimiterFile(file);
      await writeLimiterFile(file, [...resumed, now + 700 + i], 10, now);
    }
    assert.deepEqual(
      readLimiterFile(file).sort((a, b) => a - b),
      [500, 600, 700, 701, 702, 703, 704].map((t) => now + t),
    );
  });

  it('keeps the places of commands saved in parallel, and equal times as often as either list holds them', async () => {
    const file = join(dir, 'parallel.json');
    await writeLimiterFile(file, [now + 100, now + 100], 10, now);
    await writeLimiterFile(file, [now + 100, now + 200], 10, now);
    assert.deepEqual(
      readLimiterFile(file).sort((a, b) => a - b),
      [now + 100, now + 100, now + 200],
    );
  });

  it('keeps at most the given number of places, the latest, and none in the past', async () => {
    const file = join(dir, 'bounded.json');
    await writeLimiterFile(file, [now - 1, now + 1, now + 2, now + 3], 2, now);
    assert.deepEqual(readLimiterFile(file), [now + 3, now + 2]);
  });
});
