// ws records delete TYPE ID: a soft delete (undo with restore). Asks first on a terminal;
// needs --yes otherwise.
//
// ws records delete TYPE --where …: the records a filter matches. Their count and a few of
// them are shown first (one query), then confirmed as one delete is; the ids are read and
// deleted 100 per call as batch-delete does. More records matching by then than were
// confirmed stops it with nothing deleted. --dry-run shows the count and the sample only.

import type { RecordType } from '../../api/object-types.ts';
import { batchDeleteRecords, deleteRecord, getRecord, queryRecords } from '../../api/records.ts';
import { ConflictError, UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { thousands } from '../../output/plural.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { readSelected } from '../../values/paths.ts';
import { valueText } from '../../values/write-form.ts';
import type { WhereOptions } from '../common/list-flags.ts';
import { recordId, recordType } from '../common/record-args.ts';
import { type BatchFlags, runBatch } from './batch.ts';
import { checkDryRun } from './batch-plan.ts';
import { preconditionFailed } from './if-match.ts';
import { planRead, queryBody, readPages } from './read.ts';
import { plural, type Row, tableSlugs } from './shared.ts';

export interface DeleteOptions extends WhereOptions, BatchFlags {
  type: string;
  /** One record, or none with a filter. */
  id?: string | undefined;
  ifMatch?: string | undefined;
  listId?: string | undefined;
  /** Say what would be deleted; delete nothing. */
  dryRun?: boolean | undefined;
}

/** Records of a filter shown before they are deleted. */
const SAMPLE = 5;

export async function run(opts: DeleteOptions, deps: Deps): Promise<void> {
  const type = recordType(opts.type);
  checkDryRun(opts);
  const filtered = opts.where.length > 0 || opts.filterJson !== undefined;
  if (opts.id !== undefined && filtered)
    throw new UsageError(
      'Give a record id or a filter (--where, --filter-json), not both.',
      `\`ws records delete ${type} ID\` deletes one record; \`ws records delete ${type} --where …\` those that match.`,
    );
  if (opts.id === undefined && !filtered)
    throw new UsageError(
      `Which ${type} records? Give a record id, or --where (or --filter-json) for those that match.`,
      `E.g. ws records delete ${type} ID, or ws records delete ${type} --where status=churned.`,
    );
  if (filtered) return deleteMatching(type, opts, deps);
  if (opts.concurrency !== undefined || opts.report !== undefined)
    throw new UsageError('--concurrency and --report go with --where: one record is one request.');
  return deleteOne(type, recordId(opts.id!), opts, deps);
}

async function deleteOne(
  type: RecordType,
  id: string,
  opts: DeleteOptions,
  deps: Deps,
): Promise<void> {
  if (opts.dryRun) {
    // One read: the record exists and is not deleted (else 404, said as ws says it).
    await getRecord(await deps.client(), type, id, { signal: deps.signal });
    deps.io.info(`Would delete ${type} ${id}; nothing was sent (--dry-run).`);
    return;
  }
  await confirmOrRefuse(
    deps.io,
    deps.prompter,
    `Delete ${type} ${id}? (\`ws records restore ${type} ${id}\` brings it back)`,
    `Not deleting ${type} ${id} without confirmation.`,
  );
  const client = await deps.client();
  await deleteRecord(client, type, id, { ifMatch: opts.ifMatch, signal: deps.signal }).catch(
    (err: unknown) => {
      throw preconditionFailed(err, type, id, 'delete');
    },
  );
  deps.io.success(`Deleted ${type} ${id} (restore it with \`ws records restore ${type} ${id}\`).`);
  if (deps.format === 'json' || deps.format === 'ndjson')
    deps.io.println(JSON.stringify({ id, deleted: true }));
}

/** The filter as the user gave it, for messages. */
function filterText(opts: WhereOptions): string {
  if (opts.where.length === 0) return 'the --filter-json filter';
  return opts.where.join(opts.or ? ' or ' : ' and ');
}

async function deleteMatching(type: RecordType, opts: DeleteOptions, deps: Deps): Promise<void> {
  if (opts.ifMatch !== undefined)
    throw new UsageError(
      '--if-match goes with one record id: the records a filter matches have one version each.',
    );
  const flags = { ...opts, deleted: false };
  const probe = await planRead(flags, deps, type, { forceQuery: true, needDefinitions: true });
  const shown = tableSlugs(probe.defs ?? [], 2);
  const client = await deps.client();
  const first = await queryRecords(
    client,
    type,
    queryBody(
      { ...probe, select: shown.length > 0 ? shown : ['id'] },
      { size: SAMPLE, includeTotal: true },
    ),
    { signal: deps.signal },
  );
  const total = first.total ?? first.data.length;
  const what = filterText(opts);
  const json = deps.format === 'json' || deps.format === 'ndjson';
  if (total === 0) {
    deps.io.info(`No ${type} records match ${what}; nothing was deleted.`);
    if (json) deps.io.println(JSON.stringify({ matched: 0, deleted: 0 }));
    return;
  }
  showSample(deps, type, total, what, first.data as Row[], shown);
  if (opts.dryRun) {
    deps.io.info(`Would delete ${plural(total, type)}; nothing was sent (--dry-run).`);
    if (json) {
      const sample = (first.data as Row[]).map((r) => ({ id: r.id, properties: r.properties }));
      deps.io.println(JSON.stringify({ matched: total, sample }));
    }
    return;
  }
  await confirmOrRefuse(
    deps.io,
    deps.prompter,
    `Delete ${plural(total, type)}? (\`ws records restore\` brings one back)`,
    `Not deleting ${plural(total, type)} without confirmation.`,
  );
  // The ids, read once confirmed: more than were confirmed is a change nobody saw.
  const ids: string[] = [];
  const plan = { ...probe, select: ['id'] };
  for await (const page of readPages(client, plan, { all: true, signal: deps.signal })) {
    for (const row of page.rows) ids.push(row.id);
    if (ids.length > total) {
      throw new ConflictError(
        `More ${type} records match ${what} now than the ${thousands(total)} confirmed; nothing was deleted.`,
        'Run the command again to see what matches now.',
      );
    }
  }
  if (ids.length === 0) {
    deps.io.info(`No ${type} records match ${what} any more; nothing was deleted.`);
    return;
  }
  await runBatch(
    { type, verb: 'delete', items: ids, idOf: (id) => id, call: batchDeleteRecords },
    opts,
    deps,
  );
}

/** The count, and the first records (their id and a name-like property or two), on stderr. */
function showSample(
  deps: Deps,
  type: RecordType,
  total: number,
  what: string,
  rows: readonly Row[],
  shown: readonly string[],
): void {
  if (deps.io.quiet) return;
  const lines = rows.map((row) => {
    const values = shown
      .map((slug) => readSelected(row.properties, slug))
      .filter((v) => v !== null && v !== undefined && v !== '')
      .map(valueText);
    return `  ${[row.id, ...values].join('  ')}`;
  });
  const more = total - rows.length;
  deps.io.info(
    `${plural(total, type)} match${total === 1 ? 'es' : ''} ${what}:\n${lines.join('\n')}${more > 0 ? `\n  … and ${thousands(more)} more` : ''}`,
  );
}
