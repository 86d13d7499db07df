// What the records verbs share: the definitions of a type's properties, the columns of
// record rows, how a record is shown, and a verb on one record. (The arguments that name a
// record and the values of --set and --data are in src/commands/common/.)
import type { ApiClient } from '../../api/client.ts';
import type { RecordType } from '../../api/object-types.ts';
import type { RecordAnswer } from '../../api/records.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { renderObject } from '../../output/render.ts';
import { definitionsFor, type PropertyDefinition } from '../../schema/definitions.ts';
import { readSelected } from '../../values/paths.ts';
import { toWriteForm } from '../../values/write-form.ts';
import { recordId, recordType } from '../common/record-args.ts';

export type { PropertyDefinition };

/** A record as the list and query endpoints answer it. */
export interface Row {
  id: string;
  properties: Record<string, unknown>;
}

/** The property definitions of a record type (from the 5-minute cache when fresh). */
export function definitions(
  deps: Deps,
  type: RecordType,
  listId?: string | undefined,
): Promise<PropertyDefinition[]> {
  return definitionsFor(deps, type, { listId });
}

/**
 * Columns of record rows: `id`, then one per property slug or dot-path (`organization.name`
 * reads the referenced record's name), values in write form.
 */
export function rowColumns(slugs: readonly string[]): Column<Row>[] {
  return [
    { key: 'id', id: true },
    ...slugs
      .filter((s) => s !== 'id')
      .map(
        (slug): Column<Row> => ({
          key: slug,
          get: (row) => toWriteForm(readSelected(row.properties, slug)),
        }),
      ),
  ];
}

/** Types shown in a table by default: short, one-line values. */
const TABLE_TYPES = new Set(['str', 'num', 'bool', 'date', 'select_str', 'multiselect_str']);
const FIRST = ['name', 'title', 'email', 'stage', 'status', 'amount'];

/** The properties a table shows when --select and --fields are not given: at most `n`. */
export function tableSlugs(defs: readonly PropertyDefinition[], n = 4): string[] {
  const shown = defs.filter((d) => TABLE_TYPES.has(d.type));
  const rank = (slug: string) => {
    const i = FIRST.indexOf(slug);
    return i < 0 ? FIRST.length : i;
  };
  return [...shown]
    .sort((a, b) => rank(a.slug) - rank(b.slug))
    .slice(0, n)
    .map((d) => d.slug);
}

/** A record as printed: a row of `list`, with the version the answer carried. */
interface Shown extends Row {
  etag: string | null;
}

/**
 * The property slugs a printed record has columns for: those `--select` named, else every
 * defined property, as `list` prints them. A terminal (key/value lines of the values set)
 * and JSON need only the record's own values, and no request for the definitions unless
 * --fields is to be checked. When the definitions cannot be read, the record's own values,
 * so that a write that succeeded is still shown.
 */
async function printedSlugs(
  deps: Deps,
  type: RecordType,
  values: Record<string, unknown>,
  select: string[] | undefined,
): Promise<string[]> {
  if (select) return select;
  const own = Object.keys(values);
  if (deps.fields === undefined && deps.format !== 'tsv' && deps.format !== 'csv') return own;
  try {
    const slugs = (await definitions(deps, type)).map((d) => d.slug);
    if (deps.format === 'table') return [...new Set([...slugs, ...own])];
    return slugs;
  } catch (err) {
    if (deps.signal.aborted) throw err;
    deps.io.debug(`The ${type} definitions could not be read: ${(err as Error).message}`);
    return own;
  }
}

/**
 * Print one record in the shape of a row of `list`: the same columns (`id`, then every
 * defined property, or those of --select), so a script reads every record verb's output
 * alike. On a terminal, `key  value` lines with the etag, the empty values left out; with
 * --json the record as the API answers it plus `etag` (the version to pass to --if-match).
 */
export async function printRecord(
  deps: Deps,
  type: RecordType,
  answer: RecordAnswer,
  opts: { select?: string[] | undefined } = {},
): Promise<void> {
  const values = answer.record.default ?? {};
  const shown: Shown = {
    id: answer.record.id,
    properties: values,
    etag: answer.etag ?? null,
  };
  const [id, ...properties] = rowColumns(await printedSlugs(deps, type, values, opts.select));
  const columns: Column<Shown>[] = [
    id!,
    { key: 'etag', default: deps.format === 'table' && answer.etag !== undefined },
    ...properties,
  ];
  await renderObject(deps.io, shown, columns, {
    format: deps.format,
    fields: deps.fields,
    row: true,
    json: (s) => ({ ...answer.record, etag: s.etag }),
  });
}

/** `1 contact`, `3 contacts`, `2 identities`. */
export { plural } from '../../output/plural.ts';

export interface RecordRef {
  type: string;
  id: string;
}

/** A verb on one record that answers it (restore, duplicate): call, say what was done, print it. */
export async function recordVerb(
  opts: RecordRef,
  deps: Deps,
  call: (
    client: ApiClient,
    type: RecordType,
    id: string,
    o: { signal: AbortSignal },
  ) => Promise<RecordAnswer>,
  done: (type: RecordType, id: string, answer: RecordAnswer) => string,
): Promise<void> {
  const type = recordType(opts.type);
  const id = recordId(opts.id);
  const answer = await call(await deps.client(), type, id, { signal: deps.signal });
  deps.io.success(done(type, id, answer));
  await printRecord(deps, type, answer);
}
