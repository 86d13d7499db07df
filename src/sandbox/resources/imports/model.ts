// Import jobs, kept in the store's `imports` slice: every asynchronous job (with its rows
// while it runs, and every row's result once it ran) until 7 days after its creation, then
// only a tombstone that lets the status endpoint say "expired" rather than "unknown".
//
// The model holds the state and its rules (ids, counters, status moves, expiry); rows are
// imported by rows.ts and jobs are moved forward by runner.ts.
//
// The slice keeps keyed entries for the data file's journal, so that a step of a job appends
// what the step did, whatever the size of the job or the number of jobs: a job's state and
// counters (`job/<id>`), its rows while it runs (`input/<id>`, written once), the results of
// each step (`results/<id>/<first row>`) and the tombstones (`expired/<id>`).

import { randomBytes } from 'node:crypto';
import { isPlainObject } from '../../../util/guards.ts';
import { entryOf } from '../../../util/maps.ts';
import { isObjectType, type ObjectType } from '../../object-types.ts';
import { defineSlice, parseById, SliceModel, SnapshotError, type Store } from '../../store.ts';
import { failedRows, importEvents } from './events.ts';

/** Imports with fewer objects than this run synchronously (facts.md). */
export const SYNC_LIMIT = 100;
/** Most objects one import call may carry (also in the contract: body.objects maxItems). */
export const MAX_IMPORT_ROWS = 100_000;
/** Asynchronous jobs answer their status for this long after creation (api.md). */
export const JOB_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** How long the tombstone of an expired job is kept (then its id is simply unknown). */
export const TOMBSTONE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export type JobStatus = 'processing' | 'complete' | 'failed';

/** A row's or a job's error. */
export interface ImportError {
  code: string;
  message: string;
}

export interface RowResult {
  /** The created or matched record; null when the row failed. */
  id: string | null;
  created: boolean;
  /** True when the row matched an existing record by the dedupe key. */
  existing: boolean;
  /** True when the row created a record or changed a value of the matched one. */
  updated: boolean;
  input_index: number;
  error?: ImportError;
}

/**
 * An import's options as the importer reads them (handlers.ts turns the wire's forms into
 * these: `dedupe_by` as one slug, `crm_id` as `list_id`); kept with a job while it runs.
 */
export interface ImportOptions {
  dedupe_by?: string;
  caseInsensitive?: boolean;
  list_id?: string;
  /** Default true: a row that matches a record by dedupe_by patches it. */
  update_existing?: boolean;
  /** A select value that names no option creates it (default false). */
  create_missing_options?: boolean;
  /** With list_id: a row whose record would have no list stage fails (default false). */
  require_list_stage?: boolean;
}

/** One object of an import body: a record write. */
export interface ImportRow {
  default?: Record<string, unknown>;
  list?: unknown;
}

/** What a stored job and the wire form share: its state, counters and times. */
interface JobState {
  status: JobStatus;
  total: number;
  /** Rows attempted (succeeded plus failed). */
  processed: number;
  succeeded: number;
  failed: number;
  created_at: string;
  updated_at: string;
}

export interface ImportJob extends JobState {
  job_id: string;
  team_id: string;
  object_type: ObjectType;
  expires_at: string;
  /** Job-level error; set only when status is failed. */
  error: ImportError | null;
  /** One per processed row, in input order. */
  results: RowResult[];
  /** The rows and options, kept while the job runs (dropped when it ends). */
  input: { objects: ImportRow[]; options: ImportOptions } | null;
}

/** The wire form of a job (api.md, "Import job"). */
export interface ImportJobView extends JobState {
  /** null for synchronous imports, which are not kept. */
  job_id: string | null;
  expires_at: string | null;
  error?: ImportError;
  results?: RowResult[];
}

/** What lookup() finds under a job id. */
export type Lookup =
  | { kind: 'job'; job: ImportJob }
  | { kind: 'expired'; expiredAt: string }
  | { kind: 'unknown' };

interface Tombstone {
  job_id: string;
  expires_at: string;
}

