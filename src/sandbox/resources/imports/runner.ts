// The background work of asynchronous imports: steps of the processing jobs' rows, oldest
// job first, each sized to take about STEP_MS with the automation runs its rows start, one
// after the other with the event loop's turn between them (setImmediate): the requests that
// arrived meanwhile (polls, new imports) are answered between two steps, and no time is lost
// waiting on a timer. A step runs synchronously, so the store (and the data file written
// from it) never holds half a step: a job's results and its records always agree, and a job
// restored from a data file resumes exactly where it stopped.
//
// The work is driven by the store's state: a step finds the processing jobs in the imports
// slice, so reset() (no jobs left) stops it and a restored snapshot (new job objects)
// continues it. The scheduled step keeps the event loop turning while a job is processing
// (an unref'd step did not: the loop then slept until the next request arrived, and a job
// moved on only at the client's polls); stop() ends it when the sandbox closes.

import { withCause } from '../../cause.ts';
import { perStore, type Store } from '../../store.ts';
import { type ImportJob, type ImportsModel, importsOf } from './model.ts';
import { importRange, RowImporter } from './rows.ts';

/** Rows per step at the most (a poll between two steps sees `processed` grow by this much). */
export const STEP_ROWS = 500;
/**
 * The time a step may take, with the automation runs its rows start (they start in the same
 * turn of the event loop, once the step's writes are done). The rows of the next step are
 * sized from the last step's time, so a job whose rows each fire 50 automations takes a
 * few rows a step, and one that fires none, STEP_ROWS.
 */
const STEP_MS = 8;

/** The runner of `store`'s import jobs. */
export const runnerOf = perStore((store) => new ImportRunner(store));

export class ImportRunner {
  private readonly store: Store;
  private readonly importers = new WeakMap<ImportJob, RowImporter>();
  private timer: NodeJS.Immediate | undefined;
  /** A step's work is under way: the next step waits for it. */
  private waiting = false;
  private stopped = false;
  /** Rows of the next step: sized from the last step's time (see STEP_MS). */
  private rows = STEP_ROWS;

  constructor(store: Store) {
    this.store = store;
  }

  /**
   * Make sure a step is scheduled while any job is processing. The next step waits for the
   * work this one's rows started (automation steps, webhook deliveries: work.ts), so an
   * import never runs ahead of its automations.
   */
  kick(): void {
    if (this.stopped || this.waiting || this.timer !== undefined) return;
    if (this.model.processing().length === 0) return;
    this.timer = setImmediate(() => {
      this.timer = undefined;
      this.waiting = true;
      void this.store.work
        .within(() => this.timedStep())
        .finally(() => {
          this.waiting = false;
          this.kick();
        });
    });
  }

  /** Stop for good (the sandbox is closing); a job still processing stays so in the store. */
  stop(): void {
    this.stopped = true;
    clearImmediate(this.timer);
    this.timer = undefined;
  }

  /**
   * A step, timed with the runs its rows started (they start in a microtask the step's first
   * write queued, which runs before this one's `await` resumes): the next step's rows are
   * sized to take about STEP_MS.
   */
  private async timedStep(): Promise<void> {
    const started = performance.now();
    const attempted = this.step(this.rows);
    await undefined;
    const perRow = (performance.now() - started) / Math.max(1, attempted);
    this.rows = Math.max(1, Math.min(STEP_ROWS, Math.floor(STEP_MS / Math.max(perRow, 1e-3))));
  }

  /** One step: up to `rows` rows, oldest job first; returns how many were attempted. */
  private step(rows: number): number {
    let budget = rows;
    for (const job of this.model.processing()) {
      if (budget <= 0) break;
      budget -= this.advance(job, budget);
    }
    return rows - budget;
  }

  private get model(): ImportsModel {
    return importsOf(this.store);
  }

  /** Attempt up to `budget` rows of `job`; returns how many were attempted. */
  private advance(job: ImportJob, budget: number): number {
    const model = this.model;
    const input = job.input!;
    let importer = this.importers.get(job);
    if (importer === undefined) {
      importer = new RowImporter(this.store, job.team_id, job.object_type, input.options);
      this.importers.set(job, importer);
    }
    const end = Math.min(job.total, job.processed + budget);
    // The records the rows write are the job's doing (the activity log reads it).
    const { results, error } = withCause({ kind: 'import', jobId: job.job_id }, () =>
      importRange(importer, input.objects, job.processed, end),
    );
    model.recordRows(job, results);
    if (error !== undefined) model.fail(job, error);
    if (job.status !== 'processing') importer.finish();
    return results.length;
  }
}
