// The single store of the sandbox: ALL state lives here. Each resource keeps its state in
// a slice (a named part of the store with its own model); the store owns the clock and the
// event bus (events.ts: models announce their changes there, other resources subscribe),
// tells listeners about changes (persistence), resets everything at once, and turns the
// whole state into a JSON snapshot and back. Neither reset() nor fromJSON() emits events:
// they replace the state, they do not write records.
//
// Slices are created on first use from their definition (`store.slice(recordsSlice)`), so
// adding a resource never touches this file.

import { isPlainObject } from '../util/guards.ts';
import { Clock } from './clock.ts';
import { EventBus, type ListenerErrorHandler } from './events.ts';

export interface SliceContext {
  readonly clock: Clock;
  /** The store's event bus: a model emits its events (and asks its checks) here. */
  readonly events: EventBus;
  /** Tell the store that the slice's state changed (schedules a write of the data file). */
  changed(): void;
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
  private readonly entries = new Map<string, Entry>();
  /** Snapshot data of slices not created yet, loaded when they are. */
  private pending = new Map<string, unknown>();
  private readonly listeners = new Set<() => void>();
  private gen = 0;

  constructor(options: { realNow?: () => number; onListenerError?: ListenerErrorHandler } = {}) {
    const clockOptions: { realNow?: () => number; onChange: () => void } = {
      onChange: () => this.changed(),
    };
    if (options.realNow !== undefined) clockOptions.realNow = options.realNow;
    this.clock = new Clock(clockOptions);
    this.events = new EventBus(
      options.onListenerError === undefined ? {} : { onListenerError: options.onListenerError },
    );
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
      changed: () => this.changed(),
    });
    if (this.pending.has(def.name)) {
      slice.load(this.pending.get(def.name));
      this.pending.delete(def.name);
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
    this.clock.setOffsetMs(0);
    this.gen++;
    this.changed();
  }

  /** True when no slice holds state (loaded but unused slice data counts as state). */
  isEmpty(): boolean {
    if (this.pending.size > 0) return false;
    for (const { slice } of this.entries.values()) if (!slice.isEmpty()) return false;
    return true;
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
    this.clock.setOffsetMs(offset);
    this.gen++;
    this.changed();
  }

  /** Call `listener` after every change of state. Returns a function that unsubscribes. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