export class ImportsModel extends SliceModel {
  /** Live jobs by id, in creation order. */
  private jobs = new Map<string, ImportJob>();
  /** Expired jobs: id → when they expired. */
  private tombstones = new Map<string, string>();
  /** Per job, the first row of each journal entry of its results, in order. */
  private chunks = new Map<string, number[]>();
  /** What the journal holds, until entriesLoaded() checks it and puts it in place. */
  private loading: Loading | undefined;

  /** A new asynchronous job, processing, with no row attempted yet. */
  start(
    teamId: string,
    objectType: ObjectType,
    objects: ImportRow[],
    options: ImportOptions,
  ): ImportJob {
    const now = this.ctx.clock.nowMs();
    const at = new Date(now).toISOString();
    const job: ImportJob = {
      job_id: `imp_${randomBytes(12).toString('hex')}`,
      team_id: teamId,
      object_type: objectType,
      status: 'processing',
      total: objects.length,
      processed: 0,
      succeeded: 0,
      failed: 0,
      created_at: at,
      updated_at: at,
      expires_at: new Date(now + JOB_RETENTION_MS).toISOString(),
      error: null,
      results: [],
      input: { objects, options },
    };
    this.jobs.set(job.job_id, job);
    this.chunks.set(job.job_id, []);
    this.ctx.changed(jobKey(job.job_id));
    this.ctx.changed(`input/${job.job_id}`);
    if (this.ctx.events.listening(importEvents)) {
      this.ctx.events.emit(importEvents, { type: 'import.started', job });
    }
    return job;
  }

  /** The job under `jobId`, or why there is none. Expired jobs become tombstones here. */
  lookup(jobId: string): Lookup {
    this.expire();
    const job = this.jobs.get(jobId);
    if (job !== undefined) {
      // A job still processing at its expiry runs to its end, unanswered.
      if (this.isExpired(job)) return { kind: 'expired', expiredAt: job.expires_at };
      return { kind: 'job', job };
    }
    const expiredAt = this.tombstones.get(jobId);
    return expiredAt === undefined ? { kind: 'unknown' } : { kind: 'expired', expiredAt };
  }

  /** Jobs still processing, oldest first (also past their expiry: their rows still run). */
  processing(): ImportJob[] {
    return [...this.jobs.values()].filter((job) => job.status === 'processing');
  }

  /** Record the results of the next rows of a processing job. */
  recordRows(job: ImportJob, results: readonly RowResult[]): void {
    if (results.length > 0) {
      this.chunksOf(job.job_id).push(job.processed);
      this.ctx.changed(`results/${job.job_id}/${job.processed}`);
    }
    for (const result of results) {
      job.results.push(result);
      if (result.error === undefined) job.succeeded++;
      else job.failed++;
    }
    job.processed += results.length;
    const done = job.processed >= job.total;
    if (!done) this.touch(job);
    if (this.ctx.events.listening(importEvents)) {
      this.ctx.events.emit(importEvents, {
        type: 'import.progressed',
        job,
        failed: failedRows(results),
      });
    }
    if (done) this.end(job, 'complete');
  }

  /** End a processing job with a job-level error. */
  fail(job: ImportJob, error: ImportError): void {
    job.error = error;
    this.end(job, 'failed');
  }

  reset(): void {
    this.jobs = new Map();
    this.tombstones = new Map();
    this.chunks = new Map();
    this.loading = undefined;
  }

  /** Import jobs are history: a snapshot leaves them out. */
  snapshot(): undefined {
    return undefined;
  }

  isEmpty(): boolean {
    return this.jobs.size === 0 && this.tombstones.size === 0;
  }

  toJSON(): { jobs: ImportJob[]; expired: Tombstone[] } {
    this.expire();
    return {
      jobs: [...this.jobs.values()],
      expired: [...this.tombstones].map(([job_id, expires_at]) => ({ job_id, expires_at })),
    };
  }

  load(data: unknown): void {
    const base = 'store.slices.imports';
    if (!isPlainObject(data) || !Array.isArray(data['jobs']) || !Array.isArray(data['expired'])) {
      throw new SnapshotError(base, 'must be an object with arrays jobs and expired');
    }
    const jobs = parseById(data['jobs'], `${base}.jobs`, 'job_id', parseJob);
    const tombstones = new Map<string, string>();
    for (const [i, item] of data['expired'].entries()) {
      if (
        !isPlainObject(item) ||
        typeof item['job_id'] !== 'string' ||
        !isIsoDate(item['expires_at'])
      ) {
        throw new SnapshotError(
          `${base}.expired[${i}]`,
          'must be { job_id: string, expires_at: ISO-8601 date }',
        );
      }
      tombstones.set(item['job_id'], item['expires_at'] as string);
    }
    this.install(jobs, tombstones);
  }

