// What batch-update and batch-delete share: chunks of 100 sent several at once, progress
// on stderr, the failed items as a table on stderr, every result as NDJSON with --report,
// per-item results on stdout for scripts, and exit 5 when any item failed.
import type { ApiClient } from '../../api/client.ts';
import type { RecordType } from '../../api/object-types.ts';
import type { MutateOptions } from '../../api/records.ts';
import {
  CHUNK_SIZE,
  type ChunkContext,
  type ItemResult,
  runChunks,
  type SentItem,
} from '../../bulk/chunks.ts';
import { checkReportPath, failureLines, reportLine, writeReport } from '../../bulk/report.ts';
import { PartialFailureError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { thousands } from '../../output/plural.ts';
import { createRowWriter } from '../../output/render.ts';
import { plural } from './shared.ts';

export interface BatchFlags {
  /** Chunks in flight at once. */
  concurrency?: number | undefined;
  /** Write every result to this file as NDJSON. */
  report?: string | undefined;
}

export { MAX_CONCURRENCY } from './limits.ts';

export interface BatchRun<I> {
  type: RecordType;
  verb: 'update' | 'delete';
  items: readonly I[];
  idOf(item: I): string;
  /** One call of the batch endpoint for a chunk. */
  call(
    client: ApiClient,
    type: RecordType,
    chunk: I[],
    opts: MutateOptions,
  ): Promise<{ results: readonly SentItem[] }>;
}

const resultColumns: Column<ItemResult>[] = [
  { key: 'index', align: 'right' },
  { key: 'id' },
  { key: 'status' },
  { key: 'code', get: (r) => r.error?.code ?? null },
  { key: 'message', get: (r) => r.error?.message ?? null },
];

function retriesOf(deps: Deps): number {
  const n = Number(deps.flags.retries ?? 3);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : 3;
}

export async function runBatch<I>(run: BatchRun<I>, flags: BatchFlags, deps: Deps): Promise<void> {
  const { type, verb } = run;
  if (flags.report !== undefined) await checkReportPath(flags.report);
  const total = run.items.length;
  const doing = verb === 'update' ? 'Updating' : 'Deleting';
  const progress = await deps.io.progress(`${doing} ${plural(total, type)}…`);
  let outcome: Awaited<ReturnType<typeof runChunks<I>>>;
  const send = (client: ApiClient) => async (chunk: readonly I[], ctx: ChunkContext) =>
    (
      await run.call(client, type, [...chunk], {
        idempotencyKey: ctx.idempotencyKey,
        signal: ctx.signal,
      })
    ).results;
  try {
    const client = await deps.client();
    outcome = await runChunks({
      items: run.items,
      size: CHUNK_SIZE,
      concurrency: flags.concurrency,
      retries: retriesOf(deps),
      send: send(client),
      idOf: run.idOf,
      signal: deps.signal,
      onProgress: (p) =>
        progress.update(
          `${doing} ${type} records: ${thousands(p.done)}/${thousands(p.total)}` +
            (p.failed > 0 ? ` (${thousands(p.failed)} failed)` : ''),
        ),
    });
  } catch (err) {
    progress.fail();
    throw err;
  }
  const { results, failed, succeeded } = outcome;
  const done = verb === 'update' ? 'Updated' : 'Deleted';
  const summary =
    `${done} ${thousands(succeeded)} of ${plural(total, type)}` +
    (failed > 0 ? `; ${thousands(failed)} failed` : '') +
    (outcome.notAttempted > 0 ? `; ${thousands(outcome.notAttempted)} not attempted` : '') +
    '.';
  if (failed > 0 || outcome.stopped !== undefined) progress.fail(summary);
  else progress.succeed(summary);

  if (flags.report !== undefined) await writeReport(flags.report, results);
  await printResults(deps, results);
  const machine = deps.format === 'json' || deps.format === 'ndjson';
  if (!machine && failed > 0) {
    deps.io.stderr.write(
      `${failureLines(results, { reportPath: flags.report, bold: (s) => deps.io.err.bold(s) }).join('\n')}\n`,
    );
  }
  if (flags.report !== undefined) deps.io.info(`Every result is in ${flags.report} (NDJSON).`);
  if (outcome.stopped !== undefined) throw outcome.stopped;
  if (failed > 0) {
    throw new PartialFailureError(
      `${thousands(failed)} of ${plural(total, type)} could not be ${verb === 'update' ? 'updated' : 'deleted'}.`,
      failed,
      total,
      flags.report === undefined
        ? 'Pass --report FILE to keep every result; retry the failed ids once the cause is fixed.'
        : `The failed items are the lines of ${flags.report} with "status":"error".`,
    );
  }
}

/**
 * Per-item results on stdout for scripts: one JSON array (--json), one object per line
 * (ndjson, the --report form), or index, id, status, code and message rows (tsv, csv). A
 * terminal gets only the summary and the failures, on stderr.
 */
async function printResults(deps: Deps, results: readonly ItemResult[]): Promise<void> {
  if (deps.format === 'table') return;
  if (deps.format === 'ndjson' && !deps.fields) {
    for (let i = 0; i < results.length; i += 500)
      deps.io.write(
        results
          .slice(i, i + 500)
          .map(reportLine)
          .join(''),
      );
    return;
  }
  const writer = createRowWriter(deps.io, resultColumns, {
    format: deps.format,
    fields: deps.fields,
    json: (r) => JSON.parse(reportLine(r)),
  });
  await writer.write(results);
  await writer.end();
}
