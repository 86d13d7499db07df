// The change feed: every record change the event spine announces, in order, numbered, kept
// for a window (the last `windowSize` changes) so a reader that went away can come back and
// read on from where it was. The realtime stream (resources/realtime/) is its reader; a
// console's activity log can be another.
//
// - Positions are `<stream>-<sequence>`: the sequence counts changes (1, 2, …) within a
//   stream; the stream is a random id, new when the store is reset or first created, so a
//   position from before a reset, or from another sandbox, is told apart from one of this
//   stream. `<stream>-0` is the position before the first change.
// - A change keeps what its record was after the write (its values are the store's own: the
//   records model never changes them in place) and, for an update, the values it changed
//   from, so that readers can say what changed, before → after. A change is small in memory
//   (references, and the previous values of what changed); the window bounds the memory.
// - The slice keeps keyed entries for the data file's journal: one per change (its
//   sequence) and `meta` (the stream id), so a write appends its changes (and the ones the
//   window drops, as lines without a value), and a sandbox restarted on its data file goes
//   on with the same stream and sequence: a reader resumes without a gap or a duplicate.
//   A journaled change leaves out the record's values (the record's own line has them):
//   loaded again, the values after each change are worked out from the records as they are
//   and, going back from the newest change, the values each update changed from. So a write
//   costs the journal a short line more, not a second copy of the record.
// - Durability: with a data file, a change is handed to readers only once the journal has it
//   (`durable`): a reader never sees a change that a crash could take back, which a restarted
//   sandbox would number again for another change.

import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject } from '../util/guards.ts';
import { isObjectType, type ObjectType } from './object-types.ts';
import { type RecordEvent, recordEvents } from './resources/records/events.ts';
import { recordsOf } from './resources/records/model.ts';
import type { Values } from './resources/records/types.ts';
import { defineSlice, SliceModel, SnapshotError, type Store } from './store.ts';

/** What happened to the record. */
export type ChangeKind = 'created' | 'updated' | 'deleted' | 'restored';

/** One change of one record. */
export interface FeedChange {
  readonly seq: number;
  /** When it happened (sandbox time, ISO-8601). */
  readonly at: string;
  readonly team_id: string;
  readonly type: ObjectType;
  readonly id: string;
  readonly change: ChangeKind;
  /** The API operation that wrote it (records/events.ts: create, patch, import, …). */
  readonly source: string;
  /**
   * The record's workspace values after the write (as it was, for a deletion). Not in the
   * journal; filled in again when it is loaded (`fillValues`).
   */
  readonly values: Readonly<Values>;
  /** Its list memberships and their values after the write; absent when none. */
  readonly lists?: Readonly<Record<string, Values>>;
  /** Updates: the previous workspace value of each slug that changed (null: none). */
  readonly from?: Readonly<Values>;
  /** Updates: the previous values of each list whose values changed (null: not a member). */
  readonly lists_from?: Readonly<Record<string, Values | null>>;
}

/** How much the feed keeps. */
export interface FeedSettings {
  /** Changes kept for readers that come back (default 10,000). */
  windowSize: number;
}

export const DEFAULT_WINDOW = 10_000;

const KINDS: Readonly<Record<RecordEvent['type'], ChangeKind>> = {
  'record.created': 'created',
  'record.updated': 'updated',
  'record.deleted': 'deleted',
  'record.restored': 'restored',
};

/** A position parsed: its stream and sequence. */
export interface Position {
  stream: string;
  seq: number;
}

export function formatPosition(stream: string, seq: number): string {
  return `${stream}-${seq}`;
}

/** `<stream>-<sequence>`; undefined when the text is not a position. */
export function parsePosition(text: string): Position | undefined {
  const m = /^([0-9a-f]{8})-(0|[1-9][0-9]{0,15})$/.exec(text);
  if (m === null) return undefined;
  const seq = Number(m[2]);
  return Number.isSafeInteger(seq) ? { stream: m[1]!, seq } : undefined;
}

function newStream(): string {
  return randomBytes(4).toString('hex');
}