  /** Journal entries: per job its state, rows (while it runs) and results; the tombstones. */
  *entries(): IterableIterator<[string, unknown]> {
    for (const [id, job] of this.jobs) {
      yield [jobKey(id), jobState(job)];
      if (job.input !== null) yield [`input/${id}`, job.input];
      for (const first of this.chunksOf(id)) {
        const key = `results/${id}/${first}`;
        yield [key, this.entry(key)];
      }
    }
    for (const [id, expiredAt] of this.tombstones) yield [`expired/${id}`, expiredAt];
  }

  entry(key: string): unknown {
    const { kind, id, first } = splitKey(key);
    if (kind === 'expired') return this.tombstones.get(id);
    const job = this.jobs.get(id);
    if (job === undefined) return undefined;
    if (kind === 'job') return jobState(job);
    if (kind === 'input') return job.input ?? undefined;
    const chunks = this.chunksOf(id);
    const i = chunks.indexOf(first);
    return i < 0 ? undefined : job.results.slice(first, chunks[i + 1] ?? job.results.length);
  }

  loadEntry(key: string, value: unknown): void {
    const at = `store.slices.imports[${JSON.stringify(key)}]`;
    const { kind, id, first } = splitKey(key, at);
    this.loading ??= this.loadingFromState();
    const loading = this.loading;
    if (kind === 'results') {
      const parts = entryOf(loading.results, id, () => new Map<number, unknown>());
      if (value === undefined) parts.delete(first);
      else parts.set(first, value);
    } else if (value === undefined) {
      loading[kind].delete(id);
    } else {
      loading[kind].set(id, value);
    }
  }

  entriesLoaded(): void {
    if (this.loading === undefined) return;
    const { job: states, input, results, expired } = this.loading;
    this.loading = undefined;
    const jobs = new Map<string, ImportJob>();
    const chunks = new Map<string, number[]>();
    for (const [id, state] of states) {
      const at = `store.slices.imports["job/${id}"]`;
      if (!isPlainObject(state)) throw new SnapshotError(at, 'must be an object');
      const parts = [...(results.get(id) ?? [])].sort(([a], [b]) => a - b);
      for (const [first, part] of parts) {
        if (!Array.isArray(part)) {
          throw new SnapshotError(
            `store.slices.imports["results/${id}/${first}"]`,
            'must be an array',
          );
        }
      }
      const job = parseJob(
        {
          ...state,
          results: parts.flatMap(([, part]) => part as unknown[]),
          input: input.get(id) ?? null,
        },
        at,
      );
      if (job.job_id !== id) throw new SnapshotError(`${at}.job_id`, `must be ${id}`);
      jobs.set(id, job);
      chunks.set(
        id,
        parts.map(([first]) => first),
      );
    }
    const tombstones = new Map<string, string>();
    for (const [id, expiredAt] of expired) {
      if (!isIsoDate(expiredAt)) {
        throw new SnapshotError(
          `store.slices.imports["expired/${id}"]`,
          'must be an ISO-8601 date',
        );
      }
      tombstones.set(id, expiredAt as string);
    }
    this.install(jobs, tombstones, chunks);
  }

  /** The state as journal entries are loaded into it (entries may follow a whole snapshot). */
  private loadingFromState(): Loading {
    const loading: Loading = {
      job: new Map(),
      input: new Map(),
      results: new Map(),
      expired: new Map(this.tombstones),
    };
    for (const [id, job] of this.jobs) {
      loading.job.set(id, jobState(job));
      if (job.input !== null) loading.input.set(id, job.input);
      const parts = new Map<number, unknown>();
      for (const first of this.chunksOf(id)) {
        parts.set(first, this.entry(`results/${id}/${first}`));
      }
      loading.results.set(id, parts);
    }
    return loading;
  }

