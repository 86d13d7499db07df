// The records a view shows: reading a selected value (dot-paths through references),
// the columns of a view's `select`, and a kanban view's groups.
import type { View, ViewRecord } from '../../api/views.ts';
import type { Column } from '../../output/format.ts';
import { definitionOf, type PropertyDefinition } from '../../query/slugs.ts';
import { isPlainObject } from '../../util/guards.ts';
import { readSelected } from '../../values/paths.ts';

/** A record's values: its `properties` (rows of a page), `default` (a record), or itself. */
export function valuesOf(row: ViewRecord): Record<string, unknown> {
  if (isPlainObject(row.properties)) return row.properties;
  if (isPlainObject(row.default)) return row.default;
  return row;
}

/** The value a select path reads from a record (`organization.name` follows the reference). */
export function selected(row: ViewRecord, path: string): unknown {
  if (path === 'id') return row.id;
  return readSelected(valuesOf(row), path);
}

/** How a table shows a referenced record: its name (or title, email), else its id. */
function refText(value: unknown): string {
  if (Array.isArray(value)) return value.map(refText).join(', ');
  if (!isPlainObject(value)) return value === null || value === undefined ? '' : String(value);
  const props = isPlainObject(value.properties) ? value.properties : {};
  for (const key of ['name', 'title', 'email']) {
    if (typeof props[key] === 'string' && props[key] !== '') return props[key] as string;
  }
  return typeof value.id === 'string' ? value.id : JSON.stringify(value);
}

/**
 * Columns for a view's records: its `select`, headed by the paths as written. A view that
 * selects nothing shows every property, so its columns come from the records themselves.
 * `id` is there for --fields when the view does not select it. Columns whose values in
 * `sample` are all numbers are right-aligned.
 */
export function recordColumns(view: View, sample: readonly ViewRecord[]): Column<ViewRecord>[] {
  let paths = view.select ?? [];
  if (paths.length === 0) {
    const seen = new Set<string>();
    for (const row of sample) for (const key of Object.keys(valuesOf(row))) seen.add(key);
    paths = [...seen];
  }
  const columns: Column<ViewRecord>[] = paths.map((path) => {
    const sampled = sample.map((row) => selected(row, path)).filter((v) => v != null);
    const numeric = sampled.length > 0 && sampled.every((v) => typeof v === 'number');
    return {
      key: path,
      header: path,
      get: (row) => selected(row, path),
      text: (value) =>
        Array.isArray(value) || isPlainObject(value)
          ? refText(value)
          : value == null
            ? ''
            : String(value),
      ...(numeric ? { align: 'right' as const } : {}),
    };
  });
  if (!paths.includes('id')) {
    columns.unshift({ key: 'id', header: 'id', get: (row) => row.id, default: false });
  }
  return columns;
}

export interface Group {
  /** The option slug (or the value) records of the group have; null for records with none. */
  value: string | null;
  label: string;
  records: ViewRecord[];
}

function optionOrder(def: PropertyDefinition | undefined) {
  return [...(def?.options ?? [])].sort(
    (a, b) => (a.sort_index ?? Number.MAX_VALUE) - (b.sort_index ?? Number.MAX_VALUE),
  );
}

/**
 * A kanban view's groups: one per option of its `group_by` property in option order (a
 * property without options groups by the values found, in order of appearance), then
 * values that are not options, then records with no value. Options listed in
 * `group_hidden_option_ids` are left out, and empty groups too when `group_hide_empty`.
 */
export function kanbanGroups(
  view: View,
  records: readonly ViewRecord[],
  definitions: readonly PropertyDefinition[] | undefined,
): Group[] {
  const slug = view.group_by!;
  const def = definitionOf(slug, definitions);
  const hidden = new Set(
    Array.isArray(view.group_hidden_option_ids)
      ? view.group_hidden_option_ids.filter((v): v is string => typeof v === 'string')
      : [],
  );
  const options = optionOrder(def);
  const byKey = new Map<string, Group>();
  const hiddenKeys = new Set<string>();
  for (const o of options) {
    if (hidden.has(o.id) || hidden.has(o.slug)) hiddenKeys.add(o.slug);
    else byKey.set(o.slug, { value: o.slug, label: o.value || o.slug, records: [] });
  }
  const idToSlug = new Map(options.map((o) => [o.id, o.slug]));
  const none: Group = { value: null, label: `No ${def?.name || slug}`, records: [] };
  for (const row of records) {
    const raw = selected(row, slug);
    const values = (Array.isArray(raw) ? raw : [raw]).filter(
      (v) => v !== null && v !== undefined && v !== '',
    );
    if (values.length === 0) none.records.push(row);
    for (const v of values) {
      const text = typeof v === 'string' ? v : isPlainObject(v) ? refText(v) : String(v);
      const key = idToSlug.get(text) ?? text;
      if (hiddenKeys.has(key)) continue;
      let group = byKey.get(key);
      if (!group) {
        group = { value: key, label: key, records: [] };
        byKey.set(key, group);
      }
      group.records.push(row);
    }
  }
  const groups = [...byKey.values()];
  if (none.records.length > 0) groups.push(none);
  return view.group_hide_empty ? groups.filter((g) => g.records.length > 0) : groups;
}
