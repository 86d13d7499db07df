// `ws import status JOB [--wait [--timeout S]]`: one import job, or wait for its end.
import { getImportJob, type ImportJob } from '../../api/imports.ts';
import {
  ApiError,
  NotFoundError,
  PartialFailureError,
  WaitTimeoutError,
  WsError,
} from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { waitForJob } from '../../import/send.ts';
import type { Column } from '../../output/format.ts';
import { thousands } from '../../output/plural.ts';
import { renderObject } from '../../output/render.ts';

export interface StatusOpts {
  job: string;
  wait: boolean;
  timeoutSeconds: number | undefined;
}

const COLUMNS: Column<ImportJob>[] = [
  { key: 'job_id' },
  { key: 'status' },
  { key: 'total' },
  { key: 'processed' },
  { key: 'succeeded' },
  { key: 'failed' },
  { key: 'created_at' },
  { key: 'updated_at' },
  { key: 'expires_at' },
  { key: 'error', get: (j) => (j.error ? `${j.error.code}: ${j.error.message}` : null) },
];

export async function run(opts: StatusOpts, deps: Deps): Promise<void> {
  const client = await deps.client();
  let job: ImportJob;
  try {
    if (opts.wait) {
      const progress = await deps.io.progress(`Waiting for import job ${opts.job}…`);
      const deadline =
        opts.timeoutSeconds === undefined ? undefined : Date.now() + opts.timeoutSeconds * 1000;
      try {
        job = await waitForJob(client, opts.job, {
          signal: deps.signal,
          firstDelayMs: 0,
          ...(deadline === undefined ? {} : { deadline }),
          onPoll: (j) =>
            progress.update(
              `Waiting for import job ${opts.job}: ${thousands(j.processed)} of ${thousands(j.total)} rows processed`,
            ),
        });
      } finally {
        progress.stop();
      }
    } else {
      job = await getImportJob(client, opts.job, { signal: deps.signal });
    }
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      throw new NotFoundError(
        err.message,
        'Import jobs are kept for 7 days; `ws import jobs` lists the ones started from here.',
      );
    }
    throw err;
  }
  await renderObject(deps.io, job, COLUMNS, {
    format: deps.format,
    fields: deps.fields,
    json: (j) => j,
  });
  if (job.status === 'processing' && opts.wait) {
    throw new WaitTimeoutError(
      `Import job ${opts.job} is still processing after ${opts.timeoutSeconds} seconds (${job.processed} of ${job.total} rows).`,
      `Keep waiting with: ws import status ${opts.job} --wait`,
    );
  }
  if (job.status === 'failed') {
    throw new WsError(
      `Import job ${opts.job} failed: ${job.error?.message ?? 'no reason given'}${job.error?.code ? ` (${job.error.code})` : ''}.`,
      { code: 'job_failed' },
    );
  }
  if (job.status === 'complete' && job.failed > 0) {
    const failures = (job.results ?? []).filter((r) => r.error).slice(0, 10);
    if (deps.format !== 'json' && deps.format !== 'ndjson' && !deps.io.quiet) {
      for (const r of failures)
        deps.io.stderr.write(`  row ${r.input_index}: ${r.error!.message} (${r.error!.code})\n`);
    }
    throw new PartialFailureError(
      `${job.failed} of ${job.total} rows of import job ${opts.job} failed.`,
      job.failed,
      job.total,
      'Row numbers are positions in the job (from 0); `ws import status JOB --json` gives every result.',
    );
  }
}
