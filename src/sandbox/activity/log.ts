// The activity log: what the sandbox did, in the order it did it, heard on the event spine
// (records created, updated, deleted and restored; import jobs and their steps; automation
// runs; webhook deliveries and their attempts; the clock moved; a reset), each entry with
// its cause (the request or import job it happened in: cause.ts) and the time on the
// sandbox clock. The console reads it (its activity feed and each record's history), and so
// can any later reader of the sandbox's news (a realtime stream of changes).
//
// Bounded: the latest MAX_SLOTS events are kept, the oldest dropped first. A record's
// changes outlive that bound: a record's change that drops out is kept by record (the
// latest MAX_RECORD_CHANGES of each), so a record's history is what the log still holds of
// it plus what it dropped. The log keeps each event as it was emitted, by reference, in
// slots of parallel arrays (no object of its own per event), and presents entries only when
// they are read: an import of 20,000 rows that fires 50,000 runs adds 20,000 record events
// and one event per row for the runs it started (bench/sandbox-console.mjs). Entries are
// numbered one per record change, run, delivery, … : the runs a write started are one
// event and as many entries. What the events carry live (a job, a run, a delivery) is read
// as it is when presented. A reset empties the log (what it told of is gone) and starts it
// again from an entry that says so.
//
// Kept in memory only: the data file keeps the state, not how it came to be.

import { type Cause, currentCause } from '../cause.ts';
import { type ClockAdvanced, clockEvents } from '../clock.ts';
import {
  type RunEvent,
  type RunsStartedEvent,
  runEvents,
} from '../resources/automations/events.ts';
import type { Run } from '../resources/automations/types.ts';
import { type ImportEvent, importEvents } from '../resources/imports/events.ts';
import { type RecordEvent, recordEvents } from '../resources/records/events.ts';
import { type DeliveryEvent, deliveryEvents } from '../resources/webhooks/events.ts';
import type { Store } from '../store.ts';

/** Events kept (the oldest dropped first). */
export const MAX_SLOTS = 200_000;
/** Changes kept per record for its history (the oldest dropped first). */
export const MAX_RECORD_CHANGES = 100;

interface Base {
  /** 1, 2, 3, … in the order things happened (not reset by a reset). */
  readonly seq: number;
  /** Sandbox time, epoch ms. */
  readonly atMs: number;
  /** The request or import job it happened in; undefined for timers (retries, waits). */
  readonly cause: Cause | undefined;
}

/** A run the log tells of: one of the runs a write started, or one that resumed or ended. */
export interface RunNews {
  readonly type: 'run.started' | RunEvent['type'];
  readonly recordId: string;
  readonly objectType: string;
  /** The run as it is now; undefined when the sandbox no longer keeps it. */
  run(): Run | undefined;
}

export type ActivityEntry =
  | (Base & { readonly kind: 'record'; readonly event: RecordEvent })
  | (Base & { readonly kind: 'import'; readonly event: ImportEvent })
  | (Base & { readonly kind: 'run'; readonly event: RunNews })
  | (Base & { readonly kind: 'delivery'; readonly event: DeliveryEvent })
  | (Base & { readonly kind: 'clock'; readonly event: ClockAdvanced })
  | (Base & { readonly kind: 'reset'; readonly event: undefined });

export type ActivityKind = ActivityEntry['kind'];

const KINDS: readonly ActivityKind[] = ['record', 'import', 'run', 'delivery', 'clock', 'reset'];
const KIND_CODE = new Map(KINDS.map((k, i) => [k, i]));

type Stored =
  | RecordEvent
  | ImportEvent
  | RunsStartedEvent
  | RunEvent
  | DeliveryEvent
  | ClockAdvanced
  | undefined;

export class ActivityLog {
  private readonly store: Store;
  private readonly capacity: number;
  // Slot n (counted since the log began) is at n % capacity in each of these.
  private readonly kinds: Uint8Array;
  private readonly seqs: Float64Array;
  private readonly times: Float64Array;
  private readonly events: Stored[] = [];
  private readonly causes: (Cause | undefined)[] = [];
  /** Slots used since the log began; the next slot is `slots`. */
  private slots = 0;
  /** The first slot since the latest reset. */
  private firstSlot = 0;
  /** The latest entry's sequence. */
  private last = 0;
  /** Changes of records that dropped out, oldest first, by record id (UUIDs: unique). */
  private dropped = new Map<string, ActivityEntry[]>();
  private readonly perRecord: number;
  private readonly unsubscribe: (() => void)[];

  constructor(store: Store, options: { maxSlots?: number; maxRecordChanges?: number } = {}) {
    this.store = store;
    this.capacity = options.maxSlots ?? MAX_SLOTS;
    this.perRecord = options.maxRecordChanges ?? MAX_RECORD_CHANGES;
    this.kinds = new Uint8Array(this.capacity);
    this.seqs = new Float64Array(this.capacity);
    this.times = new Float64Array(this.capacity);
    const { events } = store;
    this.unsubscribe = [
      events.on(recordEvents, (event) => this.add('record', event, 1)),
      events.on(importEvents, (event) => this.add('import', event, 1)),
      events.on(runEvents, (event) =>
        this.add('run', event, event.type === 'runs.started' ? event.count : 1),
      ),
      events.on(deliveryEvents, (event) => this.add('delivery', event, 1)),
      events.on(clockEvents, (event) => this.add('clock', event, 1)),
    ];
  }

