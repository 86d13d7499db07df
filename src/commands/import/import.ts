// `ws import TYPE FILE|-` (and `ws import validate`, which is the same with --dry-run):
// the options, then the run: read the header, plan the columns, send the rows, report.
// Each step lives in src/import/: columns.ts, run.ts (checkpoint, files, progress, the
// engine) and summary.ts, printed by src/output/summary.ts.
import { bulkRecordType } from '../../api/object-types.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import {
  type ApiOptionFlags,
  apiOptionsFor,
  type ColumnFlags,
  columnReadings,
  planColumns,
  type ReadingFlags,
  saveMapping,
} from '../../import/columns.ts';
import { delimiterName } from '../../import/delimiter.ts';
import { type DedupeCheck, emptyReport } from '../../import/engine.ts';
import { openInput } from '../../import/input.ts';
import { RunningHash } from '../../import/keys.ts';
import { parseLocale } from '../../import/locale.ts';
import { readMapFile } from '../../import/mapping.ts';
import { readCsv, readHeader } from '../../import/reader.ts';
import { readingNotes } from '../../import/reading.ts';
import { type SendFlags, type SendOutcome, sendRows } from '../../import/run.ts';
import { withRetries } from '../../import/send.ts';
import {
  decided,
  dedupeCheck,
  fileSettings,
  givenReadings,
  savedFileSettings,
} from '../../import/settings.ts';
import { endError, type ImportEnd, importSummary, summaryView } from '../../import/summary.ts';
import { NewOptions } from '../../import/typing.ts';
import { printSummary } from '../../output/summary.ts';
import { timedPrompter } from '../../prompt/prompter.ts';
import { definitionsFor } from '../../schema/definitions.ts';
import { invalidateDefinitions } from '../../schema/definitions-cache.ts';
import { monotonicMs } from '../../util/time.ts';

/**
 * The options of `ws import`: how the input is read, the flags of its columns and of the
 * API's options (src/import/columns.ts), how cells are read, and how the rows are sent
 * (src/import/run.ts).
 */
export interface ImportOpts extends ColumnFlags, ApiOptionFlags, SendFlags, ReadingFlags {
  delimiter: string | undefined;
  encoding: string | undefined;
  /** --header-line N: the line that names the columns (default: detected). */
  headerLine?: number | undefined;
  /** --on-duplicate: what a dedupe key repeated in the file does (default fail). */
  onDuplicate?: DedupeCheck['onDuplicate'] | undefined;
  /** --allow-missing-key: rows without a dedupe key are sent. */
  allowMissingKey?: boolean | undefined;
}

