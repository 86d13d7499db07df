// Records: per object type, the records of the workspace, kept in the store's `records`
// slice. The model owns every rule about their state (timestamps, versions, soft delete,
// list membership) and keeps running counts so counting is O(1). Values arrive here already
// checked against the property definitions (values.ts); a null value clears a property.
// `generation` grows with every change, so query results can be cached until the next one;
// the last changes are remembered (`changesSince`), so a cached result can catch up with a
// few writes instead of being computed again.
//
// Every write that carries a cause (the API operation and its team) is announced on the
// store's bus (events.ts): one event per record that changed, after the change, with the
// record before and after. Views, automations and webhook deliveries subscribe; this model
// never imports them. A write that changes nothing (a patch setting what is there, deleting
// a deleted record, restoring an active one) is not announced. A write without a cause (the
// demo seed, test fixtures) fills the store without an event, as reset and load do.

import { isDeepStrictEqual } from 'node:util';
import { isPlainObject } from '../../../util/guards.ts';
import { notFound } from '../../errors.ts';
import { randomId } from '../../ids.ts';
import { isObjectType, OBJECT_TYPES, type ObjectType } from '../../object-types.ts';
import { defineSlice, SliceModel, SnapshotError, type Store } from '../../store.ts';
import { type RecordEvent, recordEvents, type WriteCause } from './events.ts';
import type { NewRecord, RecordChanges, StoredRecord, Values } from './types.ts';

/**
 * The model input of a create from a write: cleared values and left lists (null) mean
 * nothing on a new record.
 */
export function newRecord(changes: RecordChanges): {
  default: Values;
  lists: Record<string, Values>;
} {
  const lists: Record<string, Values> = {};
  if (changes.lists !== undefined) {
    for (const listId of Object.keys(changes.lists)) {
      const values = changes.lists[listId];
      if (values !== null && values !== undefined) lists[listId] = values;
    }
  }
  return { default: changes.default ?? {}, lists };
}

interface Table {
  rows: Map<string, StoredRecord>;
  /** Records not soft-deleted. */
  active: number;
  /** Records not soft-deleted, per list id. */
  activeByList: Map<string, number>;
}

function emptyTables(): Map<ObjectType, Table> {
  return new Map(
    OBJECT_TYPES.map((type) => [type, { rows: new Map(), active: 0, activeByList: new Map() }]),
  );
}

/** A change of one record: the record (as it is now) and its type. */
export interface RecordChange {
  readonly type: ObjectType;
  readonly record: Readonly<StoredRecord>;
  /** The change created the record (it is the last of its type in creation order then). */
  readonly created: boolean;
}

/** How many changes `changesSince` remembers at least. */
export const CHANGES_KEPT = 256;

export class RecordsModel extends SliceModel {
  private tables = emptyTables();
  private gen = 0;
  /** changes[i] made generation changesBase + i + 1. */
  private changes: RecordChange[] = [];
  private changesBase = 0;

  /** A new record; announced as record.created when `cause` is given. */
  create(type: ObjectType, input: NewRecord = {}, cause?: WriteCause): Readonly<StoredRecord> {
    const table = this.table(type);
    const id = input.id ?? randomId();
    if (table.rows.has(id)) throw new Error(`A ${type} record with id ${id} already exists`);
    const at = input.at ?? this.ctx.clock.iso();
    const record: StoredRecord = {
      id,
      default: copyValues(input.default ?? {}),
      lists: copyLists(input.lists ?? {}),
      created_at: at,
      updated_at: at,
      deleted_at: null,
      version: 1,
    };
    table.rows.set(id, record);
    adjust(table, record, +1);
    this.changed(type, record, true);
    this.ctx.changed(entryKey(type, id));
    if (this.announces(cause)) {
      this.announce(eventOf('record.created', type, record, cause, null));
    }
    return record;
  }

  /** Grows on every change of any record (and on reset and load). */
  get generation(): number {
    return this.gen;
  }

  /**
   * The changes that made the generations after `generation`, oldest first (a record changed
   * twice is there twice); undefined when they are not all remembered: more than
   * CHANGES_KEPT ago, or across a reset or load (which replace every record).
   */
  changesSince(generation: number): readonly RecordChange[] | undefined {
    if (generation < this.changesBase || generation > this.gen) return undefined;
    return this.changes.slice(generation - this.changesBase);
  }

  /** The record with `id`, soft-deleted or not; undefined when there is none. */
  get(type: ObjectType, id: string): Readonly<StoredRecord> | undefined {
    return this.table(type).rows.get(id);
  }