export class ChangeFeed extends SliceModel {
  private stream = newStream();
  /** The stream id is not in the journal yet (written with the next change). */
  private metaUnsaved = true;
  /** Changes kept, oldest first: entries[i] has sequence first + i. */
  private entries_: FeedChange[] = [];
  private first = 1;
  private last = 0;
  /** The last sequence the journal holds (the last one, without a data file). */
  private durableSeq = 0;
  /** True when a data file journals the store: changes are readable once it has them. */
  journaled: () => boolean = () => false;
  private readonly listeners = new Set<() => void>();
  settings: FeedSettings = { windowSize: DEFAULT_WINDOW };
  private flushScheduled = false;

  /** The stream's id (positions of another stream are not this feed's). */
  get streamId(): string {
    return this.stream;
  }

  /** The sequence of the last change (0: none yet in this stream). */
  get latest(): number {
    return this.last;
  }

  /** The sequence of the oldest change kept (latest + 1 when none is kept). */
  get oldest(): number {
    return this.first;
  }

  /** The last sequence readers may be given (what the data file holds). */
  get durable(): number {
    return this.durableSeq;
  }

  position(seq: number): string {
    return formatPosition(this.stream, seq);
  }

  /** The change with this sequence, when it is kept. */
  get(seq: number): FeedChange | undefined {
    return seq >= this.first && seq <= this.last ? this.entries_[seq - this.first] : undefined;
  }

