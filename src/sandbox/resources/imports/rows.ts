// Importing rows: each row is one record write, checked against the property definitions by
// the records resource's own rules (values.ts) and written through the records model, so an
// import row and a record create or patch accept and refuse exactly the same values.
//
// With `dedupe_by`, rows are matched against an index of the records' values of that property,
// built once per importer (per job), so the cost of a row never grows with the number of
// records. Records created by earlier rows go into the index, so a file that names the same
// key twice creates one record and patches it. An importer that ends hands its index on to
// the next importer of the same property, as long as no other write happened in between (the
// records' generation says so): the chunks of one large import then read every record once,
// not once per chunk.

import { canonicalJson } from '../../../util/canonical-json.ts';
import { isPlainObject, own } from '../../../util/guards.ts';
import { SandboxError } from '../../errors.ts';
import type { ObjectType } from '../../object-types.ts';
import type { Store } from '../../store.ts';
import { definitionIn, type Scope } from '../properties/scope.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import type { WriteCause } from '../records/events.ts';
import { newRecord, type RecordsModel, recordsOf } from '../records/model.ts';
import type { RecordChanges, StoredRecord, Values } from '../records/types.ts';
import { checkWrite, isEmptyValue, normaliseValue, type RecordInput } from '../records/values.ts';
import type { ImportError, ImportOptions, ImportRow, RowResult } from './model.ts';

/** How many matching record ids a dedupe_conflict message names. */
const IDS_SHOWN = 3;

/** The matches of a row without a dedupe key. */
const NO_MATCHES: readonly Readonly<StoredRecord>[] = [];

/** A dedupe index: key → ids of the active records with that value, in creation order. */
type DedupeIndex = Map<string, string[]>;

/** Indexes of importers that ended, by indexKey(), with the generation they are exact at. */
const handedOn = new WeakMap<
  RecordsModel,
  Map<string, { generation: number; index: DedupeIndex }>
>();

export class RowImporter {
  private readonly records: RecordsModel;
  private readonly type: ObjectType;
  /** Every row is written as the team's import (records/events.ts). */
  private readonly cause: WriteCause;
  /** Workspace scope: where `default` values are checked. */
  private readonly workspace: Scope;
  private readonly listId: string | null;
  private readonly dedupe: PropertyDefinition | undefined;
  private readonly caseInsensitive: boolean;
  /** The job-level problem that stops every row, if any. */
  readonly problem: ImportError | undefined;
  /** Built (or taken over) on first use. */
  private index: DedupeIndex | undefined;
  /** The records' generation at which `index` holds every record; undefined once unknown. */
  private exactAt: number | undefined;

  constructor(store: Store, teamId: string, type: ObjectType, options: ImportOptions) {
    this.records = recordsOf(store);
    this.type = type;
    this.workspace = { store, teamId, type, listId: null };
    this.cause = { source: 'import', teamId };
    this.listId = options.list_id ?? null;
    this.caseInsensitive = options.caseInsensitive === true;
    const slug = options.dedupe_by;
    if (slug !== undefined) {
      this.dedupe = definitionIn({ ...this.workspace, listId: this.listId }, slug);
      if (this.dedupe === undefined)
        this.problem = unknownDedupe(this.workspace, slug, this.listId);
    }
  }

  /** Import one row (throws only on a bug: every rule breach is the row's error). */
  importRow(row: ImportRow, index: number): RowResult {
    const input = this.place(row);
    const key = this.keyOf(input);
    const matches = key === undefined ? NO_MATCHES : this.lookup(key);
    if (matches.length > 1) {
      return failed(index, null, false, {
        code: 'dedupe_conflict',
        message: this.conflictMessage(matches, key!),
      });
    }
    const match = matches[0];
    let changes: RecordChanges;
    try {
      changes = checkWrite(this.workspace, input, match === undefined ? 'create' : 'patch', match);
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      return failed(index, match?.id ?? null, match !== undefined, rowError(err));
    }

    const generation = this.records.generation;
    if (match !== undefined) {
      this.keepKeyValue(changes);
      const before = match.version;
      const record = this.records.update(this.type, match.id, changes, this.cause);
      this.wrote(generation);
      const updated = record.version !== before;
      return { id: record.id, created: false, existing: true, updated, input_index: index };
    }
    const record = this.records.create(this.type, newRecord(changes), this.cause);
    this.wrote(generation);
    if (key !== undefined) this.remember(key, record.id);
    return { id: record.id, created: true, existing: false, updated: false, input_index: index };
  }

