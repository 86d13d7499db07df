// The log that carries a key's busy rate-limit places from one command to the next: each
// command appends the places its own requests hold, a reader gets every time still ahead,
// lines appended by commands in parallel are all kept, and the log stays small.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { RateLimiter } from '../../src/api/ratelimit.ts';
import { COMPACT_BYTES, readLimiterFile, writeLimiterFile } from '../../src/api/ratelimit-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'ws-ratelimit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('rate-limit log', () => {
  const now = 1_000_000;

  it('gives back every time still ahead from all lines, none in the past, and skips junk', () => {
    const file = join(dir, 'times.log');
    writeLimiterFile(file, [now + 500, now + 600]);
    writeLimiterFile(file, [now - 1, now + 700.2]);
    // Junk: words that are not 1 to 15 digits (a 16-digit one would be ahead of now).
    writeFileSync(
      file,
      `${readFileSync(file, 'utf8')}garbage -5 1e9 12ab 1234567890123456\t${now + 800}\r\n`,
    );
    assert.deepEqual(
      readLimiterFile(file, now).sort((a, b) => a - b),
      [500, 600, 701, 800].map((t) => now + t),
    );
    assert.deepEqual(readLimiterFile(join(dir, 'missing.log'), now), []);
  });

  it('creates the cache directory and the log at mode 0600', () => {
    const file = join(dir, 'new', 'cache', 'x.log');
    writeLimiterFile(file, [now + 1]);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('a command saves only the places it took, not those it resumed', async () => {
    const file = join(dir, 'own.log');
    const wall = Date.now();
    writeLimiterFile(file, [wall + 800, wall + 900]);
    const limiter = new RateLimiter(10);
    limiter.resume(readLimiterFile(file));
    (await limiter.take())();
    const saved = limiter.saved();
    assert.equal(saved.length, 1, 'one request of its own');
    writeLimiterFile(file, saved);
    assert.equal(readLimiterFile(file).length, 3, 'each place once');
  });

  it('keeps the lines of 20 processes appending at once', async () => {
    const file = join(dir, 'parallel.log');
    const far = Date.now() + 3_600_000;
    const child = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const p = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            '-e',
            `import('${new URL('../../src/api/ratelimit-file.ts', import.meta.url).pathname}').then((m) => { for (let k = 0; k < 10; k++) m.writeLimiterFile(${JSON.stringify(file)}, [${far + i * 100} + k]); })`,
          ],
          { stdio: 'inherit' },
        );
        p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => child(i)));
    const times = readLimiterFile(file);
    assert.equal(times.length, 200);
    assert.equal(new Set(times).size, 200);
  });

  it('past COMPACT_BYTES, a reader rewrites the log with only the times ahead', () => {
    const file = join(dir, 'compact.log');
    const wall = Date.now();
    for (let i = 0; i < 400; i++) writeLimiterFile(file, [wall - 10_000 - i]);
    writeLimiterFile(file, [wall + 60_000]);
    assert.ok(statSync(file).size > COMPACT_BYTES);
    assert.deepEqual(readLimiterFile(file, wall), [wall + 60_000]);
    assert.ok(statSync(file).size < 100, `${statSync(file).size} bytes after`);
    assert.deepEqual(readLimiterFile(file, wall), [wall + 60_000]);
  });
});
