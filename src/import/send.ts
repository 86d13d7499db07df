// Sending one chunk of an import and waiting for its outcome.
//
// - One POST per chunk with the chunk's idempotency key. The HTTP client retries network
//   errors, 429, 502, 503 and 504 with that key; here a chunk is tried again (same key)
//   after a 500 or when those retries ran out, so a passing fault does not fail 1,000 rows.
//   A replayed answer is the first answer, so no row is ever created twice.
// - 202: the job is polled, backing off from 250 ms to 5 s, until it is complete or failed.
// - 400 naming objects of the body (`body.objects.3.default...`): those rows fail with the
//   API's message and the others are sent again without them (under a key of their own).

import type { ApiClient } from '../api/client.ts';
import { getImportJob, type ImportJob, importRecords, type RowResult } from '../api/imports.ts';
import type { RecordType } from '../api/object-types.ts';
import { ApiError, NetworkError } from '../errors.ts';
import { sleep } from '../util/time.ts';
import { sha256 } from './keys.ts';

export interface ChunkRequest {
  objectType: RecordType;
  /** Each object's JSON (`{"default":{...}}`). */
  objects: readonly string[];
  /** The options' JSON, or undefined. */
  optionsJson: string | undefined;
  key: string;
  /** The request body when the caller has built it already (bodyOf the same objects). */
  body?: string | undefined;
}

export interface RowOutcome {
  id: string | null;
  status: 'created' | 'updated' | 'existing' | 'failed' | 'pending';
  error: { code: string; message: string } | null;
}

export interface ChunkResult {
  /** One per object, in order. */
  rows: RowOutcome[];
  /** Ids of the asynchronous jobs that carried the chunk. */
  jobs: string[];
}

export interface SendOptions {
  /** Aborts the requests (not the first Ctrl-C: see the import command). */
  signal: AbortSignal;
  /** Told about an asynchronous job as soon as it starts. */
  onJob?: (jobId: string, objects: number) => void;
  /** With false, a 202 is not polled: its rows are reported as `pending`. */
  wait: boolean;
  /** Paces the first poll of asynchronous jobs. */
  pacer?: JobPacer;
}

export function bodyOf(objects: readonly string[], optionsJson: string | undefined): string {
  return `{"objects":[${objects.join(',')}]${optionsJson ? `,"options":${optionsJson}` : ''}}`;
}

function transient(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  return err instanceof ApiError && (err.status >= 500 || err.status === 429);
}

/**
 * A call of the import (a chunk, or the definitions it reads before sending anything), tried
 * again after a 500 or when the client's own retries ran out, with the same idempotency key
 * for a chunk: a passing fault of the service should not fail 1,000 rows, or stop an import
 * before its first row. At most 4 tries, waiting 0.5 s, 1 s, 2 s (with jitter) between them.
 */
export async function withRetries<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!transient(err) || attempt >= 4 || signal?.aborted) throw err;
      await sleep(Math.min(8000, 500 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2), signal);
    }
  }
}

function outcomeOf(r: RowResult | undefined): RowOutcome {
  if (!r)
    return {
      id: null,
      status: 'failed',
      error: { code: 'no_result', message: 'the API gave no result for this row' },
    };
  if (r.error)
    return {
      id: r.id ?? null,
      status: 'failed',
      error: { code: r.error.code, message: r.error.message },
    };
  const status = r.created
    ? 'created'
    : r.updated
      ? 'updated'
      : r.existing
        ? 'existing'
        : 'created';
  return { id: r.id ?? null, status, error: null };
}

/** The body indexes a 400's field errors point at (`body.objects.3...`, `objects[3]`). */
function rejectedObjects(err: ApiError, count: number): Map<number, string> {
  const out = new Map<number, string>();
  for (const e of err.errors) {
    const m = /objects[.[/](\d+)/.exec(e.field);
    if (!m) continue;
    const i = Number(m[1]);
    if (i < count && !out.has(i))
      out.set(i, `${e.field.replace(/^body\.objects[.[/]\d+\]?\.?/, '') || 'row'}: ${e.message}`);
  }
  return out;
}

export async function sendChunk(
  client: ApiClient,
  req: ChunkRequest,
  opts: SendOptions,
): Promise<ChunkResult> {
  try {
    return await withRetries(() => sendOnce(client, req, opts), opts.signal);
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) {
      const rejected = rejectedObjects(err, req.objects.length);
      if (rejected.size > 0 && rejected.size < req.objects.length)
        return resendWithout(client, req, rejected, opts);
      if (rejected.size === req.objects.length) {
        return {
          rows: req.objects.map((_, i) => ({
            id: null,
            status: 'failed',
            error: { code: err.apiCode ?? 'invalid_request', message: rejected.get(i)! },
          })),
          jobs: [],
        };
      }
    }
    throw err;
  }
}

