// The single store of the sandbox: ALL state lives here. Each resource keeps its state in
// a slice (a named part of the store with its own model); the store owns the clock and the
// event bus (events.ts: models announce their changes there, other resources subscribe),
// tells listeners about changes (persistence), resets everything at once, and turns the
// whole state into a JSON snapshot and back. Neither reset() nor fromJSON() emits events:
// they replace the state, they do not write records.
//
// Changes are told to listeners per slice, and per entry for slices that keep their state
// as keyed entries (`entries`, `entry`, `loadEntry`): the data file's journal (persist.ts)
// appends only what a write changed, so its cost does not grow with the store.
//
// Slices are created on first use from their definition (`store.slice(recordsSlice)`), so
// adding a resource never touches this file.

import { isPlainObject } from '../util/guards.ts';
import { entryOf } from '../util/maps.ts';
import { Clock } from './clock.ts';
import { EventBus, type ListenerErrorHandler } from './events.ts';
import { Work } from './work.ts';

export interface SliceContext {
  readonly clock: Clock;
  /** The store's event bus: a model emits its events (and asks its checks) here. */
  readonly events: EventBus;
  /**
   * Tell the store that the slice's state changed (the data file journals it before the
   * answer leaves). With `key` (slices with keyed entries), only that entry changed; without
   * it, the whole slice is journaled.
   */
  changed(key?: string): void;
}

export interface Slice {
  /** Drop all state. */
  reset(): void;
  /** True when the slice holds no state worth keeping. */
  isEmpty(): boolean;
  /** A JSON-serialisable copy of the state. */
  toJSON(): unknown;
  /**
   * Replace the state with a snapshot made by toJSON(). Must validate everything first and
   * either succeed completely or throw a SnapshotError leaving the state as it was.
   */
  load(data: unknown): void;
  /**
   * Slices whose state can grow with use keep it as keyed entries and say which one changed
   * (`ctx.changed(key)`): every entry as [key, JSON value] (a live iteration: entries changed
   * during it may be seen either way), one entry's JSON value (undefined: gone), and an
   * entry loaded from the journal (undefined: gone), validated like load(). Entries are
   * loaded in the order they first appear in the journal; `entriesLoaded()`, called after
   * the last one, may check them together and rebuild what derives from them (orders,
   * indexes), throwing a SnapshotError like load().
   */
  /**
   * What a snapshot (snapshot.ts: a test fixture) keeps of the slice: by default toJSON();
   * undefined for state that is history or cache, not a workspace's (runs, import jobs,
   * idempotent answers), which a snapshot leaves out (the slice starts empty from one).
   */
  snapshot?(): unknown;
  entries?(): Iterable<[string, unknown]>;
  entry?(key: string): unknown;
  loadEntry?(key: string, value: unknown): void;
  entriesLoaded?(): void;
}

/** A change of state, as listeners hear it. */
export type StoreChange =
  | { kind: 'slice'; name: string; key: string | undefined }
  | { kind: 'clock' }
  /** reset() or fromJSON(): every slice was replaced. */
  | { kind: 'replaced' };

/** A journal's state of one slice: its last whole snapshot and its entries since. */
export interface JournaledSlice {
  whole?: unknown;
  entries: Map<string, unknown>;
}

/**
 * What a slice's model starts from: the context its store made it with (`this.ctx`), and the
 * members of Slice it must have.
 */
export abstract class SliceModel implements Slice {
  protected readonly ctx: SliceContext;

  constructor(ctx: SliceContext) {
    this.ctx = ctx;
  }

  abstract reset(): void;
  abstract isEmpty(): boolean;
  abstract toJSON(): unknown;
  abstract load(data: unknown): void;
}

export interface SliceDef<T extends Slice> {
  readonly name: string;
  create(ctx: SliceContext): T;
}

export function defineSlice<T extends Slice>(
  name: string,
  create: (ctx: SliceContext) => T,
): SliceDef<T> {
  return { name, create };
}

/** A snapshot that does not have the expected shape; `path` locates the problem. */
export class SnapshotError extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = 'SnapshotError';
    this.path = path;
  }
}

/**
 * The items of a snapshot's array, each with where it stands (`<base>[i]`); anything but an
 * array is refused (`must be an array of <what>`).
 */
export function snapshotItems(data: unknown, base: string, what: string): [unknown, string][] {
  if (!Array.isArray(data)) throw new SnapshotError(base, `must be an array of ${what}`);
  return data.map((item, i) => [item, `${base}[${i}]`]);
}

/**
 * A snapshot's items by their id `key`, in their order: each parsed at `<base>[i]`, and an id
 * that comes twice refused at `<base>[i].<key>`.
 */
