// The end of an import: its summary (the --json document, and what people read on
// stderr), and the error that gives the exit code when rows failed (5) or the import was
// interrupted (130).
import { InterruptedError, PartialFailureError } from '../errors.ts';
import { thousands } from '../output/plural.ts';
import type { SummaryView } from '../output/summary.ts';
import { shellWord } from '../util/shell.ts';
import { formatDuration } from '../util/time.ts';
import type { EngineReport } from './engine.ts';
import { rate } from './progress.ts';

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
  /** Rows that matched a record and left it as it was (with --no-update: every match). */
  unchanged: number;
  failed: number;
  /** False with --no-update: matched records were left as they were. */
  update_existing: boolean;
  /**
   * With --create-missing-options: the options the rows sent named and their property did
   * not have, which the import created (in a dry run: would create); else absent.
   */
  new_options?: { property: string; value: string }[];
  pending: number;
  blank: number;
  failed_file: string | null;
  results_file: string | null;
  jobs: string[];
  duration_ms: number;
  rows_per_second: number;
  resume_command: string | null;
}

/** How an import ended. */
export interface ImportEnd {
  /** The API's name of the object type. */
  objectType: string;
  /** The input as typed ("-" for stdin), and its absolute path. */
  file: string;
  path: string | undefined;
  dryRun: boolean;
  status: ImportSummary['status'];
  report: EngineReport;
  durationMs: number;
  /** The time the rows took (from the end of the mapping), for the rate. */
  rateMs?: number;
  /** The failed-rows file, when rows went into it. */
  failedFile: string | undefined;
  resultsFile: string | undefined;
  resumeCommand: string | null;
  /** The command's words for another file, to import the failed rows with the same flags. */
  again?: { head: string[]; args: string[] };
  /** --no-update was given. */
  noUpdate?: boolean;
  /** With --create-missing-options: the options created (or, in a dry run, to create). */
  newOptions?: { property: string; value: string }[] | undefined;
}

export function importSummary(end: ImportEnd): ImportSummary {
  const c = end.report.counts;
  const ms = Math.round(end.durationMs);
  return {
    object_type: end.objectType,
    file: end.path ?? '-',
    dry_run: end.dryRun,
    status: end.status,
    rows: c.read,
    ...(end.dryRun ? { valid: c.read - c.failed } : {}),
    sent: c.sent,
    created: c.created,
    updated: c.updated,
    unchanged: c.unchanged,
    failed: c.failed,
    update_existing: end.noUpdate !== true,
    ...(end.newOptions === undefined ? {} : { new_options: end.newOptions }),
    pending: end.report.pending,
    blank: c.blank,
    failed_file: end.failedFile ?? null,
    results_file: end.resultsFile ?? null,
    jobs: end.report.jobs,
    duration_ms: ms,
    rows_per_second: rate(c.read, Math.round(end.rateMs ?? end.durationMs)),
    resume_command: end.resumeCommand,
  };
}

/** The input as messages name it. */
function label(end: ImportEnd): string {
  return end.file === '-' ? 'stdin' : end.file;
}

/** What people read on stderr: the headline, the counts, and the first failures. */
export function summaryView(s: ImportSummary, end: ImportEnd): SummaryView {
  const n = thousands;
  const file = label(end);
  const took = `${formatDuration(s.duration_ms)}${s.rows > 0 ? `, ${n(s.rows_per_second)} rows/s` : ''}`;
  const failedNote = s.failed_file ? `→ ${s.failed_file}` : '';
  const firstErrors = end.report.firstErrors;
  const notes: string[] = [];
  if (s.blank > 0) notes.push(`(${n(s.blank)} blank line${s.blank === 1 ? '' : 's'} skipped)`);
  if (s.results_file) notes.push(`every row's outcome: ${s.results_file}`);
  if (s.new_options !== undefined && s.new_options.length > 0) {
    const which = s.new_options.map((o) => `${o.property}: ${o.value}`).join(', ');
    const count = `${n(s.new_options.length)} option${s.new_options.length === 1 ? '' : 's'}`;
    notes.push(s.dry_run ? `${count} would be created (${which})` : `${count} new (${which})`);
  }
  const list = {
    title: s.dry_run ? 'First problems' : 'First failures',
    items: firstErrors.map((f) => ({
      text: `line ${f.line}: ${f.message.replace(/^line \d+(-\d+)?: /, '')}`,
      tag: f.code,
    })),
    more: s.failed - firstErrors.length,
  };
  if (s.dry_run) {
    return {
      ok: s.failed === 0,
      headline: `Checked ${file} against the ${s.object_type} properties in ${took}; nothing was sent.`,
      counts: [
        { label: 'rows', value: s.rows },
        { label: 'valid', value: s.valid ?? 0 },
        { label: 'invalid', value: s.failed, note: failedNote },
      ],
      notes,
      list,
    };
  }
  const verb =
    s.status === 'interrupted'
      ? 'Stopped importing'
      : s.status === 'started'
        ? 'Started importing'
        : 'Imported';
  const jobs = s.jobs.length;
  return {
    ok: s.failed === 0 && s.status === 'complete',
    headline: `${verb} ${file} into ${s.object_type} in ${took}.`,
    counts: [
      { label: 'rows', value: s.rows },
      { label: 'created', value: s.created },
      { label: 'updated', value: s.updated },
      {
        label: s.update_existing ? 'unchanged' : 'existing, left unchanged',
        value: s.unchanged,
      },
      { label: 'failed', value: s.failed, note: failedNote },
      ...(s.pending > 0
        ? [
            {
              label: 'pending',
              value: s.pending,
              note: `in ${jobs} job${jobs === 1 ? '' : 's'}: ws import status JOB --wait`,
            },
          ]
        : []),
    ],
    notes,
    list,
  };
}

/** The error that ends an import that was interrupted or had failed rows; else undefined. */
export function endError(s: ImportSummary, end: ImportEnd): Error | undefined {
  const file = label(end);
  if (s.status === 'interrupted') {
    return new InterruptedError(
      `Interrupted: ${thousands(s.rows)} rows of ${file} were done.`,
      `Resume with: ${end.resumeCommand}`,
    );
  }
  if (s.failed > 0) {
    const what = s.dry_run ? 'are not valid' : 'failed';
    return new PartialFailureError(
      `${thousands(s.failed)} of ${thousands(s.rows)} rows ${what}${end.failedFile ? `; they are in ${end.failedFile}` : ''}.`,
      s.failed,
      s.rows,
      end.failedFile
        ? `Fix them there and import that file: ${againCommand(end, end.failedFile)}`
        : undefined,
    );
  }
  return undefined;
}

/** This import's command run on `file`, as a shell would read it. */
function againCommand(end: ImportEnd, file: string): string {
  const again = end.again ?? { head: ['ws', 'import', end.objectType], args: [] };
  return [...again.head, file, ...again.args].map(shellWord).join(' ');
}