  /**
   * Records of `type` in creation order. With includeDeleted, the table's own iterator: a
   * full scan that skips soft-deleted records itself runs several times faster than through
   * a generator (the query engine's does).
   */
  records(
    type: ObjectType,
    options: { includeDeleted?: boolean } = {},
  ): IterableIterator<Readonly<StoredRecord>> {
    const rows = this.table(type).rows.values();
    return options.includeDeleted === true ? rows : active(rows);
  }

  /**
   * Set values on a record (soft-deleted or not). Bumps version and updated_at when
   * something changed (announced as record.updated when `cause` is given); a change that
   * sets what is already there leaves the record as it was, unannounced.
   */
  update(
    type: ObjectType,
    id: string,
    changes: RecordChanges,
    cause?: WriteCause,
  ): Readonly<StoredRecord> {
    const table = this.table(type);
    const record = this.require(type, id);
    const nextDefault = merged(record.default, changes.default);
    const nextLists: Record<string, Values> = { ...record.lists };
    for (const [listId, values] of Object.entries(changes.lists ?? {})) {
      if (values === null) delete nextLists[listId];
      else nextLists[listId] = merged(record.lists[listId] ?? {}, values);
    }
    if (
      isDeepStrictEqual(nextDefault, record.default) &&
      isDeepStrictEqual(nextLists, record.lists)
    ) {
      return record;
    }
    const before = this.announces(cause) ? copyOf(record) : undefined;
    const active = record.deleted_at === null;
    if (active) adjust(table, record, -1);
    record.default = nextDefault;
    record.lists = nextLists;
    if (active) adjust(table, record, +1);
    this.touch(type, record);
    if (before !== undefined) {
      this.announce(eventOf('record.updated', type, record, cause!, before));
    }
    return record;
  }

  /**
   * Soft-delete: the record stays, with deleted_at set, and stops being counted (announced
   * as record.deleted when `cause` is given; a record deleted already is left as it is).
   */
  softDelete(type: ObjectType, id: string, cause?: WriteCause): Readonly<StoredRecord> {
    return this.setDeleted(type, id, true, cause);
  }

  /** Undo a soft delete (announced as record.restored when `cause` is given). */
  restore(type: ObjectType, id: string, cause?: WriteCause): Readonly<StoredRecord> {
    return this.setDeleted(type, id, false, cause);
  }

  /** Soft-delete or restore: a record already so is left as it is. */
  private setDeleted(
    type: ObjectType,
    id: string,
    deleted: boolean,
    cause: WriteCause | undefined,
  ): Readonly<StoredRecord> {
    const record = this.require(type, id);
    if ((record.deleted_at !== null) === deleted) return record;
    const before = this.announces(cause) ? copyOf(record) : undefined;
    adjust(this.table(type), record, deleted ? -1 : +1);
    record.deleted_at = deleted ? this.ctx.clock.iso() : null;
    this.touch(type, record);
    if (before !== undefined) {
      const event = deleted ? 'record.deleted' : 'record.restored';
      this.announce(eventOf(event, type, record, cause!, before));
    }
    return record;
  }

  /**
   * Take a record out altogether (no soft delete, no event): what a seed that failed had
   * written (seed.ts). A record that is not there is no error.
   */
  remove(type: ObjectType, id: string): void {
    const table = this.table(type);
    const record = table.rows.get(id);
    if (record === undefined) return;
    if (record.deleted_at === null) adjust(table, record, -1);
    table.rows.delete(id);
    this.replaced();
    this.ctx.changed(entryKey(type, id));
  }

  /** Records of `type` that are not soft-deleted; with listId, only that list's members. */
  count(type: ObjectType, options: { listId?: string } = {}): number {
    const table = this.table(type);
    if (options.listId === undefined) return table.active;
    return table.activeByList.get(options.listId) ?? 0;
  }

  reset(): void {
    this.tables = emptyTables();
    this.replaced();
  }

  isEmpty(): boolean {
    for (const table of this.tables.values()) if (table.rows.size > 0) return false;
    return true;
  }

  toJSON(): Record<ObjectType, StoredRecord[]> {
    const out = {} as Record<ObjectType, StoredRecord[]>;
    for (const [type, table] of this.tables) out[type] = [...table.rows.values()];
    return out;
  }

