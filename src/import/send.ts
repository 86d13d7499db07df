// Sending one chunk of an import and waiting for its outcome.
//
// - One POST per chunk with the chunk's idempotency key. The HTTP client retries network
//   errors, 429, 502, 503 and 504 with that key; here a chunk is tried again (same key)
//   after a 500 or when those retries ran out, so a passing fault does not fail a chunk.
//   A replayed answer is the first answer, so no row is ever created twice.
// - 202: the job is polled until it is complete or failed, when its result can be there
//   (JobPacer: after the job ahead of it, at the pace the service has shown).
// - 400 naming objects of the body (`body.objects.3.default...`): those rows fail with the
//   API's message and the others are sent again without them (under a key of their own).
// - 413 (the body is larger than the service takes): the chunk is sent again as two halves,
//   each under a key of its own, down to single rows; a row the service refuses alone fails
//   with payload_too_large. The same chunk splits the same way again on --resume.
// - 409 idempotency_key_stale (the same chunk was sent more than 24 hours ago): with
//   --dedupe-by, sent again under a renewed key; without it, the engine stops (engine.ts).

import type { ApiClient } from '../api/client.ts';
import { getImportJob, type ImportJob, importRecords, type RowResult } from '../api/imports.ts';
import type { RecordType } from '../api/object-types.ts';
import { ApiError, NetworkError } from '../errors.ts';
import { monotonicMs, sleep } from '../util/time.ts';
import { partKey } from './keys.ts';

/** Each object's JSON (`{"default":{...}}`), by index: an array, or a chunk's ByteList. */
export interface ObjectList {
  readonly length: number;
  at(index: number): string | undefined;
}

export interface ChunkRequest {
  objectType: RecordType;
  objects: ObjectList;
  /** The options' JSON, or undefined. */
  optionsJson: string | undefined;
  key: string;
  /** The request body when the caller has built it already (bodyOf the same objects). */
  body?: string | Buffer | undefined;
}

export interface RowOutcome {
  id: string | null;
  status: 'created' | 'updated' | 'existing' | 'failed' | 'pending';
  error: { code: string; message: string } | null;
}

/**
 * The outcomes of a chunk's objects by index: an array, or read from the job's results as
 * they are asked for (a chunk's answers wait there until the chunks before it are written,
 * and one object per row would be held all that time).
 */
export interface Outcomes {
  readonly length: number;
  at(index: number): RowOutcome | undefined;
}

/** `count` times the same outcome. */
export function sameOutcome(count: number, outcome: RowOutcome): Outcomes {
  return { length: count, at: (i) => (i >= 0 && i < count ? outcome : undefined) };
}

/** The outcomes in a job's results (by input_index, which is the index in them as a rule). */
function jobOutcomes(count: number, results: readonly RowResult[]): Outcomes {
  let byIndex: Map<number, RowResult> | undefined;
  const find = (i: number): RowResult | undefined => {
    const r = results[i];
    if (r?.input_index === i) return r;
    byIndex ??= new Map(results.map((x) => [x.input_index, x]));
    return byIndex.get(i);
  };
  return { length: count, at: (i) => (i >= 0 && i < count ? outcomeOf(find(i)) : undefined) };
}

export interface ChunkResult {
  /** One per object, in order. */
  rows: Outcomes;
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
  /** What the import learnt of the service's body limit, shared by its chunks. */
  limit?: BodyLimit;
  /** Renews a stale key (409 idempotency_key_stale) with this; undefined: the 409 is thrown. */
  renewStale?: string | undefined;
}

/**
 * The smallest body (bytes) the service refused with 413 so far: a body as large is split
 * before it is sent, instead of being refused again (the service's limit is not documented).
 */
export interface BodyLimit {
  refused: number;
}

export function bodyOf(objects: readonly string[], optionsJson: string | undefined): string {
  return `{"objects":[${objects.join(',')}${bodySuffix(optionsJson)}`;
}

/** What follows the objects in an import body. */
export function bodySuffix(optionsJson: string | undefined): string {
  return `]${optionsJson ? `,"options":${optionsJson}` : ''}}`;
}

/** One value per object of `objects`. */
function each<T>(objects: ObjectList, value: (index: number) => T): T[] {
  return Array.from({ length: objects.length }, (_, i) => value(i));
}

/** 409 idempotency_key_stale: the key was sent more than 24 hours ago and its answer is gone. */
export function isStaleKey(err: unknown): boolean {
  return err instanceof ApiError && err.status === 409 && err.apiCode === 'idempotency_key_stale';
}

function transient(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  return err instanceof ApiError && (err.status >= 500 || err.status === 429);
}