export function parseById<K extends string, T extends Record<K, string>>(
  items: readonly unknown[],
  base: string,
  key: K,
  parse: (item: unknown, at: string) => T,
): Map<string, T> {
  const byId = new Map<string, T>();
  for (const [i, item] of items.entries()) {
    const parsed = parse(item, `${base}[${i}]`);
    const id = parsed[key];
    if (byId.has(id)) throw new SnapshotError(`${base}[${i}].${key}`, `duplicate id ${id}`);
    byId.set(id, parsed);
  }
  return byId;
}

/**
 * A slice kept as one array of `<what>` (lists, views, automations): each item parsed at
 * `<base>[i]`, an id that comes twice refused, and the items grouped by team in their order.
 */
export function parseByTeam<T extends { id: string; team_id: string }>(
  data: unknown,
  base: string,
  what: string,
  parse: (item: unknown, at: string) => T,
): Map<string, T[]> {
  if (!Array.isArray(data)) throw new SnapshotError(base, `must be an array of ${what}`);
  const teams = new Map<string, T[]>();
  for (const item of parseById(data, base, 'id', parse).values()) {
    entryOf(teams, item.team_id, () => []).push(item);
  }
  return teams;
}

export interface StoreSnapshot {
  clock_offset_ms: number;
  slices: Record<string, unknown>;
}

interface Entry {
  def: SliceDef<Slice>;
  slice: Slice;
}

export class Store {
  readonly clock: Clock;
  /** Where models announce their changes and resources subscribe (see events.ts). */
  readonly events: EventBus;
  /** Work writes started that their answers wait for (work.ts). */
  readonly work: Work;
  private readonly entries = new Map<string, Entry>();
  /** Snapshot data of slices not created yet, loaded when they are. */
  private pending = new Map<string, unknown>();
  /** Journaled entries of slices not created yet, loaded when they are. */
  private pendingEntries = new Map<string, Map<string, unknown>>();
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private readonly commitListeners = new Set<() => void>();
  private journaledBy = false;
  private gen = 0;

  constructor(
    options: {
      realNow?: () => number;
      /** A clock shared with other stores (the teams of one sandbox); default: its own. */
      clock?: Clock;
      onListenerError?: ListenerErrorHandler;
    } = {},
  ) {
    this.clock =
      options.clock ?? new Clock(options.realNow === undefined ? {} : { realNow: options.realNow });
    this.clock.subscribe(() => this.changed({ kind: 'clock' }));
    this.events = new EventBus(
      options.onListenerError === undefined ? {} : { onListenerError: options.onListenerError },
    );
    this.work = new Work((err) => this.events.report(err, 'work'));
  }

  /** The slice of `def`, created (and filled from a loaded snapshot) on first use. */
  slice<T extends Slice>(def: SliceDef<T>): T {
    const found = this.entries.get(def.name);
    if (found !== undefined) {
      if (found.def !== def) {
        throw new Error(`Two different slice definitions share the name '${def.name}'`);
      }
      return found.slice as T;
    }
    const slice = def.create({
      clock: this.clock,
      events: this.events,
      changed: (key) => this.changed({ kind: 'slice', name: def.name, key }),
    });
    if (this.pending.has(def.name)) {
      slice.load(this.pending.get(def.name));
      this.pending.delete(def.name);
    }
    const entries = this.pendingEntries.get(def.name);
    if (entries !== undefined) {
      if (slice.loadEntry === undefined) {
        throw new SnapshotError(`store.slices.${def.name}`, 'keeps no keyed entries');
      }
      for (const [key, value] of entries) slice.loadEntry(key, value);
      slice.entriesLoaded?.();
      this.pendingEntries.delete(def.name);
    }
    this.entries.set(def.name, { def, slice });
    return slice;
  }

  /** Increases on every reset() and fromJSON(): work begun before may not write back. */
  get generation(): number {
    return this.gen;
  }

  /** Empty every slice and set the clock back to real time. */
  reset(): void {
    for (const { slice } of this.entries.values()) slice.reset();
    this.pending.clear();
    this.pendingEntries.clear();
    this.clock.setOffsetMs(0);
    this.gen++;
    this.changed({ kind: 'replaced' });
  }

  /** True when no slice holds state (loaded but unused slice data counts as state). */
  isEmpty(): boolean {
    if (this.pending.size > 0 || this.pendingEntries.size > 0) return false;
    for (const { slice } of this.entries.values()) if (!slice.isEmpty()) return false;
    return true;
  }

  /** The slices as a snapshot keeps them (Slice.snapshot), by name; the clock's offset. */
  snapshotJSON(): StoreSnapshot {
    const slices: Record<string, unknown> = {};
    for (const [name, { slice }] of this.entries) {
      const kept = slice.snapshot === undefined ? slice.toJSON() : slice.snapshot();
      if (kept !== undefined) slices[name] = kept;
    }
    return { clock_offset_ms: this.clock.offsetMs, slices };
  }

