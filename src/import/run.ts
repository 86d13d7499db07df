// Sending the rows of an import once its columns are planned: the checkpoint that --resume
// reads, the failed-rows and results files, the progress line, the ledger of jobs, and the
// engine that types the rows and sends them in chunks. What it did comes back for the
// summary (summary.ts).
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import type { ImportOptions } from '../api/imports.ts';
import type { RecordType } from '../api/object-types.ts';
import { InterruptedError, UsageError } from '../errors.ts';
import type { Deps } from '../factory.ts';
import { thousands } from '../output/plural.ts';
import { monotonicMs } from '../util/time.ts';
import { DEFAULT_CHUNK_SIZE } from './defaults.ts';
import { type DedupeCheck, type EngineReport, ImportEngine, StaleChunkError } from './engine.ts';
import type { InputSource } from './input.ts';
import { fingerprint, keyFingerprint, type RunningHash } from './keys.ts';
import { LookupResolver } from './lookup.ts';
import type { ColumnPlan } from './mapping.ts';
import { openRunFiles } from './outputs.ts';
import { startTicker } from './progress.ts';
import { type CsvEvent, type HeaderEvent, rowSplitter } from './reader.ts';
import {
  interruptedChunkSize,
  jobLedger,
  openCheckpoint,
  removeCheckpoint,
  writeCheckpoint,
} from './state.ts';
import type { ImportEnd } from './summary.ts';
import type { DateOrder, NewOptions, TypingOptions } from './typing.ts';

/** The flags that decide how the rows are sent (`ws import`'s options have them). */
export interface SendFlags {
  /** The input as typed, for messages. */
  file: string;
  emptyAsNull: boolean;
  /** --keep-whitespace: text cells keep their leading and trailing spaces. */
  keepWhitespace?: boolean | undefined;
  arraySep: string;
  dateOrder: DateOrder | undefined;
  /** Given with --chunk-size; else that of an interrupted import of the input, or the default. */
  chunkSize: number | undefined;
  concurrency: number;
  strict: boolean;
  dryRun: boolean;
  wait: boolean;
  resume: boolean;
  failedFile: string | undefined;
  results: string | undefined;
  /** The command as typed, for the resume hint. */
  command: string;
  /** The command's words for another file (src/commands/import/index.ts, againWords). */
  again: { head: string[]; args: string[] };
}

/** What was read and decided before the first row is sent. */
export interface SendPlan {
  objectType: RecordType;
  source: InputSource;
  /** The events after `first`, read as the engine asks for them. */
  events: AsyncIterator<CsvEvent[]>;
  header: HeaderEvent;
  first: CsvEvent[];
  /** The hash of the input read so far (up to the header). */
  hash: RunningHash;
  delimiter: string;
  columns: readonly ColumnPlan[];
  apiOptions: ImportOptions | undefined;
  /** How each number and date column is read (src/import/columns.ts, columnReadings). */
  columnTyping?: ReadonlyMap<number, TypingOptions> | undefined;
  /** With --dedupe-by: how keys are checked in the file. */
  dedupe?: DedupeCheck | undefined;
  /** How cells are read as the flags and a mapping file say (for the chunks' keys). */
  readingSettings?: Record<string, unknown> | undefined;
  /** With --create-missing-options: where the options to create are noted. */
  newOptions?: NewOptions | undefined;
  /** When the import started (monotonicMs), for the rate. */
  started: number;
}

export type SendOutcome = Pick<
  ImportEnd,
  | 'report'
  | 'status'
  | 'failedFile'
  | 'resultsFile'
  | 'resumeCommand'
  | 'newOptions'
  | 'lookupQueries'
>;

