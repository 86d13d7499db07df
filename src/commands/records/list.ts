// ws records list TYPE: records page by page, streamed to stdout as they arrive. Without
// --where it reads the list endpoint (GET); with --where or --filter-json, the query
// endpoint (POST), whose filters compare typed values.
import type { Deps } from '../../factory.ts';
import { noun, thousands } from '../../output/plural.ts';
import { createRowWriter } from '../../output/render.ts';
import { recordType } from '../common/record-args.ts';
import { planRead, type ReadFlags, type ReadState, readPages, selectedSlugs } from './read.ts';
import { plural, type Row, rowColumns, tableSlugs } from './shared.ts';

export interface ListOptions extends ReadFlags {
  type: string;
  limit?: number | undefined;
  all: boolean;
  total: boolean;
}

/** list and query share this; query always uses the query endpoint. */
export async function listRecordsCommand(
  opts: ListOptions,
  deps: Deps,
  forceQuery: boolean,
): Promise<void> {
  const type = recordType(opts.type);
  const tabular = deps.format === 'table' || deps.format === 'csv' || deps.format === 'tsv';
  const plan = await planRead(opts, deps, type, {
    forceQuery,
    needDefinitions: opts.select === undefined && (tabular || deps.fields !== undefined),
  });
  const slugs =
    deps.format === 'table' && !deps.fields && !plan.select && plan.defs
      ? tableSlugs(plan.defs)
      : (selectedSlugs(plan) ?? []);
  const filtered = plan.filter !== undefined;
  const writer = createRowWriter<Row>(deps.io, rowColumns(slugs), {
    format: deps.format,
    fields: deps.fields,
    emptyMessage: filtered
      ? `No ${type} records match.`
      : opts.deleted
        ? `No ${type} records.`
        : `No ${type} records yet. Create one with \`ws records create ${type} --set name=…\`.`,
  });
  const state: ReadState = { hasMore: false, requests: 0 };
  let total: number | undefined;
  const client = await deps.client();
  for await (const page of readPages(
    client,
    plan,
    { limit: opts.limit, all: opts.all, total: opts.total, signal: deps.signal },
    state,
  )) {
    total ??= page.total;
    await writer.write(page.rows);
  }
  await writer.end();
  const shown = writer.count;
  if (opts.total && total !== undefined) {
    const verb = filtered ? (total === 1 ? 'matches' : 'match') : 'in all';
    deps.io.info(`${plural(total, type)} ${verb}.`);
  }
  if (state.hasMore && !opts.all && deps.format === 'table') {
    const of = total !== undefined ? ` of ${thousands(total)}` : '';
    deps.io.info(
      `Showing ${thousands(shown)}${of} ${type} ${noun(total ?? shown, 'record')}; more exist: use --limit N or --all.`,
    );
  }
}

export function run(opts: ListOptions, deps: Deps): Promise<void> {
  return listRecordsCommand(opts, deps, false);
}