  /** Put loaded jobs and tombstones in place; a job's results are one chunk unless told. */
  private install(
    jobs: Map<string, ImportJob>,
    tombstones: Map<string, string>,
    chunks = new Map<string, number[]>(),
  ): void {
    for (const [id, job] of jobs) {
      if (!chunks.has(id)) chunks.set(id, job.results.length > 0 ? [0] : []);
    }
    this.jobs = jobs;
    this.tombstones = tombstones;
    this.chunks = chunks;
  }

  private chunksOf(id: string): number[] {
    return entryOf(this.chunks, id, () => []);
  }

  private end(job: ImportJob, status: 'complete' | 'failed'): void {
    job.status = status;
    job.input = null;
    this.ctx.changed(`input/${job.job_id}`);
    this.touch(job);
    if (this.ctx.events.listening(importEvents)) {
      this.ctx.events.emit(importEvents, { type: 'import.finished', job });
    }
  }

  private touch(job: ImportJob): void {
    job.updated_at = this.ctx.clock.iso();
    this.ctx.changed(jobKey(job.job_id));
  }

  private isExpired(job: ImportJob): boolean {
    return this.ctx.clock.nowMs() >= Date.parse(job.expires_at);
  }

  /** Turn ended jobs past expires_at into tombstones; forget old tombstones. */
  private expire(): void {
    const now = this.ctx.clock.nowMs();
    for (const [id, job] of this.jobs) {
      if (job.status !== 'processing' && this.isExpired(job)) {
        for (const first of this.chunksOf(id)) this.ctx.changed(`results/${id}/${first}`);
        this.jobs.delete(id);
        this.chunks.delete(id);
        this.tombstones.set(id, job.expires_at);
        this.ctx.changed(jobKey(id));
        this.ctx.changed(`expired/${id}`);
      }
    }
    for (const [id, expiredAt] of this.tombstones) {
      if (now >= Date.parse(expiredAt) + TOMBSTONE_RETENTION_MS) {
        this.tombstones.delete(id);
        this.ctx.changed(`expired/${id}`);
      }
    }
  }
}

/** Journal entries being loaded, by kind of key. */
interface Loading {
  job: Map<string, unknown>;
  input: Map<string, unknown>;
  /** Per job, its results by first row. */
  results: Map<string, Map<number, unknown>>;
  expired: Map<string, unknown>;
}

type KeyKind = keyof Loading;

function jobKey(id: string): string {
  return `job/${id}`;
}

/** A journal key: `job/<id>`, `input/<id>`, `results/<id>/<first row>`, `expired/<id>`. */
function splitKey(
  key: string,
  at = 'store.slices.imports',
): { kind: KeyKind; id: string; first: number } {
  const [kind, id, first, ...rest] = key.split('/');
  const ok =
    rest.length === 0 &&
    id !== undefined &&
    id !== '' &&
    (kind === 'results'
      ? first !== undefined && String(Number(first)) === first && isCount(Number(first))
      : (kind === 'job' || kind === 'input' || kind === 'expired') && first === undefined);
  if (!ok) {
    throw new SnapshotError(
      at,
      'a key must be job/<id>, input/<id>, results/<id>/<first row> or expired/<id>',
    );
  }
  return { kind: kind as KeyKind, id: id!, first: kind === 'results' ? Number(first) : 0 };
}

/** A job without its rows and results (journaled apart). */
function jobState(job: ImportJob): Omit<ImportJob, 'input' | 'results'> {
  const { input: _input, results: _results, ...state } = job;
  return state;
}

/** The wire form of an asynchronous job: results once it stopped processing. */
export function jobView(job: ImportJob): ImportJobView {
  const { team_id, object_type, input, error, results, ...view } = job;
  return {
    ...view,
    ...(error === null ? {} : { error }),
    ...(job.status === 'processing' ? {} : { results }),
  };
}

/**
 * The wire form of a synchronous import, attempted in full (`results`) or refused as a whole
 * (`error`, no row attempted) at `at`.
 */
export function finishedView(
  total: number,
  results: RowResult[],
  error: ImportError | undefined,
  at: string,
): ImportJobView {
  const failed = countFailed(results);
  return {
    job_id: null,
    status: error === undefined ? 'complete' : 'failed',
    total,
    processed: results.length,
    succeeded: results.length - failed,
    failed,
    created_at: at,
    updated_at: at,
    expires_at: null,
    ...(error === undefined ? {} : { error }),
    results,
  };
}