  /** Call `listener` when changes become durable (readable), or the feed was replaced. */
  onChanges(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The journal has appended every change made so far. */
  committed(): void {
    if (this.durableSeq === this.last) return;
    this.durableSeq = this.last;
    this.notify();
  }

  /** A record change from the spine, appended. */
  append(event: RecordEvent): void {
    const seq = ++this.last;
    const { after } = event;
    const change: {
      -readonly [K in keyof FeedChange]: FeedChange[K];
    } = {
      seq,
      // The write's time, as the record has it (no second reading of the clock).
      at: after.updated_at,
      team_id: event.teamId,
      type: event.objectType,
      id: event.id,
      change: KINDS[event.type],
      source: event.source,
      values: after.default,
    };
    if (Object.keys(after.lists).length > 0) change.lists = after.lists;
    if (event.type === 'record.updated') {
      const { before } = event;
      change.from = previous(before.default, after.default);
      const listsFrom: Record<string, Values | null> = {};
      for (const listId of new Set([...Object.keys(before.lists), ...Object.keys(after.lists)])) {
        const was = before.lists[listId];
        if (!isDeepStrictEqual(was, after.lists[listId])) listsFrom[listId] = was ?? null;
      }
      if (Object.keys(listsFrom).length > 0) change.lists_from = listsFrom;
    }
    this.entries_.push(change);
    this.ctx.changed(String(seq));
    if (this.metaUnsaved) {
      this.metaUnsaved = false;
      this.ctx.changed('meta');
    }
    this.trim();
    if (!this.journaled()) {
      this.durableSeq = this.last;
      this.scheduleNotify();
    }
  }

  /** Drop the changes older than the window (each dropped one journaled as gone). */
  private trim(): void {
    const over = this.entries_.length - this.settings.windowSize;
    if (over <= 0) return;
    // Dropped in batches, so the array is not shifted at every change.
    if (over < Math.max(1, Math.floor(this.settings.windowSize / 8))) return;
    for (let i = 0; i < over; i++) this.ctx.changed(String(this.first + i));
    this.entries_ = this.entries_.slice(over);
    this.first += over;
  }

  /** Readers hear of the changes of a write once it is done (one notice for its changes). */
  private scheduleNotify(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.notify();
    });
  }

  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (err) {
        this.ctx.events.report(err, 'changes');
      }
    }
  }

  // ---------------------------------------------------------------- slice

  reset(): void {
    this.stream = newStream();
    this.metaUnsaved = true;
    this.entries_ = [];
    this.first = 1;
    this.last = 0;
    this.durableSeq = 0;
    this.scheduleNotify();
  }

  isEmpty(): boolean {
    return this.entries_.length === 0;
  }

  /** The changes are history: a snapshot leaves them out (a stream starts afresh from one). */
  snapshot(): undefined {
    return undefined;
  }

  toJSON(): { stream: string; first: number; changes: FeedChange[] } {
    return { stream: this.stream, first: this.first, changes: [...this.entries_] };
  }

  load(data: unknown): void {
    const base = 'store.slices.changes';
    if (!isPlainObject(data) || !Array.isArray(data['changes'])) {
      throw new SnapshotError(base, 'must be an object with the changes kept');
    }
    if (typeof data['stream'] !== 'string' || !/^[0-9a-f]{8}$/.test(data['stream'])) {
      throw new SnapshotError(`${base}.stream`, 'must be 8 hex characters');
    }
    const changes = data['changes'].map((c, i) => parseChange(c, `${base}.changes[${i}]`));
    const first = changes[0]?.seq ?? Number(data['first']);
    if (!Number.isSafeInteger(first) || first < 1) {
      throw new SnapshotError(`${base}.first`, 'must be a sequence (an integer from 1)');
    }
    changes.forEach((c, i) => {
      if (c.seq !== first + i) {
        throw new SnapshotError(`${base}.changes[${i}].seq`, `must be ${first + i}`);
      }
    });
    this.stream = data['stream'];
    this.metaUnsaved = false;
    this.entries_ = changes;
    this.first = first;
    this.last = first + changes.length - 1;
    this.durableSeq = this.last;
  }

  /** Journal entries: `meta` (the stream id and the window's start) and one per change. */
  *entries(): IterableIterator<[string, unknown]> {
    yield ['meta', this.entry('meta')];
    for (const change of this.entries_) yield [String(change.seq), journaled(change)];
  }

  entry(key: string): unknown {
    if (key === 'meta') return { stream: this.stream, last: this.last };
    const change = this.get(Number(key));
    return change === undefined ? undefined : journaled(change);
  }

  /**
   * The values after each change loaded from the journal, from the records as they are now
   * (`record`), going back from the newest change: an update's values before it are the
   * values after it with what it changed from put back; nothing before a creation.
   */
  fillValues(
    record: (
      type: ObjectType,
      id: string,
    ) => { default: Values; lists: Record<string, Values> } | undefined,
  ): void {
    const now = new Map<string, { values: Values; lists: Record<string, Values> }>();
    for (let i = this.entries_.length - 1; i >= 0; i--) {
      const change = this.entries_[i]! as { -readonly [K in keyof FeedChange]: FeedChange[K] };
      const key = `${change.type}/${change.id}`;
      let state = now.get(key);
      if (state === undefined) {
        const stored = record(change.type, change.id);
        state = { values: stored?.default ?? {}, lists: stored?.lists ?? {} };
      }
      if (change.values === undefined) {
        change.values = state.values;
        if (Object.keys(state.lists).length > 0) change.lists = state.lists;
      }
      if (change.change === 'updated') {
        const values = { ...state.values };
        for (const [slug, from] of Object.entries(change.from ?? {})) {
          if (from === null) delete values[slug];
          else values[slug] = from;
        }
        const lists = { ...state.lists };
        for (const [listId, from] of Object.entries(change.lists_from ?? {})) {
          if (from === null) delete lists[listId];
          else lists[listId] = from;
        }
        state = { values, lists };
      }
      now.set(key, state);
    }
  }

  /** Entries load in the order they first appear; entriesLoaded() puts them in order. */
  private loading: { meta?: { stream: string; last: number }; changes: Map<number, FeedChange> } = {
    changes: new Map(),
  };

  loadEntry(key: string, value: unknown): void {
    const at = `store.slices.changes[${JSON.stringify(key)}]`;
    if (key === 'meta') {
      if (
        !isPlainObject(value) ||
        typeof value['stream'] !== 'string' ||
        !/^[0-9a-f]{8}$/.test(value['stream']) ||
        !Number.isSafeInteger(value['last'])
      ) {
        throw new SnapshotError(at, 'must be { stream, last }');
      }
      this.loading.meta = { stream: value['stream'], last: value['last'] as number };
      return;
    }
    const seq = Number(key);
    if (!Number.isSafeInteger(seq) || seq < 1 || String(seq) !== key) {
      throw new SnapshotError(at, 'is not a change sequence');
    }
    if (value === undefined) {
      this.loading.changes.delete(seq);
      return;
    }
    const change = parseChange(value, at);
    if (change.seq !== seq) throw new SnapshotError(`${at}.seq`, `must be ${seq}`);
    this.loading.changes.set(seq, change);
  }

  entriesLoaded(): void {
    const { meta, changes } = this.loading;
    this.loading = { changes: new Map() };
    const seqs = [...changes.keys()].sort((a, b) => a - b);
    // The journal keeps the changes of the window: consecutive, up to the last.
    for (let i = 1; i < seqs.length; i++) {
      if (seqs[i] !== seqs[i - 1]! + 1) {
        throw new SnapshotError(
          'store.slices.changes',
          `the changes kept are not consecutive (${seqs[i - 1]}, then ${seqs[i]})`,
        );
      }
    }
    if (meta === undefined) {
      // Changes without their stream id: a file cut before its first meta line. Begin anew.
      if (seqs.length > 0) {
        throw new SnapshotError(
          'store.slices.changes',
          'changes without the stream they belong to',
        );
      }
      return;
    }
    this.stream = meta.stream;
    this.metaUnsaved = false;
    this.entries_ = seqs.map((s) => changes.get(s)!);
    this.last = Math.max(meta.last, seqs.at(-1) ?? 0);
    this.first = seqs[0] ?? this.last + 1;
    this.durableSeq = this.last;
  }
}