export async function run(opts: ImportOpts, deps: Deps): Promise<void> {
  const { io } = deps;
  const type = bulkRecordType(opts.type, 'import');
  if (opts.file === '-' && io.isStdinTTY) {
    throw new UsageError(
      'ws import reads the CSV from stdin with "-", and nothing is piped in.',
      'Pipe a file in (ws import contacts - < people.csv) or give its path.',
    );
  }
  const started = monotonicMs();
  // The summary times the import, not the answers to the mapping's questions.
  const asking = timedPrompter(deps.prompter);
  const mapFile = opts.mapFile === undefined ? undefined : readMapFile(opts.mapFile);
  const file = fileSettings(opts, mapFile);
  // Checked before anything is read: a wrong tag is a usage error, not a failed row.
  if (opts.locale !== undefined) parseLocale(opts.locale);
  if (file.locale !== undefined) parseLocale(file.locale, `The mapping file's "locale"`);
  const source = openInput(opts.file, io.stdin, file.encoding, deps.cwd);
  const label = source.path === undefined ? 'stdin' : opts.file;
  let delimiter = file.delimiter ?? ',';
  const hash = new RunningHash();
  // What was detected, said once: with the reading line when it is known by then.
  let said = false;
  source.onDetect = (encoding, why) => {
    if (said) io.info(`Reading ${label} as ${encoding}: ${why}.`);
  };
  const events = readCsv(source.bytes(), {
    delimiter: file.delimiter,
    headerLine: file.header_line,
    onDelimiter: (d) => {
      delimiter = d;
    },
  });
  try {
    const { header, first, preamble } = await readHeader(events, hash, label);
    if (file.delimiter === undefined) io.debug(`delimiter: ${delimiterName(delimiter)}`);
    const defs = await withRetries(
      () => definitionsFor(deps, type, { listId: opts.listId }),
      deps.signal,
    );
    const { columns, save } = await planColumns(
      opts,
      {
        io,
        prompter: asking.prompter,
        cwd: deps.cwd,
        path: source.path,
        mapFile,
        targetDefs: (t) => withRetries(() => definitionsFor(deps, t), deps.signal),
      },
      header.fields,
      defs,
    );
    const apiOptions = apiOptionsFor(opts, defs, columns, type);
    const newOptions = apiOptions?.create_missing_options === true ? new NewOptions() : undefined;
    const readings = columnReadings(opts, file, columns, first, newOptions);
    // Before a saved mapping adds what the file showed to the columns' settings.
    const given = givenReadings(opts, file, columns);
    if (save !== undefined) {
      for (const [i, kept] of readings.saved)
        columns[i]!.settings = { ...columns[i]!.settings, ...kept };
      saveMapping(io, save, columns, savedFileSettings(opts, file, delimiter, header.line));
    }
    const dedupe = dedupeCheck(opts, columns, apiOptions?.dedupe_by as string | undefined);
    const notes = readingNotes({
      label,
      source,
      delimiter,
      delimiterGiven: file.delimiter !== undefined,
      header,
      headerGiven: file.header_line !== undefined,
      preamble,
      evidence: readings.evidence,
      typing: readings.typing,
    });
    if (notes.length > 0) io.info(`Reading ${label}: ${notes.join('; ')}.`);
    said = true;
    // The progress line's rate and time left count from here.
    const sending = monotonicMs();
    let outcome: SendOutcome;
    if (first.every((e) => e.kind !== 'row' && e.kind !== 'broken')) {
      io.info(`${label} has a header but no rows: there is nothing to import.`);
      outcome = {
        report: emptyReport(),
        status: 'empty',
        failedFile: undefined,
        resultsFile: undefined,
        resumeCommand: null,
      };
    } else {
      outcome = await sendRows(
        opts,
        {
          objectType: type,
          source,
          events,
          header,
          first,
          hash,
          delimiter,
          columns,
          apiOptions,
          columnTyping: readings.typing,
          readingSettings: given,
          dedupe,
          newOptions,
          started: sending,
        },
        deps,
      );
      // Options the import created: the cached definitions of the type lack them.
      if (!opts.dryRun && (outcome.newOptions?.length ?? 0) > 0) {
        await invalidateDefinitions(deps, type);
      }
    }
    report(opts, deps, {
      ...outcome,
      objectType: type,
      file: opts.file,
      path: source.path,
      dryRun: opts.dryRun,
      noUpdate: opts.noUpdate === true,
      durationMs: monotonicMs() - started - asking.waitedMs(),
      again: opts.again,
      reading: {
        encoding: source.encoding(),
        delimiter,
        header_line: header.line,
        preamble_lines: preamble.map((p) => p.line),
        decimal_mark: decided(readings.typing, (t) => t.numbers?.decimal),
        date_order: decided(readings.typing, (t) => t.dateOrder),
        detected: notes,
      },
    });
  } finally {
    void events.return(undefined);
  }
}

/** Print how the import ended (the --json document, or the summary on stderr), then end it. */
function report(opts: ImportOpts, deps: Deps, end: ImportEnd): void {
  const summary = importSummary(end);
  if (deps.format === 'json' || deps.format === 'ndjson') {
    deps.io.println(JSON.stringify(summary, null, deps.format === 'json' ? 2 : undefined));
  } else {
    if (!opts.wait) for (const j of summary.jobs) deps.io.println(j);
    printSummary(deps.io, summaryView(summary, end));
  }
  const err = endError(summary, end);
  if (err) throw err;
}
