// What the records verbs share: the object type and id arguments, typed values from
// --set and --data, and how a record is shown.
import type { ApiClient } from '../../api/client.ts';
import { objectType, type RecordType } from '../../api/object-types.ts';
import type { RecordAnswer, RecordWrite } from '../../api/records.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { renderObject } from '../../output/render.ts';
import {
  definitionsFor,
  findDefinition,
  type PropertyDefinition,
} from '../../schema/definitions.ts';
import { isPlainObject, isUuid } from '../../util/guards.ts';
import { coerceValue, normaliseValue } from '../../values/coerce.ts';
import { readSelected } from '../../values/paths.ts';
import { toWriteForm } from '../../values/write-form.ts';
import { readJsonArg } from '../common/input.ts';

export type { PropertyDefinition };

/** A record as the list and query endpoints answer it. */
export interface Row {
  id: string;
  properties: Record<string, unknown>;
}

/** The API's name of a record object type (`contacts` → `contact`). */
export function recordType(input: string): RecordType {
  return objectType(input, 'record') as RecordType;
}

/** A record id argument: a UUID, or a usage error before any request. */
export function recordId(value: string, what = 'record id'): string {
  const id = value.trim();
  if (!isUuid(id)) {
    throw new UsageError(
      `"${value}" is not a ${what}: record ids are UUIDs (like 7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a).`,
      'Find ids with `ws records list TYPE --fields id` or `ws records find TYPE SLUG VALUE`.',
    );
  }
  return id.toLowerCase();
}

/** The property definitions of a record type (from the 5-minute cache when fresh). */
export function definitions(
  deps: Deps,
  type: RecordType,
  listId?: string | undefined,
): Promise<PropertyDefinition[]> {
  return definitionsFor(deps, type, { listId });
}

/** `--data`: the raw `default` map, sent as given. */
export async function readDataFlag(
  spec: string | undefined,
  deps: Deps,
): Promise<Record<string, unknown>> {
  if (spec === undefined) return {};
  const data = await readJsonArg(spec, deps, '--data');
  if (!isPlainObject(data)) {
    throw new UsageError(
      '--data must be a JSON object of property values keyed by slug.',
      `For example --data '{"name":"Ada","score":42}'.`,
    );
  }
  return data;
}

/** One --set: `slug=value` (typed by the property's definition) or `slug:=JSON` (raw). */
export function splitSet(spec: string): { slug: string; text: string; raw: boolean } {
  const eq = spec.indexOf('=');
  if (eq <= 0) {
    throw new UsageError(
      `--set "${spec}" must be slug=value.`,
      'For example --set name="Ada Lovelace" --set score=42 --set tags=vip,partner; slug:=JSON sends raw JSON.',
    );
  }
  const raw = spec[eq - 1] === ':';
  const slug = spec.slice(0, raw ? eq - 1 : eq).trim();
  if (slug === '') throw new UsageError(`--set "${spec}" has no property slug before "=".`);
  return { slug, text: spec.slice(eq + 1), raw };
}

/**
 * The values of --set flags, typed by their definitions. An unknown slug or a value that
 * does not fit its type is a usage error (exit 2) before any request.
 */
export function parseSets(
  sets: readonly string[],
  defs: readonly PropertyDefinition[],
  type: RecordType,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of sets) {
    const { slug, text, raw } = splitSet(spec);
    const def = findDefinition(defs, slug, type);
    if (raw) {
      try {
        out[def.slug] = JSON.parse(text);
      } catch (e) {
        throw new UsageError(
          `--set "${spec}": the value after ":=" is not valid JSON (${(e as Error).message}).`,
          `Write ${slug}:='"text"' for a JSON string, or ${slug}=value to have it typed.`,
        );
      }
      continue;
    }
    const r = coerceValue(def, text);
    if (!r.ok) throw new UsageError(`--set "${spec}": ${r.error}`, r.hint);
    out[def.slug] = r.value;
  }
  return out;
}

/** Check a typed value map (JSON, YAML) against definitions: the values in write form, or the problems. */
export function checkValues(
  values: Record<string, unknown>,
  defs: readonly PropertyDefinition[],
  type: RecordType,
): { values: Record<string, unknown>; problems: string[] } {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [slug, value] of Object.entries(values)) {
    let def: PropertyDefinition;
    try {
      def = findDefinition(defs, slug, type);
    } catch (e) {
      problems.push((e as Error).message);
      continue;
    }
    const r = normaliseValue(def, value);
    if (r.ok) out[def.slug] = r.value;
    else problems.push(r.error + (r.hint ? ` ${r.hint}` : ''));
  }
  return { values: out, problems };
}

/**
 * The body of a create, update or upsert from --data (raw) and --set (typed, applied on
 * top). Definitions are fetched only when there are --set flags.
 */
export async function buildWrite(
  opts: { set: readonly string[]; data?: string | undefined },
  deps: Deps,
  type: RecordType,
  listId?: string | undefined,
): Promise<RecordWrite> {
  const values = await readDataFlag(opts.data, deps);
  if (opts.set.length > 0) {
    for (const s of opts.set) splitSet(s);
    const defs = await definitions(deps, type, listId);
    Object.assign(values, parseSets(opts.set, defs, type));
  }
  return { default: values };
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