/**
 * A call of the import (a chunk, or the definitions it reads before sending anything), tried
 * again after a 500 or when the client's own retries ran out, with the same idempotency key
 * for a chunk: a passing fault of the service should not fail a chunk of rows, or stop an
 * import before its first row. At most 4 tries, waiting 0.5 s, 1 s, 2 s (with jitter) between them.
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
  const body =
    req.body ??
    bodyOf(
      each(req.objects, (i) => req.objects.at(i)!),
      req.optionsJson,
    );
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (opts.limit && bytes >= opts.limit.refused && req.objects.length > 1)
    return split(client, req, undefined, opts);
  try {
    return await withRetries(() => sendOnce(client, { ...req, body }, opts), opts.signal);
  } catch (err) {
    if (isStaleKey(err) && opts.renewStale !== undefined) {
      const key = partKey(req.key, `renewed ${opts.renewStale}`);
      return sendChunk(client, { ...req, key }, { ...opts, renewStale: undefined });
    }
    if (err instanceof ApiError && err.status === 413) {
      if (opts.limit) opts.limit.refused = Math.min(opts.limit.refused, bytes);
      return split(client, req, err, opts);
    }
    if (err instanceof ApiError && err.status === 400) {
      const rejected = rejectedObjects(err, req.objects.length);
      if (rejected.size > 0 && rejected.size < req.objects.length)
        return resendWithout(client, req, rejected, opts);
      if (rejected.size === req.objects.length) {
        return {
          rows: each(req.objects, (i) => ({
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

/**
 * A chunk too large for the service (its 413 `err`, or larger than a body it refused), sent
 * again as two halves; a single row it refuses fails.
 */
async function split(
  client: ApiClient,
  req: ChunkRequest,
  err: ApiError | undefined,
  opts: SendOptions,
): Promise<ChunkResult> {
  const count = req.objects.length;
  if (count <= 1 && err) {
    return {
      rows: each(req.objects, () => ({
        id: null,
        status: 'failed',
        error: {
          code: err.apiCode ?? 'payload_too_large',
          message: `too large for the service even alone in a request: shorten its longest value (${err.status}: ${err.message})`,
        },
      })),
      jobs: [],
    };
  }
  const half = Math.ceil(count / 2);
  const parts: ChunkResult[] = [];
  for (const [from, to] of [
    [0, half],
    [half, count],
  ] as const) {
    const objects: string[] = [];
    for (let i = from; i < to; i++) objects.push(req.objects.at(i)!);
    parts.push(
      await sendChunk(
        client,
        {
          objectType: req.objectType,
          optionsJson: req.optionsJson,
          objects,
          key: partKey(req.key, `objects ${from}-${to}`),
        },
        opts,
      ),
    );
  }
  const rows: RowOutcome[] = [];
  for (const part of parts) for (let i = 0; i < part.rows.length; i++) rows.push(part.rows.at(i)!);
  return { rows, jobs: parts.flatMap((p) => p.jobs) };
}

async function resendWithout(
  client: ApiClient,
  req: ChunkRequest,
  rejected: Map<number, string>,
  opts: SendOptions,
): Promise<ChunkResult> {
  const keep = each(req.objects, (i) => i).filter((i) => !rejected.has(i));
  const sub = await sendChunk(
    client,
    {
      objectType: req.objectType,
      optionsJson: req.optionsJson,
      objects: keep.map((i) => req.objects.at(i)!),
      key: partKey(req.key, `without ${[...rejected.keys()].join(',')}`),
    },
    opts,
  );
  const rows: RowOutcome[] = each(req.objects, (i) => ({
    id: null,
    status: 'failed',
    error: { code: 'invalid_request', message: rejected.get(i) ?? '' },
  }));
  keep.forEach((orig, j) => {
    rows[orig] = sub.rows.at(j)!;
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
    req.body ??
      bodyOf(
        each(req.objects, (i) => req.objects.at(i)!),
        req.optionsJson,
      ),
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
        rows: sameOutcome(req.objects.length, { id: null, status: 'pending', error: null }),
        jobs,
      };
    }
    job = await (opts.pacer ?? new JobPacer()).wait(client, job, opts.signal);
  }
  if (job.status === 'failed') {
    const error = job.error ?? { code: 'job_failed', message: 'the import job failed' };
    return { rows: sameOutcome(req.objects.length, { id: null, status: 'failed', error }), jobs };
  }
  return { rows: jobOutcomes(req.objects.length, job.results ?? []), jobs };
}

