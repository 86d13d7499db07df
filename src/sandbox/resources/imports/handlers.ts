// Import operations: request in, reply out, over the imports model, the row importer and the
// background runner.

import { notFound } from '../../errors.ts';
import type { ObjectType } from '../../object-types.ts';
import { listScope, teamOf } from '../../request.ts';
import type { Reply, RequestContext } from '../../resource.ts';
import { failedRows, importEvents } from './events.ts';
import {
  finishedView,
  type ImportJobView,
  type ImportOptions,
  type ImportRow,
  importsOf,
  jobView,
  SYNC_LIMIT,
} from './model.ts';
import { importRange, RowImporter } from './rows.ts';
import { runnerOf } from './runner.ts';

interface ImportBody {
  objects: ImportRow[];
  /** As the contract lets them in: dedupe_by a slug or [slug], crm_id beside list_id. */
  options?: Record<string, unknown>;
}

/**
 * POST /v2/prism/{teamId}/{objectType}/import: fewer than SYNC_LIMIT objects are imported
 * now (200, the finished job); more start a job (202, Location of its status).
 */
export function importRecords(ctx: RequestContext): Reply {
  const teamId = teamOf(ctx);
  const type = ctx.params['objectType'] as ObjectType;
  const body = ctx.body as ImportBody;
  const options = importOptions(body.options ?? {});
  let reply: Reply;
  if (body.objects.length < SYNC_LIMIT) {
    reply = { status: 200, body: importNow(ctx, teamId, type, body.objects, options) };
  } else {
    const job = importsOf(ctx.store).start(teamId, type, body.objects, options);
    const location = `/v2/prism/${teamId}/imports/${encodeURIComponent(job.job_id)}`;
    reply = { status: 202, body: jobView(job), headers: { location } };
  }
  // Start the new job's steps (and resume jobs restored from a data file).
  runnerOf(ctx.store).kick();
  return reply;
}

/**
 * The options as the importer reads them: `dedupe_by` as one slug (the contract lets an
 * array of one in, and refuses more), `crm_id` read as `list_id` (both differing: 400).
 */
function importOptions(given: Record<string, unknown>): ImportOptions {
  const { dedupe_by, crm_id: _crmId, list_id: _listId, ...rest } = given;
  const options: ImportOptions = rest as ImportOptions;
  const slug = Array.isArray(dedupe_by) ? dedupe_by[0] : dedupe_by;
  if (typeof slug === 'string') options.dedupe_by = slug;
  const listId = listScope(given, 'body.options');
  if (typeof listId === 'string') options.list_id = listId;
  return options;
}

/** A synchronous import: the rows attempted in this request; the job is not kept. */
function importNow(
  ctx: RequestContext,
  teamId: string,
  type: ObjectType,
  objects: readonly ImportRow[],
  options: ImportOptions,
): ImportJobView {
  const importer = new RowImporter(ctx.store, teamId, type, options);
  const { results, error } = importRange(importer, objects, 0, objects.length);
  importer.finish();
  const view = finishedView(objects.length, results, error, ctx.store.clock.iso());
  if (ctx.store.events.listening(importEvents)) {
    ctx.store.events.emit(importEvents, {
      type: 'import.completed_now',
      teamId,
      objectType: type,
      total: objects.length,
      succeeded: view.succeeded,
      failed: failedRows(results),
      error,
    });
  }
  return view;
}

/** GET /v2/prism/{teamId}/imports/{jobId} */
export function getImportJob(ctx: RequestContext): Reply {
  const jobId = ctx.params['jobId']!;
  const found = importsOf(ctx.store).lookup(jobId);
  runnerOf(ctx.store).kick();
  // Jobs belong to the team that started them (a data file may be reopened with another).
  if (found.kind === 'job' && found.job.team_id === teamOf(ctx)) {
    return { status: 200, body: jobView(found.job) };
  }
  if (found.kind === 'expired') {
    throw notFound(
      `The import job ${jobId} expired at ${found.expiredAt}: jobs are kept for 7 days after their creation. Its records stay; import again to get a new job.`,
    );
  }
  throw notFound(
    `No import job has the id ${jobId}. Job ids come from the job_id (and the Location header) of an import answered 202; jobs are kept for 7 days.`,
  );
}