  toJSON(): StoreSnapshot {
    const slices: Record<string, unknown> = {};
    for (const [name, data] of this.pending) slices[name] = data;
    for (const [name, { slice }] of this.entries) slices[name] = slice.toJSON();
    return { clock_offset_ms: this.clock.offsetMs, slices };
  }

  /**
   * Replace all state with a snapshot made by toJSON(). Throws SnapshotError (and keeps the
   * current state) when the snapshot is not valid.
   */
  fromJSON(snapshot: unknown): void {
    if (!isPlainObject(snapshot)) throw new SnapshotError('store', 'must be an object');
    const offset = snapshot['clock_offset_ms'];
    if (typeof offset !== 'number' || !Number.isFinite(offset)) {
      throw new SnapshotError('store.clock_offset_ms', 'must be a finite number');
    }
    const slices = snapshot['slices'];
    if (!isPlainObject(slices)) throw new SnapshotError('store.slices', 'must be an object');

    const before = this.toJSON();
    try {
      for (const [name, { slice }] of this.entries) {
        if (Object.hasOwn(slices, name)) slice.load(slices[name]);
        else slice.reset();
      }
    } catch (err) {
      for (const [name, { slice }] of this.entries) {
        if (Object.hasOwn(before.slices, name)) slice.load(before.slices[name]);
      }
      throw err;
    }
    this.pending = new Map(Object.entries(slices).filter(([name]) => !this.entries.has(name)));
    this.pendingEntries.clear();
    this.clock.setOffsetMs(offset);
    this.gen++;
    this.changed({ kind: 'replaced' });
  }

  /**
   * Load a journal's state into a store that has created no slice yet (at start): whole
   * snapshots and entries are kept for the slices, which load them when created (a bad one
   * throws SnapshotError then).
   */
  loadJournal(clockOffsetMs: number, slices: ReadonlyMap<string, JournaledSlice>): void {
    if (this.entries.size > 0) throw new Error('loadJournal() is for a store without slices');
    this.pending.clear();
    this.pendingEntries.clear();
    for (const [name, state] of slices) {
      if (state.whole !== undefined) this.pending.set(name, state.whole);
      if (state.entries.size > 0) this.pendingEntries.set(name, state.entries);
    }
    this.clock.setOffsetMs(clockOffsetMs);
    this.gen++;
  }

  /** Names of the slices created, in creation order. */
  sliceNames(): string[] {
    return [...this.entries.keys()];
  }

  /** A slice's whole JSON snapshot. */
  sliceJSON(name: string): unknown {
    return this.entryOf(name).slice.toJSON();
  }

  /** True when the slice keeps keyed entries (journaled one by one). */
  isKeyed(name: string): boolean {
    const { slice } = this.entryOf(name);
    return slice.entries !== undefined && slice.entry !== undefined;
  }

  /** The JSON value of one entry of a keyed slice (undefined: gone). */
  sliceEntry(name: string, key: string): unknown {
    return this.entryOf(name).slice.entry!(key);
  }

  /** Every entry of a keyed slice (a live iteration). */
  sliceEntries(name: string): Iterable<[string, unknown]> {
    return this.entryOf(name).slice.entries!();
  }

  /**
   * True once a data file journals the store (persist.ts): what must not be seen before it
   * would survive a crash (the change feed's changes) waits for `onCommitted`.
   */
  get journaled(): boolean {
    return this.journaledBy;
  }

  /** The data file's journal says it keeps the store, and when it has appended what changed. */
  markJournaled(): void {
    this.journaledBy = true;
  }

  /** Called by the journal once every change so far is in the data file. */
  committed(): void {
    for (const listener of this.commitListeners) listener();
  }

  /** Call `listener` each time the journal has appended the changes so far. */
  onCommitted(listener: () => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** Call `listener` after every change of state. Returns a function that unsubscribes. */
  onChange(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private entryOf(name: string): Entry {
    const entry = this.entries.get(name);
    if (entry === undefined) throw new Error(`No slice named '${name}'`);
    return entry;
  }

  private changed(change: StoreChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/**
 * What a resource keeps for each store beside its slices (a runner and its timer, a ticket
 * book, caches): made by `make` on first use, and gone with the store.
 */
export function perStore<T extends object>(make: (store: Store) => T): (store: Store) => T {
  const made = new WeakMap<Store, T>();
  return (store) => {
    let value = made.get(store);
    if (value === undefined) {
      value = make(store);
      made.set(store, value);
    }
    return value;
  };
}
