import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type ChunkContext, runChunks, type SentItem } from '../../src/bulk/chunks.ts';
import { failureLines, writeReport } from '../../src/bulk/report.ts';
import { ApiError, AuthError, NetworkError } from '../../src/errors.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);
const okAll = (chunk: readonly string[]): SentItem[] =>
  chunk.map((id) => ({ id, status: 'ok' as const }));
const noWait = async () => {};
const apiError = (status: number, code: string) =>
  new ApiError({ status, code, message: `${code} happened`, method: 'POST', url: 'http://x/' });

describe('runChunks', () => {
  it('sends chunks of 100 and answers one result per item, in input order', async () => {
    const sizes: number[] = [];
    const run = await runChunks({
      items: ids(1000),
      send: async (chunk) => {
        sizes.push(chunk.length);
        return okAll(chunk);
      },
    });
    assert.deepEqual(sizes, Array(10).fill(100));
    assert.equal(run.calls, 10);
    assert.equal(run.succeeded, 1000);
    assert.equal(run.failed, 0);
    assert.deepEqual(
      run.results.map((r) => r.index),
      Array.from({ length: 1000 }, (_, i) => i),
    );
    assert.deepEqual(run.results[999], { index: 999, id: 'id-999', status: 'ok' });
  });

  it('keeps at most `concurrency` chunks in flight, and uses them', async () => {
    let inFlight = 0;
    let peak = 0;
    await runChunks({
      items: ids(1000),
      concurrency: 3,
      send: async (chunk) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return okAll(chunk);
      },
    });
    assert.equal(peak, 3);
  });

  it('sends a chunk that failed as a whole again with the same idempotency key', async () => {
    const seen: ChunkContext[] = [];
    let failures = 2;
    const run = await runChunks({
      items: ids(150),
      concurrency: 1,
      backoff: noWait,
      send: async (chunk, ctx) => {
        seen.push(ctx);
        if (ctx.chunk === 0 && failures-- > 0)
          throw failures === 1 ? apiError(500, 'internal_error') : new NetworkError('reset');
        return okAll(chunk);
      },
    });
    assert.equal(run.succeeded, 150);
    assert.deepEqual(
      seen.map((c) => [c.chunk, c.attempt]),
      [
        [0, 1],
        [0, 2],
        [0, 3],
        [1, 1],
      ],
    );
    assert.equal(new Set(seen.filter((c) => c.chunk === 0).map((c) => c.idempotencyKey)).size, 1);
    assert.notEqual(seen[0]!.idempotencyKey, seen[3]!.idempotencyKey);
  });

  it('marks every item of a chunk that keeps failing, and goes on with the others', async () => {
    const progress: number[] = [];
    const run = await runChunks({
      items: ids(250),
      concurrency: 1,
      retries: 1,
      backoff: noWait,
      idOf: (id) => id,
      onProgress: (p) => progress.push(p.done),
      send: async (chunk, ctx) => {
        if (ctx.chunk === 1) throw apiError(503, 'service_unavailable');
        if (ctx.chunk === 2) throw apiError(422, 'unprocessable');
        return chunk.map((id, i) =>
          i === 0
            ? { id, status: 'error' as const, error: { code: 'not_found', message: 'gone' } }
            : { id, status: 'ok' as const },
        );
      },
    });
    assert.equal(run.calls, 4); // chunk 1 twice (one retry), the 422 once
    assert.equal(run.failed, 1 + 100 + 50);
    assert.equal(run.succeeded, 99);
    assert.deepEqual(run.results[0], {
      index: 0,
      id: 'id-0',
      status: 'error',
      error: { code: 'not_found', message: 'gone' },
    });
    assert.deepEqual(run.results[100], {
      index: 100,
      id: 'id-100',
      status: 'error',
      error: { code: 'service_unavailable', message: 'service_unavailable happened' },
    });
    assert.equal(run.results[200]!.error!.code, 'unprocessable');
    assert.deepEqual(progress, [100, 200, 250]);
  });

  it('stops at an error no retry can fix and keeps the results so far', async () => {
    const run = await runChunks({
      items: ids(500),
      concurrency: 1,
      send: async (chunk, ctx) => {
        if (ctx.chunk === 2) throw new AuthError('key revoked');
        return okAll(chunk);
      },
    });
    assert.ok(run.stopped instanceof AuthError);
    assert.equal(run.results.length, 200);
    assert.equal(run.notAttempted, 300);
    assert.equal(run.calls, 3);
  });

  it('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    const run = await runChunks({
      items: ids(500),
      concurrency: 1,
      signal: controller.signal,
      send: async (chunk, ctx) => {
        if (ctx.chunk === 1) {
          controller.abort(new Error('interrupted'));
          const e = new Error('aborted');
          e.name = 'AbortError';
          throw e;
        }
        return okAll(chunk);
      },
    });
    assert.equal((run.stopped as Error).message, 'interrupted');
    assert.equal(run.results.length, 100);
  });

  it('reports an item the service gave no result for', async () => {
    const run = await runChunks({
      items: ids(3),
      idOf: (id) => id,
      send: async (chunk) => okAll(chunk.slice(0, 2)),
    });
    assert.equal(run.results[2]!.status, 'error');
    assert.equal(run.results[2]!.error!.code, 'no_result');
  });
});

describe('reports', () => {
  const results = Array.from({ length: 25 }, (_, i) => ({
    index: i,
    id: i === 3 ? null : `id-${i}`,
    status: i % 2 === 0 ? ('ok' as const) : ('error' as const),
    ...(i % 2 === 0 ? {} : { error: { code: 'not_found', message: `no record ${i}` } }),
  }));

  it('lists failed items as an aligned table, capped, saying how many more', () => {
    const lines = failureLines(results, { max: 3 });
    assert.deepEqual(lines, [
      '  ID        CODE       MESSAGE',
      '  id-1      not_found  no record 1',
      '  (item 4)  not_found  no record 3',
      '  id-5      not_found  no record 5',
      '  … and 9 more, see --report FILE for every result',
    ]);
    assert.equal(
      failureLines(results, { max: 3, reportPath: 'r.ndjson' }).at(-1),
      '  … and 9 more, see r.ndjson',
    );
    assert.deepEqual(failureLines(results.filter((r) => r.status === 'ok')), []);
  });

  it('writes every result as NDJSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ws-report-'));
    try {
      const file = join(dir, 'report.ndjson');
      await writeReport(file, results.slice(0, 2));
      assert.equal(
        readFileSync(file, 'utf8'),
        '{"index":0,"id":"id-0","status":"ok"}\n' +
          '{"index":1,"id":"id-1","status":"error","error":{"code":"not_found","message":"no record 1"}}\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