async function resendWithout(
  client: ApiClient,
  req: ChunkRequest,
  rejected: Map<number, string>,
  opts: SendOptions,
): Promise<ChunkResult> {
  const keep = req.objects.map((_, i) => i).filter((i) => !rejected.has(i));
  const sub = await sendChunk(
    client,
    {
      objectType: req.objectType,
      optionsJson: req.optionsJson,
      objects: keep.map((i) => req.objects[i]!),
      key: `ws-import-${sha256(`${req.key}\nwithout ${[...rejected.keys()].join(',')}`)}`,
    },
    opts,
  );
  const rows: RowOutcome[] = req.objects.map((_, i) => ({
    id: null,
    status: 'failed',
    error: { code: 'invalid_request', message: rejected.get(i) ?? '' },
  }));
  keep.forEach((orig, j) => {
    rows[orig] = sub.rows[j]!;
  });
  return { rows, jobs: sub.jobs };
}

async function sendOnce(
  client: ApiClient,
  req: ChunkRequest,
  opts: SendOptions,
): Promise<ChunkResult> {
  const started = await importRecords(
    client,
    req.objectType,
    req.body ?? bodyOf(req.objects, req.optionsJson),
    {
      idempotencyKey: req.key,
      signal: opts.signal,
    },
  );
  let job: ImportJob = started.job as ImportJob;
  const jobs: string[] = [];
  if (job.job_id) {
    jobs.push(job.job_id);
    opts.onJob?.(job.job_id, req.objects.length);
  }
  if (job.status === 'processing') {
    if (!opts.wait) {
      return {
        rows: req.objects.map(() => ({ id: null, status: 'pending', error: null })),
        jobs,
      };
    }
    const n = req.objects.length;
    job = await waitForJob(client, job.job_id!, {
      signal: opts.signal,
      firstDelayMs: opts.pacer?.firstDelay(n) ?? 250,
    });
    opts.pacer?.finished(job);
  }
  if (job.status === 'failed') {
    const error = job.error ?? { code: 'job_failed', message: 'the import job failed' };
    return { rows: req.objects.map(() => ({ id: null, status: 'failed', error })), jobs };
  }
  const byIndex = new Map<number, RowResult>();
  for (const r of job.results ?? []) byIndex.set(r.input_index, r);
  return { rows: req.objects.map((_, i) => outcomeOf(byIndex.get(i))), jobs };
}

/**
 * Poll a job until it is complete or failed, backing off from 250 ms to 5 s. Transient
 * errors while polling are waited out (up to 10 in a row). `deadline` (epoch ms) bounds
 * the wait: past it, the last answer is returned as it is (still processing).
 */
export async function waitForJob(
  client: ApiClient,
  jobId: string,
  opts: {
    signal?: AbortSignal | undefined;
    deadline?: number;
    onPoll?: (job: ImportJob) => void;
    /** Wait before the first poll (default 250 ms). */
    firstDelayMs?: number;
  },
): Promise<ImportJob> {
  let delay = opts.firstDelayMs ?? 250;
  if (delay > 0) await sleep(delay, opts.signal);
  let failures = 0;
  let last: ImportJob | undefined;
  for (;;) {
    try {
      last = await getImportJob(client, jobId, { signal: opts.signal });
      failures = 0;
      opts.onPoll?.(last);
      if (last.status !== 'processing') return last;
    } catch (err) {
      if (!transient(err) || ++failures > 10) throw err;
    }
    if (opts.deadline !== undefined) {
      const left = opts.deadline - Date.now();
      if (left <= 0 && last) return last;
      delay = Math.min(delay, Math.max(left, 0));
    }
    delay = Math.min(5000, Math.max(50, Math.round(delay * 1.6)));
    await sleep(delay, opts.signal);
  }
}

/**
 * When to poll a new job first: after the time the jobs so far took per row on the
 * service's side (from their created_at to their updated_at when complete), times its
 * rows; 250 ms before any job told its time; at least 50 ms, at most 5 s. It saves the
 * polls that would find a job still processing, which count against the rate limit too.
 * The time is the service's own, not how long we waited, so a late poll does not make the
 * next one later still.
 */
export class JobPacer {
  private rows = 0;
  private ms = 0;

  firstDelay(rows: number): number {
    if (this.rows === 0) return 250;
    return Math.min(5000, Math.max(50, Math.round((rows * this.ms) / this.rows)));
  }

  finished(job: ImportJob): void {
    const took = Date.parse(job.updated_at ?? '') - Date.parse(job.created_at ?? '');
    if (job.status !== 'complete' || !Number.isFinite(took) || took < 0 || job.total === 0) return;
    this.rows += job.total;
    this.ms += took;
  }
}
