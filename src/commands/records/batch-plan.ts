// What a batch-update or batch-delete would do, read and not sent (--dry-run): the records
// the items name are read in pages of 50 (the query endpoint, by id), and each item is
// told as the batch endpoint would take it: a record that would change (and how), one
// already as the item says, one not found or deleted. Counted on stderr, each item on
// stdout (a table at a terminal; rows, JSON or NDJSON for scripts), exit 5 when some item
// would fail, as a dry run of an import does.
import type { ApiClient } from '../../api/client.ts';
import type { RecordType } from '../../api/object-types.ts';
import { type BatchUpdateItem, queryRecords } from '../../api/records.ts';
import { PartialFailureError, UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { thousands } from '../../output/plural.ts';
import { createRowWriter } from '../../output/render.ts';
import { readSelected } from '../../values/paths.ts';
import { sameValue, toWriteForm, valueText, writeFormOf } from '../../values/write-form.ts';
import { plural, type Row } from './shared.ts';

/** A dry run sends nothing, so it has no results to write. */
export function checkDryRun(opts: { dryRun?: boolean | undefined; report?: string | undefined }) {
  if (opts.dryRun && opts.report !== undefined)
    throw new UsageError(
      '--report writes the results of what was sent; --dry-run sends nothing.',
      'Leave --report out of the dry run (its items are printed on stdout: --format ndjson for the same form).',
    );
}

/** Ids the query endpoint is asked for at once (its page size). */
const PAGE = 50;

/** What the service holds for the ids an item list names. */
export interface Current {
  /** Active records, by id, with the properties selected. */
  active: Map<string, Row>;
  /** Ids of soft-deleted records. */
  deleted: Set<string>;
}

/**
 * Read the records of `ids` (active ones with `select`, then which of the others are
 * soft-deleted): one query per 50 ids, and one more per 50 of those not found.
 */
export async function readCurrent(
  client: ApiClient,
  type: RecordType,
  ids: readonly string[],
  select: readonly string[],
  signal: AbortSignal,
): Promise<Current> {
  const active = new Map<string, Row>();
  const deleted = new Set<string>();
  const ask = async (some: string[], withDeleted: boolean) =>
    (
      await queryRecords(
        client,
        type,
        {
          query: { select: select.length > 0 ? [...select] : ['id'], limit: PAGE },
          id: some,
          ...(withDeleted ? { deleted: true } : {}),
        },
        { signal },
      )
    ).data as Row[];
  for (let i = 0; i < ids.length; i += PAGE) {
    for (const row of await ask(ids.slice(i, i + PAGE), false)) active.set(row.id, row);
  }
  const missing = ids.filter((id) => !active.has(id));
  for (let i = 0; i < missing.length; i += PAGE) {
    for (const row of await ask(missing.slice(i, i + PAGE), true)) deleted.add(row.id);
  }
  return { active, deleted };
}

export type UpdateStatus = 'update' | 'unchanged' | 'not_found' | 'deleted';
export type DeleteStatus = 'delete' | 'already_deleted' | 'not_found';

/** One item of a dry run. */
export interface PlannedItem {
  index: number;
  id: string;
  status: UpdateStatus | DeleteStatus;
  /** batch-update: the values that would change, from → to. */
  changes?: Record<string, { from: unknown; to: unknown }>;
  /** batch-delete: the record's properties shown to tell it apart (its name, …). */
  properties?: Record<string, unknown>;
}

/** The plan of a batch-update: each item against the record it names. */
export function planUpdates(items: readonly BatchUpdateItem[], current: Current): PlannedItem[] {
  return items.map((item, index) => {
    const row = current.active.get(item.id);
    if (row === undefined)
      return { index, id: item.id, status: current.deleted.has(item.id) ? 'deleted' : 'not_found' };
    const now = writeFormOf(row.properties);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const [slug, to] of Object.entries(item.default ?? {})) {
      const from = now[slug] ?? null;
      if (!sameValue(from, to ?? null)) changes[slug] = { from, to: to ?? null };
    }
    // A list member's values are not read back here: an item with one is told as a change.
    const changed = Object.keys(changes).length > 0 || item.list !== undefined;
    return { index, id: item.id, status: changed ? 'update' : 'unchanged', changes };
  });
}

/** The plan of a batch-delete: each id against the record it names. */
export function planDeletes(
  ids: readonly string[],
  current: Current,
  shown: readonly string[],
): PlannedItem[] {
  return ids.map((id, index) => {
    const row = current.active.get(id);
    if (row === undefined)
      return { index, id, status: current.deleted.has(id) ? 'already_deleted' : 'not_found' };
    const properties: Record<string, unknown> = {};
    for (const slug of shown) properties[slug] = toWriteForm(readSelected(row.properties, slug));
    return { index, id, status: 'delete', properties };
  });
}

function changesText(changes: PlannedItem['changes']): string {
  return Object.entries(changes ?? {})
    .map(([slug, c]) => `${slug}: ${valueText(c.from)} → ${valueText(c.to)}`)
    .join('; ');
}

/** Print a dry run: the items on stdout, the counts on stderr; exit 5 when some would fail. */
export async function reportPlan(
  deps: Deps,
  type: RecordType,
  verb: 'update' | 'delete',
  plan: readonly PlannedItem[],
  shown: readonly string[] = [],
): Promise<void> {
  const count = (s: PlannedItem['status']) => plan.filter((p) => p.status === s).length;
  const columns: Column<PlannedItem>[] = [
    { key: 'index', align: 'right' },
    { key: 'id' },
    { key: 'status' },
    ...(verb === 'update'
      ? [
          {
            key: 'changes',
            get: (p: PlannedItem) => p.changes ?? null,
            text: (_v: unknown, p: PlannedItem) => changesText(p.changes),
          },
        ]
      : shown.map((slug) => ({ key: slug, get: (p: PlannedItem) => p.properties?.[slug] }))),
  ];
  const writer = createRowWriter(deps.io, columns, {
    format: deps.format,
    fields: deps.fields,
    json: (p) => p,
  });
  await writer.write([...plan]);
  await writer.end();

  const total = plan.length;
  const notFound = count('not_found');
  const gone = verb === 'update' ? count('deleted') : 0;
  const parts = [
    [count('unchanged'), 'unchanged'],
    [count('already_deleted'), 'already deleted'],
    [notFound, 'not found'],
    [gone, 'deleted'],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, what]) => `${thousands(n as number)} ${what}`);
  const line =
    `Would ${verb} ${thousands(count(verb))} of ${plural(total, type)}` +
    (parts.length > 0 ? ` (${parts.join(', ')})` : '') +
    '; nothing was sent (--dry-run).';
  const fail = notFound + gone;
  if (fail === 0) {
    deps.io.info(line);
    return;
  }
  deps.io.warn(line);
  const why = [
    ...(notFound > 0 ? ['no record has the id'] : []),
    ...(gone > 0 ? ['the record is deleted'] : []),
  ];
  const next = [
    ...(notFound > 0 ? [`\`ws records list ${type} --fields id\` lists the ids that exist`] : []),
    ...(gone > 0 ? [`\`ws records restore ${type} ID\` brings a deleted one back`] : []),
  ];
  throw new PartialFailureError(
    `${thousands(fail)} of ${plural(total, type)} would fail: ${why.join(', or ')}.`,
    fail,
    total,
    `See their status above; ${next.join('; ')}.`,
  );
}
