// The items of batch-update from a file: CSV with an `id` column, NDJSON, or a JSON array.
// Every value is checked against the property definitions before anything is sent, and
// the problems are reported together with where they are (line, column).

import type { RecordType } from '../../api/object-types.ts';
import type { BatchUpdateItem } from '../../api/records.ts';
import { UsageError } from '../../errors.ts';
import { findDefinition } from '../../schema/definitions.ts';
import { isPlainObject, isUuid } from '../../util/guards.ts';
import { coerceValue } from '../../values/coerce.ts';
import { unneutralise } from '../../values/write-form.ts';
import { checkValues } from '../common/record-values.ts';
import { type PropertyDefinition, plural } from './shared.ts';

export type ItemsFormat = 'csv' | 'ndjson' | 'json';

/** By the file name, else by the first character: `[` a JSON array, `{` NDJSON, else CSV. */
export function detectFormat(text: string, path: string | undefined): ItemsFormat {
  const ext = path?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  if (ext === 'csv') return 'csv';
  if (ext === 'ndjson' || ext === 'jsonl') return 'ndjson';
  if (ext === 'json') return 'json';
  const first = text.replace(/^\uFEFF/, '').trimStart()[0];
  if (first === '[') return 'json';
  if (first === '{') return 'ndjson';
  return 'csv';
}

/** The separator of multi-valued cells in CSV (what export writes). */
export const CSV_LIST_SEP = ';';

const MAX_PROBLEMS = 10;

class Problems {
  readonly list: string[] = [];
  add(where: string, message: string): void {
    this.list.push(`${where}: ${message}`);
  }
  throwIfAny(source: string): void {
    if (this.list.length === 0) return;
    const n = this.list.length;
    const shown = this.list.slice(0, MAX_PROBLEMS).map((p) => `  ${p}`);
    if (n > MAX_PROBLEMS) shown.push(`  … and ${n - MAX_PROBLEMS} more`);
    throw new UsageError(
      `${source} has ${n} problem${n === 1 ? '' : 's'}; nothing was sent:\n${shown.join('\n')}`,
      'Fix them and run the command again.',
    );
  }
}

/**
 * One JSON item: `{ id, default: {…} }` as the API takes it, `{ id, properties: {…} }` as
 * `ws records list --format ndjson` prints it, or flat `{ id, slug: value, … }`.
 */
function jsonItem(
  v: unknown,
  where: string,
  defs: readonly PropertyDefinition[],
  type: RecordType,
  problems: Problems,
): BatchUpdateItem | undefined {
  if (!isPlainObject(v)) {
    problems.add(where, 'is not a JSON object');
    return undefined;
  }
  const id = v['id'];
  if (typeof id !== 'string' || !isUuid(id)) {
    problems.add(
      where,
      id === undefined ? 'has no "id"' : `"id" ${JSON.stringify(id)} is not a record id`,
    );
    return undefined;
  }
  let values: Record<string, unknown>;
  if (isPlainObject(v['default'])) values = v['default'];
  else if (isPlainObject(v['properties'])) values = v['properties'];
  else {
    const { id: _id, list: _list, is_user_object: _u, source: _s, ...rest } = v;
    values = rest;
  }
  const checked = checkValues(values, defs, type);
  for (const p of checked.problems) problems.add(where, p);
  const item: BatchUpdateItem = { id: id.toLowerCase(), default: checked.values };
  if (v['list'] !== undefined) item.list = v['list'];
  return item;
}

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/** Parse CSV (RFC 4180, comma-separated) with the line each record ends on. */
async function parseCsv(text: string, source: string): Promise<CsvRecord[]> {
  const { parse } = await import('csv-parse/sync');
  try {
    return parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as CsvRecord[];
  } catch (e) {
    const err = e as Error & { lines?: number };
    throw new UsageError(
      `${source} is not valid CSV${err.lines ? ` (line ${err.lines})` : ''}: ${err.message.replace(/^Invalid [^:]*: /, '')}`,
      'Quote fields that hold commas, quotes or line breaks, and double the quotes inside them.',
    );
  }
}

async function csvItems(
  text: string,
  source: string,
  defs: readonly PropertyDefinition[],
  type: RecordType,
  problems: Problems,
): Promise<BatchUpdateItem[]> {
  const [head, ...rows] = await parseCsv(text, source);
  if (!head) return [];
  const header = head.record.map((f) => f.trim());
  const idCol = header.indexOf('id');
  if (idCol < 0) {
    throw new UsageError(
      `${source} has no "id" column (its header is: ${header.join(', ')}).`,
      'The first line names the columns: id, then property slugs.',
    );
  }
  const columns = header.map((slug, i) => {
    if (i === idCol) return undefined;
    try {
      return findDefinition(defs, slug, type);
    } catch (e) {
      problems.add(`column ${i + 1} ("${slug}")`, (e as Error).message);
      return undefined;
    }
  });
  const items: BatchUpdateItem[] = [];
  for (const { record: fields, info } of rows) {
    const where = `line ${info.lines}`;
    if (fields.every((f) => f.trim() === '')) continue;
    const extra = fields.slice(header.length);
    if (fields.length < header.length || extra.some((f) => f !== '')) {
      problems.add(
        where,
        `${plural(fields.length, 'field')} where the header has ${header.length}`,
      );
      continue;
    }
    const id = (fields[idCol] ?? '').trim();
    if (!isUuid(id)) {
      problems.add(where, id === '' ? 'the id is empty' : `"${id}" is not a record id`);
      continue;
    }
    const values: Record<string, unknown> = {};
    fields.forEach((cell, i) => {
      const def = columns[i];
      // An empty cell leaves the value as it is; write null to clear it.
      if (!def || cell === '') return;
      const r = coerceValue(def, unneutralise(cell), { separator: CSV_LIST_SEP });
      if (r.ok) values[def.slug] = r.value;
      else problems.add(`${where}, ${header[i]}`, r.error + (r.hint ? ` ${r.hint}` : ''));
    });
    items.push({ id: id.toLowerCase(), default: values });
  }
  return items;
}

/** Parse and check every item; any problem is a usage error listing them, before any request. */
export async function parseUpdateItems(
  text: string,
  source: string,
  format: ItemsFormat,
  defs: readonly PropertyDefinition[],
  type: RecordType,
): Promise<BatchUpdateItem[]> {
  const problems = new Problems();
  let items: BatchUpdateItem[] = [];
  if (format === 'csv') {
    items = await csvItems(text, source, defs, type, problems);
  } else if (format === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`${source} is not valid JSON: ${(e as Error).message}.`);
    }
    if (!Array.isArray(parsed))
      throw new UsageError(`${source} must be a JSON array of {"id": …, slug: value} objects.`);
    parsed.forEach((v, i) => {
      const item = jsonItem(v, `item ${i + 1}`, defs, type, problems);
      if (item) items.push(item);
    });
  } else {
    text.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === '') return;
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch (e) {
        problems.add(`line ${i + 1}`, `not valid JSON (${(e as Error).message})`);
        return;
      }
      const item = jsonItem(v, `line ${i + 1}`, defs, type, problems);
      if (item) items.push(item);
    });
  }
  problems.throwIfAny(source);
  return items;
}