  load(data: unknown): void {
    const base = 'store.slices.records';
    if (!isPlainObject(data))
      throw new SnapshotError(base, 'must be an object keyed by object type');
    const tables = emptyTables();
    for (const [type, rows] of Object.entries(data)) {
      if (!isObjectType(type)) {
        throw new SnapshotError(
          `${base}.${type}`,
          `unknown object type (known: ${OBJECT_TYPES.join(', ')})`,
        );
      }
      if (!Array.isArray(rows))
        throw new SnapshotError(`${base}.${type}`, 'must be an array of records');
      const table = tables.get(type)!;
      for (const [i, row] of rows.entries()) {
        const record = parseRecord(row, `${base}.${type}[${i}]`);
        if (table.rows.has(record.id)) {
          throw new SnapshotError(`${base}.${type}[${i}].id`, `duplicate id ${record.id}`);
        }
        table.rows.set(record.id, record);
        if (record.deleted_at === null) adjust(table, record, +1);
      }
    }
    this.tables = tables;
    this.replaced();
  }

  /** Every record as a journal entry (`<type>/<id>`), in creation order per type. */
  *entries(): IterableIterator<[string, unknown]> {
    for (const [type, table] of this.tables) {
      for (const [id, record] of table.rows) yield [entryKey(type, id), record];
    }
  }

  entry(key: string): unknown {
    const [type, id] = splitKey(key, 'store.slices.records');
    return this.table(type).rows.get(id);
  }

  /** A record from the journal: added at the end of its type, or replacing its old self. */
  loadEntry(key: string, value: unknown): void {
    const at = `store.slices.records.${key}`;
    const [type, id] = splitKey(key, at);
    const table = this.table(type);
    const old = table.rows.get(id);
    if (value === undefined) {
      if (old !== undefined && old.deleted_at === null) adjust(table, old, -1);
      table.rows.delete(id);
    } else {
      const record = parseRecord(value, at);
      if (record.id !== id) throw new SnapshotError(`${at}.id`, `must be ${id}`);
      if (old !== undefined && old.deleted_at === null) adjust(table, old, -1);
      table.rows.set(id, record);
      if (record.deleted_at === null) adjust(table, record, +1);
    }
    this.replaced();
  }

  private table(type: ObjectType): Table {
    const table = this.tables.get(type);
    if (table === undefined) throw new Error(`Unknown object type ${type}`);
    return table;
  }

  private require(type: ObjectType, id: string): StoredRecord {
    const record = this.table(type).rows.get(id);
    if (record === undefined) throw notFound(`No ${type} record has the id ${id}.`);
    return record;
  }

  /** True when a write with `cause` is to be announced: it has one, and someone listens. */
  private announces(cause: WriteCause | undefined): cause is WriteCause {
    return cause !== undefined && this.ctx.events.listening(recordEvents);
  }

  private announce(event: RecordEvent): void {
    this.ctx.events.emit(recordEvents, event);
  }

  /** A new generation made by a change of `record`, remembered. */
  private changed(type: ObjectType, record: StoredRecord, created: boolean): void {
    this.gen++;
    this.changes.push({ type, record, created });
    if (this.changes.length >= 2 * CHANGES_KEPT) {
      this.changes = this.changes.slice(CHANGES_KEPT);
      this.changesBase += CHANGES_KEPT;
    }
  }

  /** A new generation where every record was replaced: no change before it is remembered. */
  private replaced(): void {
    this.gen++;
    this.changes = [];
    this.changesBase = this.gen;
  }

  private touch(type: ObjectType, record: StoredRecord): void {
    this.changed(type, record, false);
    record.version++;
    record.updated_at = this.ctx.clock.iso();
    this.ctx.changed(entryKey(type, record.id));
  }
}

/** The journal key of a record. */
function entryKey(type: ObjectType, id: string): string {
  return `${type}/${id}`;
}

function splitKey(key: string, at: string): [ObjectType, string] {
  const slash = key.indexOf('/');
  const type = key.slice(0, slash);
  if (slash < 1 || !isObjectType(type) || slash === key.length - 1) {
    throw new SnapshotError(at, 'is not a journal key <object type>/<id>');
  }
  return [type, key.slice(slash + 1)];
}

function* active(rows: Iterable<StoredRecord>): IterableIterator<Readonly<StoredRecord>> {
  for (const record of rows) if (record.deleted_at === null) yield record;
}