function countFailed(results: readonly RowResult[]): number {
  return results.filter((r) => r.error !== undefined).length;
}

export const importsSlice = defineSlice('imports', (ctx) => new ImportsModel(ctx));

/** The imports model of `store`. */
export function importsOf(store: Store): ImportsModel {
  return store.slice(importsSlice);
}

// ---------------------------------------------------------------- snapshot parsing

const STATUSES: readonly string[] = ['processing', 'complete', 'failed'];

function isIsoDate(value: unknown): boolean {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isError(value: unknown): value is ImportError {
  return (
    isPlainObject(value) &&
    typeof value['code'] === 'string' &&
    typeof value['message'] === 'string'
  );
}

function parseResult(item: unknown, index: number, at: string): RowResult {
  const ok =
    isPlainObject(item) &&
    (item['id'] === null || typeof item['id'] === 'string') &&
    typeof item['created'] === 'boolean' &&
    typeof item['existing'] === 'boolean' &&
    typeof item['updated'] === 'boolean' &&
    item['input_index'] === index &&
    (item['error'] === undefined || isError(item['error']));
  if (!ok) {
    throw new SnapshotError(
      at,
      `must be a row result { id, created, existing, updated, input_index: ${index}, error? }`,
    );
  }
  return item as unknown as RowResult;
}

function parseJob(item: unknown, at: string): ImportJob {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  const problem = (field: string, message: string) => new SnapshotError(`${at}.${field}`, message);
  if (typeof item['job_id'] !== 'string' || item['job_id'] === '') {
    throw problem('job_id', 'must be a non-empty string');
  }
  if (typeof item['team_id'] !== 'string') throw problem('team_id', 'must be a string');
  const type = item['object_type'];
  if (typeof type !== 'string' || !isObjectType(type)) {
    throw problem('object_type', 'must be a record object type');
  }
  const status = item['status'];
  if (typeof status !== 'string' || !STATUSES.includes(status)) {
    throw problem('status', `must be one of ${STATUSES.join(', ')}`);
  }
  for (const field of ['total', 'processed', 'succeeded', 'failed'] as const) {
    if (!isCount(item[field])) throw problem(field, 'must be an integer >= 0');
  }
  for (const field of ['created_at', 'updated_at', 'expires_at'] as const) {
    if (!isIsoDate(item[field])) throw problem(field, 'must be an ISO-8601 date');
  }
  const error = item['error'];
  if (error !== null && !isError(error))
    throw problem('error', 'must be null or { code, message }');
  if (!Array.isArray(item['results'])) throw problem('results', 'must be an array');
  const results = item['results'].map((r, i) => parseResult(r, i, `${at}.results[${i}]`));

  const counts = item as Record<'total' | 'processed' | 'succeeded' | 'failed', number>;
  if (results.length !== counts.processed || counts.processed > counts.total) {
    throw problem('processed', 'must equal the number of results and be at most total');
  }
  const failed = countFailed(results);
  if (counts.failed !== failed || counts.succeeded !== results.length - failed) {
    throw problem('failed', 'succeeded and failed must match the results');
  }

  const input = item['input'];
  if (status === 'processing') {
    if (
      !isPlainObject(input) ||
      !Array.isArray(input['objects']) ||
      input['objects'].length !== counts.total ||
      !input['objects'].every(isPlainObject) ||
      !isPlainObject(input['options'])
    ) {
      throw problem('input', 'must hold { objects (total of them), options } while processing');
    }
  } else if (input !== null) {
    throw problem('input', 'must be null once the job ended');
  }
  return {
    job_id: item['job_id'],
    team_id: item['team_id'],
    object_type: type,
    status: status as JobStatus,
    total: counts.total,
    processed: counts.processed,
    succeeded: counts.succeeded,
    failed: counts.failed,
    created_at: item['created_at'] as string,
    updated_at: item['updated_at'] as string,
    expires_at: item['expires_at'] as string,
    error: error as ImportError | null,
    results,
    input: input as ImportJob['input'],
  };
}
