import { paginate } from '../../api/paginate.ts';
import {
  getViewRecords,
  type View,
  type ViewRecord,
  type ViewRecordsPage,
} from '../../api/views.ts';
import type { Deps } from '../../factory.ts';
import type { Progress } from '../../io/streams.ts';
import { type Column, cellValue, chooseColumns } from '../../output/format.ts';
import { plural } from '../../output/plural.ts';
import { createRowWriter, type RowWriter, renderRows } from '../../output/render.ts';
import {
  definitionsOrWarn,
  resolveView,
  type ViewRef,
  viewNotFound,
  viewObjectType,
} from './shared.ts';
import { type Group, kanbanGroups, recordColumns } from './view-records.ts';

export interface ShowOptions extends ViewRef {
  /** How many records in all (default 50, one page). */
  limit?: number | undefined;
  /** Every record of the view. */
  all?: boolean | undefined;
}

const PAGE = 50;

export async function run(opts: ShowOptions, deps: Deps): Promise<void> {
  const type = viewObjectType(opts.type);
  const client = await deps.client();
  const { id } = await resolveView(deps, client, type, opts.view);
  const wanted = opts.all ? Number.POSITIVE_INFINITY : (opts.limit ?? PAGE);
  const { io, format } = deps;

  let view: View | undefined;
  let last: ViewRecordsPage['records'] | undefined;
  let fetched = 0;
  const fetchPage = async (cursor: string | undefined, limit: number) => {
    const page = await getViewRecords(client, type, id, { cursor, limit, signal: deps.signal });
    view ??= page.view;
    last = page.records;
    fetched += page.records.data.length;
    return page.records;
  };

  // Rows stream to csv, tsv and ndjson as pages arrive; a JSON document and a kanban
  // board need them all first.
  const records: ViewRecord[] = [];
  let columns: Column<ViewRecord>[] = [];
  let writer: RowWriter<ViewRecord> | undefined;
  let progress: Progress | undefined;
  let grouped = false;
  try {
    for await (const page of paginate(fetchPage, { all: opts.all, limit: wanted })) {
      if (page.page === 1) {
        columns = recordColumns(view!, page.rows);
        chooseColumns(columns, deps.fields);
        grouped = (format === 'table' || format === 'json') && groupable(deps, view!, type);
        if (format !== 'json' && !grouped) {
          writer = createRowWriter(io, columns, {
            format,
            fields: deps.fields,
            emptyMessage: nothingMatches(type, view!),
          });
        }
      }
      if (writer) await writer.write(page.rows);
      else records.push(...page.rows);
      if (last?.has_more && page.seen < wanted) {
        const what = `Reading the records of ${type} view "${view!.name}": ${page.seen}${Number.isFinite(wanted) ? ` of ${wanted}` : ''}`;
        if (progress) progress.update(what);
        else progress = await io.progress(what);
      }
    }
  } catch (err) {
    throw viewNotFound(err, type);
  } finally {
    progress?.stop();
  }
  const shown = writer ? writer.count : records.length;
  const more = (last?.has_more ?? false) || fetched > shown;

  if (writer) {
    await writer.end();
  } else {
    const v = view!;
    const defs = grouped ? await definitionsOrWarn(deps, type, v.list_id) : undefined;
    const groups = grouped ? kanbanGroups(v, records, defs) : undefined;
    if (format === 'json') {
      writeJson(deps, v, records, columns, groups, more);
    } else {
      await writeBoard(deps, groups!, columns, nothingMatches(type, v));
    }
  }
  if (more) {
    io.info(
      `Showing the first ${plural(shown, 'record')} of ${type} view "${view!.name}"; more match it: pass --limit N or --all.`,
    );
  }
}

function nothingMatches(type: string, view: View): string {
  return `No records match ${type} view "${view.name}".`;
}

function isKanban(view: View): boolean {
  return view.view_type === 'kanban' && !!view.group_by;
}

/**
 * Whether the records of a kanban view can be put in groups: they carry the group_by
 * property when the view selects it (or selects nothing, which is everything).
 */
function groupable(deps: Deps, view: View, type: string): boolean {
  if (!isKanban(view)) return false;
  const select = view.select ?? [];
  if (select.length === 0 || select.includes(view.group_by!)) return true;
  deps.io.warn(
    `${type} view "${view.name}" does not select "${view.group_by}", the property it is grouped by, so its records are shown ungrouped. Add it: ws views update ${type} ${view.id} --select ${[...select, view.group_by].join(',')}`,
  );
  return false;
}

/** `{ view, records, has_more, groups }`: groups (kanban views) have value, label and count. */
function writeJson(
  deps: Deps,
  view: View,
  records: ViewRecord[],
  columns: Column<ViewRecord>[],
  groups: Group[] | undefined,
  more: boolean,
): void {
  const picked = deps.fields ? chooseColumns(columns, deps.fields) : undefined;
  const doc = {
    view,
    records: picked
      ? records.map((r) => Object.fromEntries(picked.map((c) => [c.key, cellValue(r, c) ?? null])))
      : records,
    has_more: more,
    groups:
      groups?.map((g) => ({ value: g.value, label: g.label, count: g.records.length })) ?? null,
  };
  deps.io.write(`${JSON.stringify(doc, null, 2)}\n`);
}

/** A kanban board on a terminal: each group's heading with its count, then its records. */
async function writeBoard(
  deps: Deps,
  groups: Group[],
  columns: Column<ViewRecord>[],
  empty: string,
) {
  const { io } = deps;
  for (const [i, group] of groups.entries()) {
    if (i > 0) io.println();
    io.println(`${io.out.bold(group.label)} (${group.records.length})`);
    if (group.records.length === 0) io.println(io.out.dim('  no records'));
    else await renderRows(io, group.records, columns, { format: 'table', fields: deps.fields });
  }
  if (groups.length === 0) io.info(empty);
}