  /**
   * The importer is done: its dedupe index goes to the next importer of the same property,
   * if it still holds every record (no one else wrote since it was built).
   */
  finish(): void {
    if (this.index === undefined || this.exactAt !== this.records.generation) return;
    let indexes = handedOn.get(this.records);
    if (indexes === undefined) {
      indexes = new Map();
      handedOn.set(this.records, indexes);
    }
    indexes.set(this.indexKey(), { generation: this.exactAt, index: this.index });
    this.index = undefined;
  }

  /**
   * After this importer's own write, which found the records at `generation`: the index is
   * still exact if it was then (a created record is remembered; a matched one keeps its key).
   */
  private wrote(generation: number): void {
    this.exactAt = this.exactAt === generation ? this.records.generation : undefined;
  }

  /** What the index depends on besides the records: type, property scope and slug, case. */
  private indexKey(): string {
    const def = this.dedupe!;
    return JSON.stringify([this.type, def.list_id, def.slug, this.caseInsensitive]);
  }

  /**
   * The row as a record write. With list_id: the record joins the list, and slugs of the
   * list's own properties given in `default` move to the list's values (a flat file can
   * carry them side by side).
   */
  private place(row: ImportRow): RecordInput {
    const listId = this.listId;
    if (listId === null) return row;
    if (row.list !== undefined && row.list !== null && !isPlainObject(row.list)) return row;
    const lists: Record<string, unknown> = { ...(row.list ?? {}) };
    const given = lists[listId];
    if (given !== undefined && given !== null && !isPlainObject(given)) return row;
    const listValues: Values = { ...given };
    const values: Values = {};
    const listScope = { ...this.workspace, listId };
    for (const [slug, value] of Object.entries(row.default ?? {})) {
      const own =
        definitionIn(this.workspace, slug) === undefined &&
        definitionIn(listScope, slug)?.list_id === listId;
      if (!own) values[slug] = value;
      else if (!Object.hasOwn(listValues, slug)) listValues[slug] = value;
    }
    lists[listId] = listValues;
    return { ...(row.default === undefined ? {} : { default: values }), list: lists };
  }

  /** The row's dedupe key: undefined without dedupe, or when its value is empty or invalid. */
  private keyOf(input: RecordInput): string | undefined {
    const def = this.dedupe;
    if (def === undefined) return undefined;
    const raw = own(valuesFor(def, input.default, input.list), def.slug);
    if (isEmptyValue(raw)) return undefined;
    const normalised = normaliseValue({ ...this.workspace, listId: def.list_id }, def, raw);
    return 'value' in normalised ? this.key(normalised.value) : undefined;
  }

  private key(value: unknown): string | undefined {
    if (isEmptyValue(value)) return undefined;
    if (typeof value === 'string') return `s:${this.caseInsensitive ? value.toLowerCase() : value}`;
    return `j:${canonicalJson(value)}`;
  }

  /** The active records whose dedupe value has `key` now (index hits are checked again). */
  private lookup(key: string): Readonly<StoredRecord>[] {
    const ids = this.buildIndex().get(key);
    if (ids === undefined) return [];
    const def = this.dedupe!;
    const found: Readonly<StoredRecord>[] = [];
    for (const id of ids) {
      const record = this.records.get(this.type, id);
      // Changed or deleted since the index was built (by another request between steps).
      if (record === undefined || record.deleted_at !== null) continue;
      const value = own(valuesFor(def, record.default, record.lists), def.slug);
      if (this.key(value) === key) found.push(record);
    }
    if (found.length !== ids.length)
      this.index!.set(
        key,
        found.map((r) => r.id),
      );
    return found;
  }