/** The event of a write of `record` (now written) with `cause`. */
function eventOf(
  type: 'record.created',
  objectType: ObjectType,
  record: StoredRecord,
  cause: WriteCause,
  before: null,
): RecordEvent;
function eventOf(
  type: Exclude<RecordEvent['type'], 'record.created'>,
  objectType: ObjectType,
  record: StoredRecord,
  cause: WriteCause,
  before: Readonly<StoredRecord>,
): RecordEvent;
function eventOf(
  type: RecordEvent['type'],
  objectType: ObjectType,
  record: StoredRecord,
  cause: WriteCause,
  before: Readonly<StoredRecord> | null,
): RecordEvent {
  const { source, teamId } = cause;
  const after = copyOf(record);
  return { type, objectType, id: record.id, source, teamId, before, after } as RecordEvent;
}

/**
 * A record as it is now, for an event: a top-level copy suffices, as the model never
 * changes a record's values in place (a write sets new `default` and `lists` objects).
 * Not frozen (freezing cost more than the rest of an event): listeners treat it as
 * read-only, and changing the copy would not reach the store anyway.
 */
function copyOf(record: StoredRecord): Readonly<StoredRecord> {
  return { ...record };
}

/** `values` with `changes` applied: a null clears the slug; values are copied in. */
function merged(values: Values, changes: Values | undefined): Values {
  const next: Values = { ...values };
  for (const [slug, value] of Object.entries(changes ?? {})) {
    if (value === null) delete next[slug];
    else next[slug] = copyValue(value);
  }
  return next;
}

/** A copy of `values` without its nulls (a null clears: there is nothing to keep). */
function copyValues(values: Values): Values {
  // A spread copy keeps the layout of `values` (a parsed body's objects hold their
  // properties inline: one object per record, not two); arrays and objects are cloned in
  // place. A null, rare, means building the copy key by key without it.
  const copy: Values = { ...values };
  for (const slug of Object.keys(copy)) {
    const value = copy[slug];
    if (value === null) return copyWithoutNulls(values);
    if (typeof value === 'object') copy[slug] = copyValue(value);
  }
  return copy;
}

function copyWithoutNulls(values: Values): Values {
  const copy: Values = {};
  for (const slug of Object.keys(values)) {
    const value = values[slug];
    if (value !== null) copy[slug] = copyValue(value);
  }
  return copy;
}

/**
 * The lists of a record in no list: one frozen object shared by all of them (most records;
 * the model never changes a record's lists in place, it sets new ones).
 */
const NO_LISTS: Record<string, Values> = Object.freeze({});

function copyLists(lists: Record<string, Values>): Record<string, Values> {
  const listIds = Object.keys(lists);
  if (listIds.length === 0) return NO_LISTS;
  const copy: Record<string, Values> = {};
  for (const listId of listIds) copy[listId] = copyValues(lists[listId]!);
  return copy;
}

/** A value the model keeps: arrays and objects are copied, so the writer cannot change them. */
function copyValue(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

function adjust(table: Table, record: StoredRecord, delta: 1 | -1): void {
  table.active += delta;
  for (const listId of Object.keys(record.lists)) {
    const next = (table.activeByList.get(listId) ?? 0) + delta;
    if (next === 0) table.activeByList.delete(listId);
    else table.activeByList.set(listId, next);
  }
}

function parseRecord(row: unknown, at: string): StoredRecord {
  if (!isPlainObject(row)) throw new SnapshotError(at, 'must be an object');
  const problem = (field: string, message: string) => new SnapshotError(`${at}.${field}`, message);
  if (typeof row['id'] !== 'string' || row['id'] === '')
    throw problem('id', 'must be a non-empty string');
  if (!isPlainObject(row['default'])) throw problem('default', 'must be an object');
  const lists = row['lists'] ?? {};
  if (!isPlainObject(lists) || !Object.values(lists).every(isPlainObject)) {
    throw problem('lists', 'must be an object of objects');
  }
  for (const field of ['created_at', 'updated_at'] as const) {
    if (typeof row[field] !== 'string') throw problem(field, 'must be an ISO-8601 string');
  }
  if (row['deleted_at'] !== null && typeof row['deleted_at'] !== 'string') {
    throw problem('deleted_at', 'must be null or an ISO-8601 string');
  }
  const version = row['version'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw problem('version', 'must be an integer >= 1');
  }
  return {
    id: row['id'],
    default: row['default'],
    lists: lists as Record<string, Values>,
    created_at: row['created_at'] as string,
    updated_at: row['updated_at'] as string,
    deleted_at: row['deleted_at'] as string | null,
    version,
  };
}

export const recordsSlice = defineSlice('records', (ctx) => new RecordsModel(ctx));

/** The records model of `store`. */
export function recordsOf(store: Store): RecordsModel {
  return store.slice(recordsSlice);
}