/** A change as the journal keeps it: without the record's values. */
function journaled(change: FeedChange): Omit<FeedChange, 'values' | 'lists'> {
  const { values: _v, lists: _l, ...rest } = change;
  return rest;
}

/** The previous value of each slug whose value changed (null for none). */
function previous(before: Values, after: Values): Values {
  const out: Values = {};
  for (const slug of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!isDeepStrictEqual(before[slug], after[slug])) out[slug] = before[slug] ?? null;
  }
  return out;
}

function parseChange(value: unknown, at: string): FeedChange {
  if (!isPlainObject(value)) throw new SnapshotError(at, 'must be an object');
  const bad = (field: string, what: string) =>
    new SnapshotError(`${at}.${field}`, `must be ${what}`);
  if (!Number.isSafeInteger(value['seq']) || (value['seq'] as number) < 1)
    throw bad('seq', 'an integer from 1');
  for (const field of ['at', 'team_id', 'id', 'source'] as const) {
    if (typeof value[field] !== 'string') throw bad(field, 'a string');
  }
  if (typeof value['type'] !== 'string' || !isObjectType(value['type']))
    throw bad('type', 'a record object type');
  if (!Object.values(KINDS).includes(value['change'] as ChangeKind))
    throw bad('change', `one of ${Object.values(KINDS).join(', ')}`);
  for (const field of ['values', 'lists', 'from', 'lists_from'] as const) {
    if (value[field] !== undefined && !isPlainObject(value[field])) throw bad(field, 'an object');
  }
  return value as unknown as FeedChange;
}

export const changesSlice = defineSlice('changes', (ctx) => new ChangeFeed(ctx));

/** The change feed of `store`. */
export function changesOf(store: Store): ChangeFeed {
  return store.slice(changesSlice);
}

const subscribed = new WeakSet<Store>();

/**
 * Feed the spine's record changes into the feed, readable once the data file has them
 * (once per store, at assembly).
 */
export function subscribeChanges(store: Store): void {
  if (subscribed.has(store)) return;
  subscribed.add(store);
  const feed = changesOf(store);
  // Changes loaded from the data file: their values, from the records (loaded before).
  const records = recordsOf(store);
  feed.fillValues((type, id) => records.get(type, id));
  feed.journaled = () => store.journaled;
  store.events.on(recordEvents, (event) => feed.append(event));
  store.onCommitted(() => feed.committed());
}