/** Send the rows (or, with dryRun, check them) and say how it went. */
export async function sendRows(flags: SendFlags, plan: SendPlan, deps: Deps): Promise<SendOutcome> {
  const { io } = deps;
  const { source, header } = plan;
  const now = deps.clock.now();
  const lookupColumns = plan.columns.flatMap((c) =>
    c.lookup === undefined ? [] : [{ index: c.index, header: c.header, target: c.lookup }],
  );
  const client = flags.dryRun ? undefined : await deps.client();
  // Look-ups are reads: a dry run makes them too, to check the names.
  const lookupClient = lookupColumns.length === 0 ? undefined : (client ?? (await deps.client()));
  const creds = flags.dryRun ? undefined : await deps.credentials();
  const at = creds && {
    source: source.path ?? `stdin:${deps.cwd}`,
    objectType: plan.objectType,
    baseUrl: creds.baseUrl,
    teamId: creds.teamId,
  };
  // The chunk size decides the chunks, and so their idempotency keys: an import of an input
  // that an interrupted one left a checkpoint for goes on with that one's chunk size (its
  // chunks are then skipped with --resume, or replayed from their keys without it).
  const chunkSize =
    flags.chunkSize ??
    (at && flags.wait ? interruptedChunkSize(deps.env, at) : undefined) ??
    DEFAULT_CHUNK_SIZE;
  const optionsFingerprint = fingerprint({
    type: plan.objectType,
    columns: plan.columns.map((c) => [c.header, c.def?.slug ?? null]),
    apiOptions: plan.apiOptions,
    emptyAsNull: flags.emptyAsNull,
    arraySep: flags.arraySep,
    dateOrder: flags.dateOrder,
    chunkSize,
    delimiter: plan.delimiter,
    encoding: source.encoding(),
    // What changes the rows' bodies beyond the above, only when given (so the keys of
    // imports that use none stay what they were).
    ...readingFingerprint(plan, flags),
  });
  const { checkpoint, resume } =
    at && flags.wait
      ? openCheckpoint(
          deps.env,
          io,
          {
            ...at,
            file: flags.file,
            fingerprint: optionsFingerprint,
            chunkSize,
            firstLine: header.line + 1,
            now,
            dedupe: plan.apiOptions?.dedupe_by !== undefined,
          },
          flags.resume,
        )
      : { checkpoint: undefined, resume: undefined };
  const files = openRunFiles({
    input: source.path,
    failedFile: flags.failedFile,
    results: flags.results,
    resume,
    headers: header.fields,
    delimiter: plan.delimiter,
    now,
    cwd: deps.cwd,
  });
  if (checkpoint) {
    checkpoint.base.failed_file = files.failedPath;
    checkpoint.base.results_file = files.resultsPath;
    if (!resume) writeCheckpoint(checkpoint.path, checkpoint.base);
  }

  // With --create-missing-options: the select values the rows name that no option has.
  const newOptions = plan.newOptions;

  const requests = new AbortController();
  // Each chunk in flight listens to it (its request, its wait before the next poll, the
  // rate limiter): above Node's default of 10 listeners it would print a leak warning.
  setMaxListeners(flags.concurrency * 3 + 10, requests.signal);
  // Look-ups run under the requests' signal too: the first Ctrl-C stops reading, not them.
  const lookups =
    lookupClient === undefined
      ? undefined
      : new LookupResolver(lookupClient, lookupColumns, flags.arraySep, requests.signal);
  const progress = await io.progress(
    flags.dryRun ? `Checking ${source.label}…` : `Importing ${source.label}…`,
  );
  let engine: ImportEngine | undefined;
  const ticker = startTicker(
    progress,
    () =>
      engine === undefined
        ? undefined
        : {
            label: source.label,
            read: engine.rowsRead,
            sent: engine.counts.sent,
            processed: engine.processedCount,
            failed: engine.counts.failed,
            elapsedMs: monotonicMs() - plan.started,
            bytesRead: source.bytesRead(),
            size: source.size,
            dryRun: flags.dryRun,
          },
    { changesOnly: !io.isStderrTTY },
  );
  engine = new ImportEngine({
    objectType: plan.objectType,
    client,
    events: plan.events,
    first: plan.first,
    hash: plan.hash,
    splitRow: await rowSplitter(plan.delimiter, header.fields.length),
    columns: plan.columns,
    typing: { arraySep: flags.arraySep, dateOrder: flags.dateOrder, newOptions },
    columnTyping: plan.columnTyping,
    emptyAsNull: flags.emptyAsNull,
    keepWhitespace: flags.keepWhitespace,
    dedupe: plan.dedupe,
    lookups,
    apiOptions: plan.apiOptions,
    chunkSize,
    concurrency: flags.concurrency,
    strict: flags.strict,
    dryRun: flags.dryRun,
    wait: flags.wait,
    renewStale:
      plan.apiOptions?.dedupe_by !== undefined
        ? (checkpoint?.base.started_at ?? now.toISOString())
        : undefined,
    // Past the replay window, the checkpoint's salt gives the chunks keys the API has not seen.
    keyFingerprint: keyFingerprint(
      checkpoint?.base.key_salt === undefined
        ? optionsFingerprint
        : `${optionsFingerprint}\n${checkpoint.base.key_salt}`,
      plan.columns,
    ),
    firstLine: header.line + 1,
    stop: deps.signal,
    requestSignal: requests.signal,
    failed: files.failed,
    results: files.results,
    checkpoint,
    resume,
    ...(creds
      ? {
          onJob: jobLedger(deps.env, () => deps.clock.now(), {
            object_type: plan.objectType,
            file: source.path ?? '-',
            base_url: creds.baseUrl,
            team_id: creds.teamId,
          }),
        }
      : {}),
    onStopping: (inFlight) => {
      ticker.stop();
      io.warn(
        inFlight > 0
          ? `Stopping: waiting for ${inFlight} chunk${inFlight === 1 ? '' : 's'} in flight to finish (Ctrl-C again to abandon ${inFlight === 1 ? 'it' : 'them'}).`
          : 'Stopping.',
      );
    },
  });
  // A second Ctrl-C abandons the chunks in flight; the summary and the command that
  // resumes still follow (a third leaves at once).
  const releaseAbandon = deps.onAbandon(() => {
    const inFlight = engine.inFlightCount;
    if (inFlight > 0)
      io.warn(
        `Abandoning ${inFlight} chunk${inFlight === 1 ? '' : 's'} in flight; --resume sends ${inFlight === 1 ? 'its' : 'their'} rows again (rows the service took are not created twice).`,
      );
    requests.abort(new InterruptedError('Abandoned.'));
  });
  let report: EngineReport;
  try {
    report = await engine.run();
  } catch (err) {
    releaseAbandon();
    ticker.stop();
    await files.close();
    // Rows sent more than 24 hours ago: neither --resume nor a re-run can send them (the
    // same keys would be as stale), so nothing is kept to resume; --dedupe-by is the way on.
    if (checkpoint && err instanceof StaleChunkError) removeCheckpoint(checkpoint.path);
    else if (checkpoint && !resume && !engine.reachedService) {
      // Refused before any row was taken (a dead address, a refused key): there is nothing
      // to resume, and a run of the same command starts afresh.
      removeCheckpoint(checkpoint.path);
      io.info('Nothing was imported.');
    } else if (checkpoint && existsSync(checkpoint.path) && !(err instanceof UsageError)) {
      io.info(
        `Stopped after ${thousands(engine.counts.read)} rows; the rest can be imported with:\n  ${flags.command} --resume`,
      );
    }
    throw err;
  }
  releaseAbandon();
  ticker.stop();
  await files.close();
  files.removeStaleFailedFile();
  return {
    report,
    status: report.interrupted ? 'interrupted' : report.pending > 0 ? 'started' : 'complete',
    failedFile: files.failedFile.bytes > 0 ? files.failedPath : undefined,
    resultsFile: files.resultsPath,
    resumeCommand: report.interrupted ? `${flags.command} --resume` : null,
    ...(newOptions === undefined ? {} : { newOptions: newOptions.list() }),
    ...(lookups === undefined ? {} : { lookupQueries: lookups.queries }),
  };
}

/**
 * What decides the rows' bodies besides the columns and options: how cells are read as
 * the flags and a mapping file say, the dedupe choices and the look-ups. Only what is
 * given enters the fingerprint: what the file's own cells show is a function of its
 * content (which the keys hold already), so an import of the same file keeps the keys it
 * had before these settings existed, and a re-run replays its chunks.
 */
function readingFingerprint(plan: SendPlan, flags: SendFlags): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (flags.keepWhitespace) out.keepWhitespace = true;
  if (plan.readingSettings !== undefined && Object.keys(plan.readingSettings).length > 0)
    out.readings = plan.readingSettings;
  const d = plan.dedupe;
  if (d && (d.onDuplicate !== 'fail' || d.allowMissing))
    out.dedupe = [d.onDuplicate, d.allowMissing];
  const lookups = plan.columns.flatMap((c) => (c.lookup ? [[c.index, c.lookup]] : []));
  if (lookups.length > 0) out.lookups = lookups;
  return out;
}
