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
  planColumns,
} from '../../import/columns.ts';
import { delimiterName } from '../../import/delimiter.ts';
import { emptyReport } from '../../import/engine.ts';
import { openInput } from '../../import/input.ts';
import { RunningHash } from '../../import/keys.ts';
import { readCsv, readHeader } from '../../import/reader.ts';
import { type SendFlags, type SendOutcome, sendRows } from '../../import/run.ts';
import { withRetries } from '../../import/send.ts';
import { endError, type ImportEnd, importSummary, summaryView } from '../../import/summary.ts';
import { printSummary } from '../../output/summary.ts';
import { definitionsFor } from '../../schema/definitions.ts';
import { invalidateDefinitions } from '../../schema/definitions-cache.ts';
import { monotonicMs } from '../../util/time.ts';

/**
 * The options of `ws import`: how the input is read, the flags of its columns and of the
 * API's options (src/import/columns.ts), and how the rows are sent (src/import/run.ts).
 */
export interface ImportOpts extends ColumnFlags, ApiOptionFlags, SendFlags {
  delimiter: string | undefined;
  encoding: string | undefined;
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
  const source = openInput(opts.file, io.stdin, opts.encoding, deps.cwd);
  const label = source.path === undefined ? 'stdin' : opts.file;
  let delimiter = opts.delimiter ?? ',';
  const hash = new RunningHash();
  const events = readCsv(source.bytes(), {
    delimiter: opts.delimiter,
    onDelimiter: (d) => {
      delimiter = d;
    },
  });
  try {
    const { header, first } = await readHeader(events, hash, label);
    if (opts.delimiter === undefined) io.debug(`delimiter: ${delimiterName(delimiter)}`);
    const defs = await withRetries(
      () => definitionsFor(deps, type, { listId: opts.listId }),
      deps.signal,
    );
    const columns = await planColumns(
      opts,
      { io, prompter: deps.prompter, cwd: deps.cwd, path: source.path },
      header.fields,
      defs,
    );
    const apiOptions = apiOptionsFor(opts, defs, columns, type);
    // The rate and the time left count from here: not the time spent answering the
    // mapping's questions at a terminal.
    const sending = monotonicMs();
    let outcome: SendOutcome;
    if (first.length === 0) {
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
      durationMs: monotonicMs() - started,
      rateMs: monotonicMs() - sending,
      again: opts.again,
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