/**
 * Poll a job until it is complete or failed: first after `firstDelayMs` (default 250 ms),
 * then after the time `nextDelayMs` gives for an answer still processing (default: backing
 * off 1.6 times, from 50 ms to 5 s). Transient errors while polling are waited out (up to
 * 10 in a row). `deadline` (epoch ms) bounds the wait: past it, the last answer is returned
 * as it is (still processing).
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
    /** Wait before the next poll after `job` answered still processing; `backoff` by default. */
    nextDelayMs?: (job: ImportJob, backoff: number) => number;
  },
): Promise<ImportJob> {
  let delay = opts.firstDelayMs ?? 250;
  if (delay > 0) await sleep(delay, opts.signal);
  let failures = 0;
  let last: ImportJob | undefined;
  for (;;) {
    let next: number;
    const backoff = Math.min(MAX_POLL_DELAY, Math.max(MIN_POLL_DELAY, Math.round(delay * 1.6)));
    try {
      last = await getImportJob(client, jobId, { signal: opts.signal });
      failures = 0;
      opts.onPoll?.(last);
      if (last.status !== 'processing') return last;
      next = opts.nextDelayMs?.(last, backoff) ?? backoff;
    } catch (err) {
      if (!transient(err) || ++failures > 10) throw err;
      next = backoff;
    }
    if (opts.deadline !== undefined) {
      const left = opts.deadline - Date.now();
      if (left <= 0 && last) return last;
      next = Math.min(next, Math.max(left, 0));
    }
    delay = next;
    await sleep(delay, opts.signal);
  }
}

const MIN_POLL_DELAY = 50;
const MAX_POLL_DELAY = 5000;

/** Milliseconds between two times of the service (ISO strings), or NaN. */
type Stamp = string | null | undefined;

function between(from: Stamp, to: Stamp): number {
  return Date.parse(to ?? '') - Date.parse(from ?? '');
}

/**
 * When to poll the jobs of an import, so that a poll finds its job finished: each poll
 * counts against the rate limit (10 requests a second on the hosted service) as much as an
 * import call does, and a poll that finds the job still processing is a request lost.
 *
 * - A job is polled only after the job started before it has ended: the service works
 *   through an API key's jobs in the order they came (the sandbox does), so a job cannot be
 *   finished before the one ahead of it. While jobs are ahead, nothing is asked.
 * - Then it is polled when its rows should be done at the pace the service worked so far:
 *   milliseconds per row, from the service's own times of the jobs that finished (created_at
 *   or the end of the job ahead, whichever is later, to updated_at), so neither the wait
 *   behind other jobs nor a late poll of ours counts as work. 250 ms before any job finished.
 * - An answer still processing tells how many rows are done: the next poll comes when the
 *   rest should be (at the pace so far, or this job's own), or backs off when none is done.
 * Delays stay between 50 ms and 5 s.
 */
export class JobPacer {
  private rows = 0;
  private ms = 0;
  /** The end of the job started last (resolved with its last answer when it has ended). */
  private last: Promise<ImportJob | undefined> = Promise.resolve(undefined);

  /** Poll `job` (just started, processing) until it is complete or failed. */
  async wait(client: ApiClient, job: ImportJob, signal: AbortSignal): Promise<ImportJob> {
    const posted = monotonicMs();
    const ahead = this.last;
    let end!: (job: ImportJob | undefined) => void;
    this.last = new Promise((resolve) => {
      end = resolve;
    });
    let done: ImportJob | undefined;
    try {
      const before = await ahead;
      // The job started when it was created, or when the job ahead of it ended.
      const startedAt =
        before !== undefined && between(job.created_at, before.updated_at) > 0
          ? before.updated_at
          : job.created_at;
      const queued = startedAt !== job.created_at;
      // Time it has had already: since its start when it started at creation, none when it
      // waited (the job ahead was seen ending just now, or late by as much as it waits).
      const elapsed = queued ? 0 : monotonicMs() - posted;
      done = await waitForJob(client, job.job_id!, {
        signal,
        firstDelayMs: this.firstDelay(job.total, elapsed),
        nextDelayMs: (answer, backoff) => this.nextDelay(answer, startedAt, backoff),
      });
      this.finished(done, startedAt);
      return done;
    } finally {
      end(done);
    }
  }

  /** Milliseconds a row took the service so far (undefined before any job finished). */
  private perRow(): number | undefined {
    return this.rows === 0 ? undefined : this.ms / this.rows;
  }

  firstDelay(rows: number, elapsed: number): number {
    const per = this.perRow();
    if (per === undefined) return Math.max(0, 250 - elapsed);
    return clampDelay(rows * per - elapsed);
  }

  nextDelay(job: ImportJob, startedAt: Stamp, backoff: number): number {
    const processed = job.processed ?? 0;
    if (processed <= 0 || job.total === undefined || job.total <= processed) return backoff;
    const own = between(startedAt, job.updated_at) / processed;
    const per = this.perRow() ?? own;
    if (!Number.isFinite(per) || per < 0) return backoff;
    return clampDelay((job.total - processed) * per);
  }

  finished(job: ImportJob, startedAt: Stamp): void {
    const took = between(startedAt, job.updated_at);
    if (job.status !== 'complete' || !Number.isFinite(took) || took < 0 || !job.total) return;
    this.rows += job.total;
    this.ms += took;
  }
}

function clampDelay(ms: number): number {
  return Math.min(MAX_POLL_DELAY, Math.max(MIN_POLL_DELAY, Math.round(ms)));
}
