// What an import keeps on this machine, in the config directory:
//
// - a checkpoint per interrupted import, `imports/<hash>.checkpoint.json`, keyed by the
//   input (its absolute path, or "stdin" and the working directory), the object type and the
//   workspace; written before the first chunk is sent and after every chunk that finishes
//   in order, removed when the import ends. `--resume` reads it. A checkpoint older than the
//   API's replay window (24 hours) cannot rely on the chunks' keys: see openCheckpoint.
// - the ledger, `imports.ndjson`: one line per asynchronous import job started, for
//   `ws import jobs` (entries older than the API keeps jobs, 7 days, are dropped).
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../config/store.ts';
import { UsageError } from '../errors.ts';
import type { Env, IOStreams } from '../io/streams.ts';
import { thousands } from '../output/plural.ts';
import { sha256 } from './keys.ts';

export interface Counts {
  read: number;
  sent: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Rows that failed, before sending or at the API. */
  failed: number;
  /** Rows the API answered with an error (part of failed). */
  rejected: number;
  blank: number;
  /** Text cells whose leading or trailing spaces were trimmed. */
  trimmed: number;
  /** Rows left out (a repeated key with --on-duplicate first). */
  skipped: number;
  /** Rows whose dedupe key repeats an earlier row's. */
  duplicate_keys: number;
  /** Rows without a dedupe key. */
  missing_keys: number;
  /** Lines of the footer after the data, skipped. */
  footer: number;
}

export function zeroCounts(): Counts {
  return {
    read: 0,
    sent: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    rejected: 0,
    blank: 0,
    trimmed: 0,
    skipped: 0,
    duplicate_keys: 0,
    missing_keys: 0,
    footer: 0,
  };
}

export interface Checkpoint {
  version: 1;
  source: string;
  object_type: string;
  base_url: string;
  team_id: string;
  /** Options fingerprint: a resume must use the same options. */
  fingerprint: string;
  chunk_size: number;
  /** Every chunk before this one is finished (and written to the output files). */
  next_chunk: number;
  /** Hash of the input up to the end of chunk next_chunk - 1 ("" when next_chunk is 0). */
  prefix_hash: string;
  /** Line of the file where chunk next_chunk starts. */
  next_line: number;
  counts: Counts;
  failed_file: string | undefined;
  /** Bytes of the failed-rows file that belong to finished chunks. */
  failed_bytes: number;
  results_file: string | undefined;
  results_bytes: number;
  jobs: string[];
  /**
   * Mixed into the chunks' idempotency keys when an import went on past the replay window
   * (with --dedupe-by) under new keys; absent before that.
   */
  key_salt?: string;
  started_at: string;
  updated_at: string;
}

/** How long the API keeps (and replays) the answer of an idempotency key. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * A checkpoint is past the replay window this long before 24 hours after its last write:
 * the chunks in flight when it was written may have been sent a little before it.
 */
const REPLAY_MARGIN_MS = 60 * 60 * 1000;

function importsDir(env: Env): string {
  return join(configDir(env), 'imports');
}

export function checkpointPath(
  env: Env,
  source: string,
  objectType: string,
  baseUrl: string,
  teamId: string,
): string {
  const id = sha256(`${source}\n${objectType}\n${baseUrl}\n${teamId}`).slice(0, 24);
  return join(importsDir(env), `${id}.checkpoint.json`);
}

export function readCheckpoint(path: string): Checkpoint | undefined {
  try {
    const cp = JSON.parse(readFileSync(path, 'utf8')) as Checkpoint;
    return cp.version === 1 ? cp : undefined;
  } catch {
    return undefined;
  }
}

