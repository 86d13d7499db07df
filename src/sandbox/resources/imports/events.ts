// What the imports resource announces on the event spine (src/sandbox/events.ts): a job
// started, each step of its rows, and its end; and a synchronous import (fewer than 100
// objects, answered in the request) once it is done. The records the rows write are
// announced by the records model as usual (`source: 'import'`). Emitted only when someone
// listens (the activity log of the console).

import { defineEvent } from '../../events.ts';

interface ImportError {
  readonly code: string;
  readonly message: string;
}

/** A job as its events show it (the model's ImportJob, live: read it when you need it). */
export interface ImportJobState {
  readonly job_id: string;
  readonly team_id: string;
  readonly object_type: string;
  readonly status: 'processing' | 'complete' | 'failed';
  readonly total: number;
  readonly processed: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly error: ImportError | null;
}

/** A row of a step that failed: its place in the file and why. */
export interface FailedRow {
  readonly input_index: number;
  readonly error: ImportError;
}

export type ImportEvent =
  | {
      /** An asynchronous job was created (processing, no row attempted yet). */
      readonly type: 'import.started';
      /** The job itself: later events tell of its changes. */
      readonly job: ImportJobState;
    }
  | {
      /** A step attempted rows of the job (`job.processed` counts them); `failed` are its failures. */
      readonly type: 'import.progressed';
      readonly job: ImportJobState;
      readonly failed: readonly FailedRow[];
    }
  | {
      /** The job ended: complete, or failed with a job-level error. */
      readonly type: 'import.finished';
      readonly job: ImportJobState;
    }
  | {
      /** A synchronous import, answered in its request (it keeps no job). */
      readonly type: 'import.completed_now';
      readonly teamId: string;
      readonly objectType: string;
      readonly total: number;
      readonly succeeded: number;
      readonly failed: readonly FailedRow[];
      readonly error: ImportError | undefined;
    };

export const importEvents = defineEvent<ImportEvent>('import');

/** The failed rows among `results`. */
export function failedRows(
  results: readonly { input_index: number; error?: ImportError }[],
): FailedRow[] {
  const failed: FailedRow[] = [];
  for (const r of results) {
    if (r.error !== undefined) failed.push({ input_index: r.input_index, error: r.error });
  }
  return failed;
}
