// The end of an import (src/import/summary.ts, src/output/summary.ts) and its progress
// ticker: the --json document, the lines people read, the error that sets the exit code.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExitCode, InterruptedError, PartialFailureError } from '../../src/errors.ts';
import type { EngineReport } from '../../src/import/engine.ts';
import { startTicker } from '../../src/import/progress.ts';
import { zeroCounts } from '../../src/import/state.ts';
import { endError, type ImportEnd, importSummary, summaryView } from '../../src/import/summary.ts';
import type { Progress } from '../../src/io/streams.ts';
import { printSummary } from '../../src/output/summary.ts';
import { testIO } from '../helpers/io.ts';

function end(
  over: Partial<ImportEnd> & { counts?: Partial<EngineReport['counts']> } = {},
): ImportEnd {
  const { counts, ...rest } = over;
  return {
    objectType: 'contact',
    file: 'people.csv',
    path: '/data/people.csv',
    dryRun: false,
    status: 'complete',
    durationMs: 2000,
    failedFile: undefined,
    resultsFile: undefined,
    resumeCommand: null,
    ...rest,
    report: {
      jobs: [],
      processed: 0,
      firstErrors: [],
      interrupted: false,
      pending: 0,
      ...over.report,
      counts: { ...zeroCounts(), ...counts },
    },
  };
}

function printed(e: ImportEnd): string {
  const t = testIO();
  printSummary(t.io, summaryView(importSummary(e), e));
  return t.stderr();
}

describe('the summary of an import', () => {
  it('the --json document', () => {
    const e = end({ counts: { read: 10, sent: 10, created: 8, updated: 2, blank: 1 } });
    assert.deepEqual(importSummary(e), {
      object_type: 'contact',
      file: '/data/people.csv',
      dry_run: false,
      status: 'complete',
      rows: 10,
      sent: 10,
      created: 8,
      updated: 2,
      unchanged: 0,
      failed: 0,
      update_existing: true,
      pending: 0,
      blank: 1,
      trimmed: 0,
      skipped: 0,
      duplicate_keys: 0,
      missing_keys: 0,
      footer_lines: 0,
      failed_file: null,
      results_file: null,
      jobs: [],
      duration_ms: 2000,
      rows_per_second: 5,
      resume_command: null,
    });
    assert.equal(importSummary(end({ dryRun: true, counts: { read: 4, failed: 1 } })).valid, 3);
    // --no-update and --create-missing-options: their fields, and the summary's words.
    const kept = end({ noUpdate: true, newOptions: [{ property: 'tier', value: 'Gold' }] });
    assert.equal(importSummary(kept).update_existing, false);
    assert.deepEqual(importSummary(kept).new_options, [{ property: 'tier', value: 'Gold' }]);
    assert.match(printed(kept), /existing, left unchanged +0\n/);
    assert.match(printed(kept), /1 option new \(tier: Gold\)/);
    assert.equal(endError(importSummary(e), e), undefined);
  });

  it('a dry run with problems: the counts, the first problems and how many more', () => {
    const e = end({
      dryRun: true,
      failedFile: '/data/people.failed.csv',
      counts: { read: 1200, failed: 12, blank: 2 },
      report: {
        ...end().report,
        firstErrors: [
          {
            line: 3,
            fields: [],
            raw: '',
            code: 'invalid_value',
            message: 'line 3: score: "two" is not a number',
          },
        ],
      },
    });
    assert.equal(
      printed(e),
      [
        '! Checked people.csv against the contact properties in 2.0s, 600 rows/s; nothing was sent.',
        '  rows           1,200',
        '  valid          1,188',
        '  invalid           12  → /data/people.failed.csv',
        '  (2 blank lines skipped)',
        'First problems:',
        '  line 3: score: "two" is not a number (invalid_value)',
        '  … and 11 more',
        '',
      ].join('\n'),
    );
    const err = endError(importSummary(e), e);
    assert.ok(err instanceof PartialFailureError);
    assert.equal(
      err.message,
      '12 of 1,200 rows are not valid; they are in /data/people.failed.csv.',
    );
    assert.equal(err.exitCode, ExitCode.partial);
  });

  it('an import left running (--no-wait), and one interrupted', () => {
    const started = end({
      status: 'started',
      resultsFile: '/data/r.ndjson',
      counts: { read: 5000, sent: 5000 },
      report: { ...end().report, jobs: ['job_1', 'job_2'], pending: 5000 },
    });
    assert.equal(
      printed(started),
      [
        '! Started importing people.csv into contact in 2.0s, 2,500 rows/s.',
        '  rows           5,000',
        '  created            0',
        '  updated            0',
        '  unchanged          0',
        '  failed             0',
        '  pending        5,000  in 2 jobs: ws import status JOB --wait',
        "  every row's outcome: /data/r.ndjson",
        '',
      ].join('\n'),
    );
    const stopped = end({
      file: '-',
      path: undefined,
      status: 'interrupted',
      resumeCommand: 'ws import contact - --resume',
      counts: { read: 300 },
    });
    assert.match(printed(stopped), /^! Stopped importing stdin into contact in 2\.0s/);
    const err = endError(importSummary(stopped), stopped);
    assert.ok(err instanceof InterruptedError);
    assert.equal(err.message, 'Interrupted: 300 rows of stdin were done.');
    assert.equal(err.hint, 'Resume with: ws import contact - --resume');
  });

  it('prints nothing with --quiet', () => {
    const t = testIO();
    t.io.configure({ color: false, quiet: true, debug: false, yes: false, noInput: false });
    const e = end({ counts: { read: 1, created: 1 } });
    printSummary(t.io, summaryView(importSummary(e), e));
    assert.equal(t.stderr(), '');
  });
});

describe('the progress ticker', () => {
  it('stops once: the progress line is taken away on the first stop only', () => {
    let stops = 0;
    const progress: Progress = {
      update() {},
      succeed() {},
      fail() {},
      stop() {
        stops++;
      },
    };
    const ticker = startTicker(progress, () => undefined);
    ticker.stop();
    ticker.stop();
    assert.equal(stops, 1);
  });
});