/** Written atomically (a temporary file renamed over it), so a crash leaves the old or the new one. */
export function writeCheckpoint(path: string, cp: Checkpoint): void {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(cp)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

export function removeCheckpoint(path: string): void {
  rmSync(path, { force: true });
}

/** Where an import is (its input, object type and workspace): what names its checkpoint. */
export interface CheckpointPlace {
  /** The input: its absolute path, or `stdin:` and the working directory. */
  source: string;
  objectType: string;
  baseUrl: string;
  teamId: string;
}

/** The chunk size of the interrupted import of this place, if one left a checkpoint. */
export function interruptedChunkSize(env: Env, at: CheckpointPlace): number | undefined {
  const cp = readCheckpoint(checkpointPath(env, at.source, at.objectType, at.baseUrl, at.teamId));
  return cp?.chunk_size;
}

/** Where an import is, and what it is, for its checkpoint. */
export interface CheckpointStart extends CheckpointPlace {
  /** The input as the user wrote it, for messages. */
  file: string;
  /** The options fingerprint: a resume must have the same. */
  fingerprint: string;
  chunkSize: number;
  /** Line of the first row after the header. */
  firstLine: number;
  now: Date;
  /** --dedupe-by is given: rows sent twice update their record instead of making another. */
  dedupe: boolean;
}

/**
 * The checkpoint of an import about to start (its path and first content); with `resume`,
 * also the one an interrupted run left, checked against this run's fingerprint. Nothing is
 * written here.
 */
export function openCheckpoint(
  env: Env,
  io: IOStreams,
  at: CheckpointStart,
  resume: boolean,
): { checkpoint: { path: string; base: Checkpoint }; resume: Checkpoint | undefined } {
  const path = checkpointPath(env, at.source, at.objectType, at.baseUrl, at.teamId);
  const existing = readCheckpoint(path);
  let resumed: Checkpoint | undefined;
  const expired =
    existing !== undefined &&
    at.now.getTime() - Date.parse(existing.updated_at) >= REPLAY_WINDOW_MS - REPLAY_MARGIN_MS;
  if (resume) {
    if (!existing) {
      throw new UsageError(
        `There is no interrupted import of ${at.file} into ${at.objectType} to resume.`,
        'Run the command without --resume.',
      );
    }
    if (existing.fingerprint !== at.fingerprint) {
      throw new UsageError(
        'The columns or options differ from those of the interrupted import, so it cannot be resumed.',
        'Give the same options as the first run, or run without --resume to import from the start (rows already sent are replayed, not created twice).',
      );
    }
    if (expired && !at.dedupe) throw pastReplayWindow(existing, at);
    resumed = existing;
    io.info(
      `Resuming after line ${existing.next_line - 1}: ${thousands(existing.counts.read)} rows were done.`,
    );
    if (expired) {
      io.info(
        `The interrupted import stopped more than 24 hours ago, so the API no longer replays the chunks it sent: they are sent again under new keys, and --dedupe-by matches the rows that went in then.`,
      );
    }
  } else if (expired) {
    io.info(
      `An interrupted import of this file from ${existing.updated_at} was found; importing it from the start. It stopped more than 24 hours ago, so the API no longer replays the chunks it sent${at.dedupe ? ': they are sent under new keys, and --dedupe-by matches the rows that went in then.' : '.'}`,
    );
  } else if (existing) {
    io.info(
      'An interrupted import of this file was found; importing it from the start (chunks sent before are replayed, not created twice). Use --resume to continue where it stopped.',
    );
  }
  const stamp = at.now.toISOString();
  const base: Checkpoint = {
    version: 1,
    source: at.source,
    object_type: at.objectType,
    base_url: at.baseUrl,
    team_id: at.teamId,
    fingerprint: at.fingerprint,
    chunk_size: at.chunkSize,
    next_chunk: 0,
    prefix_hash: '',
    next_line: at.firstLine,
    counts: zeroCounts(),
    failed_file: undefined,
    failed_bytes: 0,
    results_file: undefined,
    results_bytes: 0,
    jobs: [],
    // Past the window, new keys (with --dedupe-by); within it, the keys the import had.
    ...(expired && at.dedupe
      ? { key_salt: stamp }
      : existing?.key_salt !== undefined
        ? { key_salt: existing.key_salt }
        : {}),
    started_at: resumed?.started_at ?? stamp,
    updated_at: stamp,
  };
  return { checkpoint: { path, base }, resume: resumed };
}

/**
 * A resume without --dedupe-by of an import that stopped past the replay window: the API no
 * longer replays the answers of the chunks it sent, so whether the ones in flight then went
 * in is not known, and sending them again could create their rows twice.
 */
function pastReplayWindow(cp: Checkpoint, at: CheckpointStart): UsageError {
  const line = cp.next_line;
  return new UsageError(
    `The interrupted import of ${at.file} into ${at.objectType} stopped at ${cp.updated_at}, more than 24 hours ago: the API keeps the answers of import calls for 24 hours, so ws can no longer tell whether the chunks in flight then (from line ${line} on) were imported. Sending them again could create their rows twice, so nothing was sent.`,
    `Import the file again with --dedupe-by SLUG (a property that identifies a record, such as email), without --resume: rows that went in are matched and updated, not created twice. Or see which records of the rows from line ${line} on exist, and import a file holding only the others.`,
  );
}

export interface LedgerEntry {
  job_id: string;
  object_type: string;
  /** The input file (absolute path) or "-". */
  file: string;
  chunk: number;
  /** First and last line of the file in the job. */
  lines: [number, number];
  rows: number;
  base_url: string;
  team_id: string;
  started_at: string;
}

const LEDGER_DAYS = 7;

export function ledgerPath(env: Env): string {
  return join(configDir(env), 'imports.ndjson');
}

export function readLedger(env: Env): LedgerEntry[] {
  let text: string;
  try {
    text = readFileSync(ledgerPath(env), 'utf8');
  } catch {
    return [];
  }
  const out: LedgerEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as LedgerEntry);
    } catch {
      // a line cut short by a crash: skip it
    }
  }
  return out;
}