  /**
   * The sandbox was reset: what the log told of is gone (records, runs, deliveries, jobs), so
   * the log starts again from an entry that says so (its sequence goes on).
   */
  resetDone(): void {
    this.dropped = new Map();
    this.events.fill(undefined);
    this.causes.fill(undefined);
    this.firstSlot = this.slots;
    this.add('reset', undefined, 1);
  }

  /** The sequence of the latest entry (0: none yet). */
  get latest(): number {
    return this.last;
  }

  /**
   * Entries newest first, from sequence `before - 1` down, that `keep` accepts, until `limit`
   * are found or `scan` events were looked at (a filter that matches little still answers
   * quickly; `next`, when there is more, is the `before` to go on from).
   */
  newestFirst(
    options: { before?: number; limit: number; scan?: number },
    keep: (entry: ActivityEntry) => boolean = () => true,
  ): { entries: ActivityEntry[]; next: number | undefined } {
    const entries: ActivityEntry[] = [];
    const before = options.before ?? Number.POSITIVE_INFINITY;
    const lowest = this.lowestSlot();
    const stop = Math.max(lowest, this.slots - (options.scan ?? this.capacity));
    let n = this.slots - 1;
    let next: number | undefined;
    for (; n >= stop; n--) {
      const i = n % this.capacity;
      const first = this.seqs[i]!;
      const count = this.countOf(i);
      for (let k = count - 1; k >= 0; k--) {
        const seq = first + k;
        if (seq >= before) continue;
        if (entries.length === options.limit) {
          next = seq + 1;
          break;
        }
        const entry = this.entryAt(i, k);
        if (keep(entry)) entries.push(entry);
      }
      if (next !== undefined) break;
    }
    // Scanned as far as asked, with older events left: go on from the oldest one scanned.
    if (next === undefined && n >= lowest) next = this.seqs[(n + 1) % this.capacity]!;
    return { entries, next };
  }

  /** The changes of a record kept for its history, oldest first. */
  changesOf(objectType: string, id: string): readonly ActivityEntry[] {
    const of = (event: RecordEvent) => event.id === id && event.objectType === objectType;
    const kept: ActivityEntry[] = [];
    for (let n = this.lowestSlot(); n < this.slots; n++) {
      const i = n % this.capacity;
      if (this.kinds[i] === RECORD && of(this.events[i] as RecordEvent)) {
        kept.push(this.entryAt(i, 0));
      }
    }
    const dropped = (this.dropped.get(id) ?? []).filter((e) => e.kind === 'record' && of(e.event));
    return [...dropped, ...kept].slice(-this.perRecord);
  }

  /** Stop listening (the sandbox is closing). */
  close(): void {
    for (const stop of this.unsubscribe) stop();
  }

  private lowestSlot(): number {
    return Math.max(this.firstSlot, this.slots - this.capacity);
  }

  /** How many entries the event in slot `i` makes. */
  private countOf(i: number): number {
    const event = this.events[i];
    return this.kinds[i] === RUN && (event as RunsStartedEvent).type === 'runs.started'
      ? (event as RunsStartedEvent).count
      : 1;
  }

  /** The k-th entry of the event in slot `i`. */
  private entryAt(i: number, k: number): ActivityEntry {
    const kind = KINDS[this.kinds[i]!]!;
    const base = { seq: this.seqs[i]! + k, atMs: this.times[i]!, cause: this.causes[i] };
    const event = this.events[i];
    if (kind !== 'run') return { ...base, kind, event } as ActivityEntry;
    const e = event as RunsStartedEvent | RunEvent;
    const news: RunNews =
      e.type === 'runs.started'
        ? {
            type: 'run.started',
            recordId: e.trigger.record_id,
            objectType: e.trigger.object_type,
            run: () => e.run(k),
          }
        : {
            type: e.type,
            recordId: e.run.trigger.record_id,
            objectType: e.run.trigger.object_type,
            run: () => e.run,
          };
    return { ...base, kind, event: news };
  }

  private add(kind: ActivityKind, event: Stored, count: number): void {
    const n = this.slots++;
    const i = n % this.capacity;
    if (n - this.firstSlot >= this.capacity) {
      // The slot's event drops out: a record's change stays in its history.
      const old = this.events[i];
      if (this.kinds[i] === RECORD && old !== undefined) this.keep(this.entryAt(i, 0));
    }
    this.kinds[i] = KIND_CODE.get(kind)!;
    this.seqs[i] = this.last + 1;
    this.times[i] = this.store.clock.nowMs();
    this.events[i] = event;
    this.causes[i] = currentCause();
    this.last += count;
  }

  private keep(entry: ActivityEntry): void {
    if (entry.kind !== 'record') return;
    const list = this.dropped.get(entry.event.id);
    if (list === undefined) this.dropped.set(entry.event.id, [entry]);
    else {
      list.push(entry);
      if (list.length > this.perRecord) list.shift();
    }
  }
}

const RECORD = KIND_CODE.get('record')!;
const RUN = KIND_CODE.get('run')!;