  private buildIndex(): DedupeIndex {
    if (this.index !== undefined) return this.index;
    const generation = this.records.generation;
    this.exactAt = generation;
    // Taken over from the importer before, when no record changed since it finished.
    const indexes = handedOn.get(this.records);
    const handed = indexes?.get(this.indexKey());
    indexes?.delete(this.indexKey());
    if (handed !== undefined && handed.generation === generation) {
      this.index = handed.index;
      return this.index;
    }
    const def = this.dedupe!;
    this.index = new Map();
    for (const record of this.records.records(this.type)) {
      const key = this.key(own(valuesFor(def, record.default, record.lists), def.slug));
      if (key !== undefined) this.remember(key, record.id);
    }
    return this.index;
  }

  private remember(key: string, id: string): void {
    const index = this.buildIndex();
    const ids = index.get(key);
    if (ids === undefined) index.set(key, [id]);
    else ids.push(id);
  }

  /**
   * A matched record keeps its own value of the dedupe property: the value identifies it,
   * and with caseInsensitive a row spelling it in another case is not a change.
   */
  private keepKeyValue(changes: RecordChanges): void {
    const def = this.dedupe!;
    const values = def.list_id === null ? changes.default : changes.lists?.[def.list_id];
    if (values !== undefined && values !== null) delete values[def.slug];
  }

  private conflictMessage(matches: readonly Readonly<StoredRecord>[], key: string): string {
    const def = this.dedupe!;
    const shown = matches.slice(0, IDS_SHOWN).map((r) => r.id);
    const more = matches.length > IDS_SHOWN ? ` and ${matches.length - IDS_SHOWN} more` : '';
    const value = key.startsWith('s:') ? JSON.stringify(key.slice(2)) : key.slice(2);
    const how = this.caseInsensitive ? ' (ignoring case)' : '';
    return `${matches.length} ${this.type} records have ${def.slug} = ${value}${how} (${shown.join(', ')}${more}), so the row cannot tell which to update. Merge or delete the duplicates, or dedupe by another property.`;
  }
}

/**
 * Import rows `from` to `to` (exclusive) of `objects`. Every rule a row breaks is that row's
 * error; `error` is the job's: the importer's problem (no row attempted), or an internal
 * error of the sandbox, which stops the rows there (the ones before it stay imported, and
 * the answer says so rather than failing with a 500 that a client would retry).
 */
export function importRange(
  importer: RowImporter,
  objects: readonly ImportRow[],
  from: number,
  to: number,
): { results: RowResult[]; error?: ImportError } {
  if (importer.problem !== undefined) return { results: [], error: importer.problem };
  const results: RowResult[] = [];
  for (let i = from; i < to; i++) {
    try {
      results.push(importer.importRow(objects[i]!, i));
    } catch (err) {
      const message = `The import stopped at row ${i} because of an internal error of the sandbox (${(err as Error).message}); the rows before it were imported.`;
      return { results, error: { code: 'internal_error', message } };
    }
  }
  return { results };
}

/** The values of `def`'s scope: `default` for a workspace property, else its list's. */
function valuesFor(
  def: PropertyDefinition,
  values: unknown,
  lists: unknown,
): Record<string, unknown> | undefined {
  const found = def.list_id === null ? values : own(lists, def.list_id);
  return isPlainObject(found) ? found : undefined;
}

function failed(
  index: number,
  id: string | null,
  existing: boolean,
  error: ImportError,
): RowResult {
  return { id, created: false, existing, updated: false, input_index: index, error };
}

/**
 * A row's error from the answer a record write would get: the code of its first field
 * problem (`type`, `required`, `unknown_property`, ...), and its message naming every field.
 */
function rowError(err: SandboxError): ImportError {
  return { code: err.errors?.[0]?.code ?? err.code, message: err.message };
}

function unknownDedupe(scope: Scope, slug: string, listId: string | null): ImportError {
  const where = listId === null ? '' : ` or on list ${listId}`;
  return {
    code: 'unknown_dedupe_property',
    message: `options.dedupe_by names '${slug}', but ${scope.type} has no such property${where}: no row was imported. Use the slug of an existing property (GET /v2/prism/${scope.teamId}/${scope.type}/properties lists them), or create the property first.`,
  };
}