/**
 * Append jobs to the ledger. With `prune` (once per import), entries older than 7 days are
 * dropped first.
 */
export function appendLedger(
  env: Env,
  entries: readonly LedgerEntry[],
  now: Date,
  prune: boolean,
): void {
  if (entries.length === 0) return;
  const path = ledgerPath(env);
  mkdirSync(configDir(env), { recursive: true, mode: 0o700 });
  const lines = entries.map((e) => `${JSON.stringify(e)}\n`).join('');
  if (!prune) {
    appendFileSync(path, lines, { mode: 0o600 });
    return;
  }
  const cutoff = now.getTime() - LEDGER_DAYS * 86_400_000;
  const existing = readLedger(env);
  const stale = existing.filter((e) => Date.parse(e.started_at) < cutoff);
  if (stale.length > 0) {
    const kept = existing.filter((e) => Date.parse(e.started_at) >= cutoff);
    writeFileSync(path, kept.map((e) => `${JSON.stringify(e)}\n`).join('') + lines, {
      mode: 0o600,
    });
  } else {
    appendFileSync(path, lines, { mode: 0o600 });
  }
}

/**
 * What records each job an import starts in the ledger, for `ws import jobs`: the entry of
 * the first job also drops those older than 7 days.
 */
export function jobLedger(
  env: Env,
  now: () => Date,
  run: Pick<LedgerEntry, 'object_type' | 'file' | 'base_url' | 'team_id'>,
): (jobId: string, chunk: { index: number; lines: [number, number]; rows: number }) => void {
  let pruned = false;
  return (jobId, chunk) => {
    const prune = !pruned;
    pruned = true;
    const at = now();
    appendLedger(
      env,
      [
        {
          job_id: jobId,
          object_type: run.object_type,
          file: run.file,
          chunk: chunk.index,
          lines: chunk.lines,
          rows: chunk.rows,
          base_url: run.base_url,
          team_id: run.team_id,
          started_at: at.toISOString(),
        },
      ],
      at,
      prune,
    );
  };
}
