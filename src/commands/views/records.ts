// `ws views records TYPE VIEW`: the records a view selects, read from its records endpoint,
// the pinned ones first (in the view's record_order), then the others in the view's sort.
// Columns are the view's `select`, then PINNED; rows stream as pages arrive, except
// to a table. --json gives the API's rows with `pinned` added.
import { paginate } from '../../api/paginate.ts';
import { listViewRecords, type ViewRecord } from '../../api/views.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { plural } from '../../output/plural.ts';
import { createRowWriter } from '../../output/render.ts';
import { namedView, type ViewRef, viewNotFound } from './shared.ts';
import { recordColumns } from './view-records.ts';

export interface RecordsOptions extends ViewRef {
  /** How many records in all (default 50, one page). */
  limit?: number | undefined;
  /** Every record of the view. */
  all?: boolean | undefined;
}

export async function run(opts: RecordsOptions, deps: Deps): Promise<void> {
  const { type, client, view } = await namedView(deps, opts);
  const pinned = new Set(view.record_order ?? []);
  let hasMore = false;
  const pages = paginate(
    async (cursor, limit) => {
      const page = await listViewRecords(client, type, view.id, {
        cursor,
        limit,
        signal: deps.signal,
      }).catch((err: unknown) => {
        throw viewNotFound(err, type);
      });
      hasMore = page.has_more;
      return page;
    },
    { all: opts.all, limit: opts.limit },
  );
  let writer: ReturnType<typeof createRowWriter<ViewRecord>> | undefined;
  for await (const page of pages) {
    if (writer === undefined) {
      // PINNED last: a table never leaves out its first column, and leaves this one out when
      // no record is pinned (its cells are empty).
      const columns: Column<ViewRecord>[] = [
        ...recordColumns(view, page.rows),
        {
          key: 'pinned',
          header: 'PINNED',
          get: (row) => (pinned.has(row['id'] as string) ? true : null),
          text: (v) => (v === true ? 'pinned' : ''),
        },
      ];
      writer = createRowWriter(deps.io, columns, {
        format: deps.format,
        fields: deps.fields,
        json: (row) => ({ ...row, pinned: pinned.has(row['id'] as string) }),
        emptyMessage: `No records match ${type} view "${view.name}".`,
      });
    }
    await writer.write(page.rows);
  }
  await writer?.end();
  if (hasMore) {
    deps.io.info(
      `Showing the first ${plural(writer?.count ?? 0, 'record')} of ${type} view "${view.name}"; more match it: pass --limit N or --all.`,
    );
  }
}
