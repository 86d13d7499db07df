// `ws import TYPE FILE|-` (and `ws import validate`, which is the same with --dry-run).
import { setMaxListeners } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { ImportOptions } from '../../api/imports.ts';
import { objectType, type RecordType } from '../../api/object-types.ts';
import { InterruptedError, PartialFailureError, UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { delimiterName } from '../../import/delimiter.ts';
import { type EngineReport, ImportEngine } from '../../import/engine.ts';
import { openInput } from '../../import/input.ts';
import { fingerprint, RunningHash } from '../../import/keys.ts';
import {
  askUnknown,
  type ColumnPlan,
  checkDuplicates,
  readMapFile,
  resolveMapping,
  unknownColumnsError,
  writeMapFile,
} from '../../import/mapping.ts';
import { ChunkFile, FailedRowsWriter, failedFilePath } from '../../import/outputs.ts';
import { progressLine, rate } from '../../import/progress.ts';
import { type CsvEvent, readCsv, rowSplitter } from '../../import/reader.ts';
import { withRetries } from '../../import/send.ts';
import {
  appendLedger,
  type Checkpoint,
  checkpointPath,
  readCheckpoint,
  writeCheckpoint,
  zeroCounts,
} from '../../import/state.ts';
import type { DateOrder, Definition } from '../../import/typing.ts';
import { definitionsFor, findDefinition } from '../../schema/definitions.ts';
import { formatDuration, monotonicMs } from '../../util/time.ts';

export interface ImportOpts {
  type: string;
  file: string;
  delimiter: string | undefined;
  encoding: string | undefined;
  map: [string, string | null][];
  mapFile: string | undefined;
  saveMap: string | undefined;
  skip: string[];
  ignoreUnknown: boolean;
  emptyAsNull: boolean;
  arraySep: string;
  dateOrder: DateOrder | undefined;
  dedupeBy: string | undefined;
  caseInsensitive: boolean;
  listId: string | undefined;
  chunkSize: number;
  concurrency: number;
  strict: boolean;
  dryRun: boolean;
  wait: boolean;
  resume: boolean;
  failedFile: string | undefined;
  results: string | undefined;
  /** The command as typed, for the resume hint. */
  command: string;
}

/** The summary document of `--json`. */
export interface ImportSummary {
  object_type: string;
  file: string;
  dry_run: boolean;
  status: 'complete' | 'interrupted' | 'started' | 'empty';
  rows: number;
  valid?: number;
  sent: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  pending: number;
  blank: number;
  failed_file: string | null;
  results_file: string | null;
  jobs: string[];
  duration_ms: number;
  rows_per_second: number;
  resume_command: string | null;
}

/**
 * Read up to the header (blank lines before it are skipped; no header is an empty file),
 * and on to the first batch of events after it (empty when the file has no rows).
 */
async function readHeader(
  batches: AsyncIterator<CsvEvent[]>,
  hash: RunningHash,
  label: string,
): Promise<{ header: Extract<CsvEvent, { kind: 'header' }>; first: CsvEvent[] }> {
  let header: Extract<CsvEvent, { kind: 'header' }> | undefined;
  for (;;) {
    const next = await batches.next();
    if (next.done) {
      if (header) return { header, first: [] };
      throw new UsageError(
        `${label} is empty: there is nothing to import.`,
        'The first line of the file names the columns; the rows follow it.',
      );
    }
    let events = next.value;
    if (!header) {
      const at = events.findIndex((e) => e.kind === 'header');
      for (const e of events.slice(0, at < 0 ? events.length : at + 1)) hash.update(e.raw);
      if (at < 0) continue;
      header = events[at] as Extract<CsvEvent, { kind: 'header' }>;
      events = events.slice(at + 1);
    }
    if (events.length > 0) return { header, first: events };
  }
}

async function planColumns(
  opts: ImportOpts,
  deps: Deps,
  headers: string[],
  defs: Definition[],
  source: { path: string | undefined },
): Promise<ColumnPlan[]> {
  const { io } = deps;
  const { columns, unknown } = resolveMapping({
    headers,
    defs,
    map: opts.map,
    mapFile: opts.mapFile === undefined ? undefined : readMapFile(opts.mapFile),
    skip: opts.skip,
  });
  let asked = false;
  if (unknown.length > 0) {
    if (opts.ignoreUnknown) {
      io.warn(
        `Left out ${unknown.length === 1 ? 'a column' : `${unknown.length} columns`} that match no property: ${unknown.map((u) => `"${u.header}"`).join(', ')}.`,
      );
    } else if (io.canPrompt()) {
      io.info(
        `${unknown.length === 1 ? 'A column matches' : `${unknown.length} columns match`} no property of ${opts.type}.`,
      );
      await askUnknown(deps.prompter, unknown, columns, defs, (slug) =>
        columns.some((c) => c.def?.slug === slug),
      );
      asked = true;
    } else {
      throw unknownColumnsError(unknown, false);
    }
  }
  checkDuplicates(columns);
  if (!columns.some((c) => c.def)) {
    throw new UsageError(
      'No column of the file fills a property: there is nothing to import.',
      `Its columns: ${headers.join(', ')}. Map them with --map "Header=slug".`,
    );
  }
  const missing = defs.filter((d) => d.required === true && !columns.some((c) => c.def === d));
  if (missing.length > 0) {
    throw new UsageError(
      `The file has no column for the required ${missing.length === 1 ? 'property' : 'properties'} ${missing.map((d) => d.slug).join(', ')}: every row would fail.`,
      `Add the column, or map one to it with --map "Header=${missing[0]!.slug}".`,
    );
  }
  let save = opts.saveMap;
  if (save === undefined && asked) {
    const suggested =
      source.path === undefined
        ? resolve('ws-import.mapping.json')
        : join(dirname(source.path), `${basename(source.path, extname(source.path))}.mapping.json`);
    if (
      await deps.prompter.confirm({
        message: `Save this mapping to ${suggested} for the next run?`,
        default: true,
      })
    ) {
      save = suggested;
    }
  }
  if (save !== undefined) {
    writeMapFile(save, columns);
    io.info(`Mapping saved to ${save}; next time pass --map-file ${save}.`);
  }
  return columns;
}

/**
 * The checkpoint of this import (its path and first content), and with --resume the one
 * an interrupted run left, checked against this run's options.
 */
async function checkpointFor(
  opts: ImportOpts,
  deps: Deps,
  at: { type: string; id: string; fp: string; now: Date; firstLine: number },
): Promise<{ checkpoint: { path: string; base: Checkpoint }; resume: Checkpoint | undefined }> {
  const { io } = deps;
  const creds = await deps.credentials();
  const path = checkpointPath(deps.env, at.id, at.type, creds.baseUrl, creds.teamId);
  const existing = readCheckpoint(path);
  let resume: Checkpoint | undefined;
  if (opts.resume) {
    if (!existing) {
      throw new UsageError(
        `There is no interrupted import of ${opts.file} into ${at.type} to resume.`,
        'Run the command without --resume.',
      );
    }
    if (existing.fingerprint !== at.fp) {
      throw new UsageError(
        'The columns or options differ from those of the interrupted import, so it cannot be resumed.',
        'Give the same options as the first run, or run without --resume to import from the start (rows already sent are replayed, not created twice).',
      );
    }
    resume = existing;
    io.info(
      `Resuming after line ${existing.next_line - 1}: ${existing.counts.read.toLocaleString('en-US')} rows were done.`,
    );
  } else if (existing) {
    io.info(
      'An interrupted import of this file was found; importing it from the start (chunks sent before are replayed, not created twice). Use --resume to continue where it stopped.',
    );
  }
  const stamp = at.now.toISOString();
  const base: Checkpoint = {
    version: 1,
    source: at.id,
    object_type: at.type,
    base_url: creds.baseUrl,
    team_id: creds.teamId,
    fingerprint: at.fp,
    chunk_size: opts.chunkSize,
    next_chunk: 0,
    prefix_hash: '',
    next_line: at.firstLine,
    counts: zeroCounts(),
    failed_file: undefined,
    failed_bytes: 0,
    results_file: undefined,
    results_bytes: 0,
    jobs: [],
    started_at: resume?.started_at ?? stamp,
    updated_at: stamp,
  };
  return { checkpoint: { path, base }, resume };
}

export async function run(opts: ImportOpts, deps: Deps): Promise<void> {
  const { io } = deps;
  const type = objectType(opts.type, 'record') as RecordType;
  if (opts.file === '-' && io.isStdinTTY) {
    throw new UsageError(
      'ws import reads the CSV from stdin with "-", and nothing is piped in.',
      'Pipe a file in (ws import contacts - < people.csv) or give its path.',
    );
  }
  const started = monotonicMs();
  const source = openInput(opts.file, io.stdin, opts.encoding);
  let delimiter = opts.delimiter ?? ',';
  const hash = new RunningHash();
  const reader = readCsv(source.text(), {
    delimiter: opts.delimiter,
    onDelimiter: (d) => {
      delimiter = d;
    },
  });
  try {
    const { header, first } = await readHeader(
      reader,
      hash,
      source.path === undefined ? 'stdin' : opts.file,
    );
    if (opts.delimiter === undefined) io.debug(`delimiter: ${delimiterName(delimiter)}`);

    const defs = await withRetries(
      () => definitionsFor(deps, type, { listId: opts.listId }),
      deps.signal,
    );
    const columns = await planColumns(opts, deps, header.fields, defs, source);
    let apiOptions: ImportOptions | undefined;
    if (opts.dedupeBy !== undefined || opts.listId !== undefined) {
      apiOptions = {};
      if (opts.dedupeBy !== undefined) {
        const def = findDefinition(defs, opts.dedupeBy, type);
        if (!columns.some((c) => c.def?.slug === def.slug)) {
          throw new UsageError(
            `--dedupe-by ${def.slug}: no column of the file fills ${def.slug}, so no row could match a record.`,
            `Map a column to it with --map "Header=${def.slug}".`,
          );
        }
        apiOptions.dedupe_by = def.slug;
        if (opts.caseInsensitive) apiOptions.caseInsensitive = true;
      }
      if (opts.listId !== undefined) apiOptions.list_id = opts.listId;
    }
    const fp = fingerprint({
      type,
      columns: columns.map((c) => [c.header, c.def?.slug ?? null]),
      apiOptions,
      emptyAsNull: opts.emptyAsNull,
      arraySep: opts.arraySep,
      dateOrder: opts.dateOrder,
      chunkSize: opts.chunkSize,
      delimiter,
      encoding: source.encoding(),
    });

    if (first.length === 0) {
      io.info(
        `${opts.file === '-' ? 'stdin' : opts.file} has a header but no rows: there is nothing to import.`,
      );
      await report(
        opts,
        deps,
        source.path,
        emptySummaryReport(),
        started,
        undefined,
        undefined,
        null,
        'empty',
      );
      return;
    }

    // Where the failed rows, the results and the checkpoint go.
    const now = deps.clock.now();
    const cwd = process.cwd();
    const client = opts.dryRun ? undefined : await deps.client();
    const { checkpoint, resume } =
      !opts.dryRun && opts.wait
        ? await checkpointFor(opts, deps, {
            type,
            id: source.path ?? `stdin:${cwd}`,
            fp,
            now,
            firstLine: header.line + 1,
          })
        : { checkpoint: undefined, resume: undefined };
    const failedPath = resolve(
      resume?.failed_file ?? opts.failedFile ?? failedFilePath(source.path, now, cwd),
    );
    const resultsPath =
      resume?.results_file ?? (opts.results === undefined ? undefined : resolve(opts.results));
    const failedFile = new ChunkFile(failedPath, resume?.failed_bytes);
    const failed = new FailedRowsWriter(failedFile, header.fields, delimiter);
    const results =
      resultsPath === undefined ? undefined : new ChunkFile(resultsPath, resume?.results_bytes);
    if (checkpoint) {
      checkpoint.base.failed_file = failedPath;
      checkpoint.base.results_file = resultsPath;
      if (!resume) writeCheckpoint(checkpoint.path, checkpoint.base);
    }

    const requests = new AbortController();
    // Each chunk in flight listens to it (its request, its wait before the next poll, the
    // rate limiter): above Node's default of 10 listeners it would print a leak warning.
    setMaxListeners(opts.concurrency * 3 + 10, requests.signal);
    const label = source.label;
    const progress = await io.progress(opts.dryRun ? `Checking ${label}…` : `Importing ${label}…`);
    let engine: ImportEngine | undefined;
    let ticking = true;
    const tick = () => {
      if (!engine || !ticking) return;
      const c = engine.counts;
      progress.update(
        progressLine({
          label,
          read: c.read,
          sent: c.sent,
          processed: engine.processedCount,
          failed: c.failed,
          elapsedMs: monotonicMs() - started,
          bytesRead: source.bytesRead(),
          size: source.size,
          dryRun: opts.dryRun,
        }),
      );
    };
    const timer = setInterval(tick, 500);
    timer.unref();
    const creds = opts.dryRun ? undefined : await deps.credentials();
    let ledgerPruned = false;
    engine = new ImportEngine({
      objectType: type,
      client,
      events: reader,
      first,
      hash,
      splitRow: await rowSplitter(delimiter, header.fields.length),
      columns,
      typing: { arraySep: opts.arraySep, dateOrder: opts.dateOrder },
      emptyAsNull: opts.emptyAsNull,
      apiOptions,
      chunkSize: opts.chunkSize,
      concurrency: opts.concurrency,
      strict: opts.strict,
      dryRun: opts.dryRun,
      wait: opts.wait,
      keyFingerprint: fingerprint({ options: fp, typing: columns.map((c) => typingOf(c.def)) }),
      firstLine: header.line + 1,
      stop: deps.signal,
      requestSignal: requests.signal,
      failed,
      results,
      checkpoint,
      resume,
      onJob: (jobId, chunk) => {
        const prune = !ledgerPruned;
        ledgerPruned = true;
        appendLedger(
          deps.env,
          [
            {
              job_id: jobId,
              object_type: type,
              file: source.path ?? '-',
              chunk: chunk.index,
              lines: chunk.lines,
              rows: chunk.rows,
              base_url: creds!.baseUrl,
              team_id: creds!.teamId,
              started_at: deps.clock.now().toISOString(),
            },
          ],
          deps.clock.now(),
          prune,
        );
      },
      onStopping: (inFlight) => {
        ticking = false;
        progress.stop();
        io.warn(
          inFlight > 0
            ? `Stopping: waiting for ${inFlight} chunk${inFlight === 1 ? '' : 's'} in flight to finish (Ctrl-C again to abandon ${inFlight === 1 ? 'it' : 'them'}).`
            : 'Stopping.',
        );
      },
    });
    let result: EngineReport;
    try {
      result = await engine.run();
    } catch (err) {
      clearInterval(timer);
      progress.stop();
      await failedFile.close();
      await results?.close();
      if (checkpoint && existsSync(checkpoint.path) && !(err instanceof UsageError)) {
        const done = engine.counts.read;
        io.info(
          `Stopped after ${done.toLocaleString('en-US')} rows; the rest can be imported with:\n  ${opts.command} --resume`,
        );
      }
      throw err;
    }
    clearInterval(timer);
    progress.stop();
    await failedFile.close();
    await results?.close();
    if (!resume && failedFile.bytes === 0) removeStaleFailedFile(failedFile);
    const status = result.interrupted ? 'interrupted' : result.pending > 0 ? 'started' : 'complete';
    await report(
      opts,
      deps,
      source.path,
      result,
      started,
      failedFile.bytes > 0 ? failedPath : undefined,
      resultsPath,
      result.interrupted ? `${opts.command} --resume` : null,
      status,
    );
  } finally {
    void reader.return(undefined);
  }
}

/** A failed-rows file left by an earlier run, now that every row went in. */
function removeStaleFailedFile(file: ChunkFile): void {
  try {
    if (existsSync(file.path) && readFileSync(file.path, 'utf8').startsWith('ws_line')) {
      file.removeIfUnused();
    }
  } catch {
    // leave it
  }
}

function emptySummaryReport(): EngineReport {
  return {
    counts: zeroCounts(),
    jobs: [],
    processed: 0,
    firstErrors: [],
    interrupted: false,
    pending: 0,
  };
}

async function report(
  opts: ImportOpts,
  deps: Deps,
  path: string | undefined,
  r: EngineReport,
  started: number,
  failedFile: string | undefined,
  resultsFile: string | undefined,
  resumeCommand: string | null,
  status: ImportSummary['status'],
): Promise<void> {
  const { io } = deps;
  const c = r.counts;
  const ms = Math.round(monotonicMs() - started);
  const summary: ImportSummary = {
    object_type: objectType(opts.type, 'record'),
    file: path ?? '-',
    dry_run: opts.dryRun,
    status,
    rows: c.read,
    ...(opts.dryRun ? { valid: c.read - c.failed } : {}),
    sent: c.sent,
    created: c.created,
    updated: c.updated,
    unchanged: c.unchanged,
    failed: c.failed,
    pending: r.pending,
    blank: c.blank,
    failed_file: failedFile ?? null,
    results_file: resultsFile ?? null,
    jobs: r.jobs,
    duration_ms: ms,
    rows_per_second: rate(c.read, ms),
    resume_command: resumeCommand,
  };
  if (deps.format === 'json' || deps.format === 'ndjson') {
    io.println(JSON.stringify(summary, null, deps.format === 'json' ? 2 : undefined));
  } else {
    if (!opts.wait && r.jobs.length > 0) for (const j of r.jobs) io.println(j);
    printSummary(opts, deps, summary, r);
  }
  const file = opts.file === '-' ? 'stdin' : opts.file;
  if (status === 'interrupted') {
    throw new InterruptedError(
      `Interrupted: ${c.read.toLocaleString('en-US')} rows of ${file} were done.`,
      `Resume with: ${resumeCommand}`,
    );
  }
  if (c.failed > 0) {
    const what = opts.dryRun ? 'are not valid' : 'failed';
    throw new PartialFailureError(
      `${c.failed.toLocaleString('en-US')} of ${c.read.toLocaleString('en-US')} rows ${what}${failedFile ? `; they are in ${failedFile}` : ''}.`,
      c.failed,
      c.read,
      failedFile
        ? `Fix them there and import that file: ws import ${summary.object_type} ${failedFile}`
        : undefined,
    );
  }
}

function printSummary(opts: ImportOpts, deps: Deps, s: ImportSummary, r: EngineReport): void {
  const { io } = deps;
  if (io.quiet) return;
  const e = io.err;
  const n = (x: number) => x.toLocaleString('en-US');
  const file = opts.file === '-' ? 'stdin' : opts.file;
  const took = `${formatDuration(s.duration_ms)}${s.rows > 0 ? `, ${n(s.rows_per_second)} rows/s` : ''}`;
  const lines: string[] = [];
  const row = (label: string, value: number, extra = '') =>
    lines.push(`  ${label.padEnd(10)} ${n(value).padStart(9)}${extra ? `  ${extra}` : ''}`);
  if (opts.dryRun) {
    lines.push(
      `${s.failed > 0 ? e.yellow('!') : e.green('✓')} Checked ${file} against the ${s.object_type} properties in ${took}; nothing was sent.`,
    );
    row('rows', s.rows);
    row('valid', s.valid ?? 0);
    row('invalid', s.failed, s.failed_file ? `→ ${s.failed_file}` : '');
  } else {
    const verb =
      s.status === 'interrupted'
        ? 'Stopped importing'
        : s.status === 'started'
          ? 'Started importing'
          : 'Imported';
    lines.push(
      `${s.failed > 0 || s.status !== 'complete' ? e.yellow('!') : e.green('✓')} ${verb} ${file} into ${s.object_type} in ${took}.`,
    );
    row('rows', s.rows);
    row('created', s.created);
    row('updated', s.updated);
    row('unchanged', s.unchanged);
    row('failed', s.failed, s.failed_file ? `→ ${s.failed_file}` : '');
    if (s.pending > 0)
      row(
        'pending',
        s.pending,
        `in ${r.jobs.length} job${r.jobs.length === 1 ? '' : 's'}: ws import status JOB --wait`,
      );
  }
  if (s.blank > 0)
    lines.push(e.dim(`  (${n(s.blank)} blank line${s.blank === 1 ? '' : 's'} skipped)`));
  if (s.results_file) lines.push(e.dim(`  every row's outcome: ${s.results_file}`));
  if (r.firstErrors.length > 0) {
    lines.push(`${opts.dryRun ? 'First problems' : 'First failures'}:`);
    for (const f of r.firstErrors) {
      const msg = f.message.replace(/^line \d+(-\d+)?: /, '');
      lines.push(`  line ${f.line}: ${msg} ${e.dim(`(${f.code})`)}`);
    }
    if (s.failed > r.firstErrors.length)
      lines.push(e.dim(`  … and ${n(s.failed - r.firstErrors.length)} more`));
  }
  io.stderr.write(`${lines.join('\n')}\n`);
}

/**
 * What of a definition decides how cells type (the chunks' bodies, so their keys): not its
 * name, description or timestamps.
 */
function typingOf(def: ColumnPlan['def']): unknown {
  if (!def) return null;
  return {
    slug: def.slug,
    type: def.type,
    required: def.required === true,
    options: (def.options ?? []).map((o) => [o.id, o.slug, o.value ?? null]),
  };
}
