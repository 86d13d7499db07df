// The activity log: what the sandbox did, in the order it did it, heard on the event spine
// (records created, updated, deleted and restored; import jobs and their steps; automation
// runs; webhook deliveries and their attempts; the clock moved; a reset), each entry with
// its cause (the request or import job it happened in: cause.ts) and the time on the
// sandbox clock. The console reads it (its activity feed and each record's history), and so
// can any later reader of the sandbox's news (a realtime stream of changes).
//
// Bounded: the latest MAX_ENTRIES entries are kept, the oldest dropped first. Each record's
// changes are also kept by record (the latest MAX_RECORD_CHANGES of each), so a record's
// history outlives the feed's bound. An entry keeps the event as it was emitted, by
// reference: building an entry costs an object and an array slot (an import of 20,000 rows
// that fires 50,000 runs adds 70,000), and entries are presented only when read. What the
// events carry live (a job, a run, a delivery) is read as it is when presented.
//
// Kept in memory only: the data file keeps the state, not how it came to be.

import { type Cause, currentCause } from '../cause.ts';
import { type ClockAdvanced, clockEvents } from '../clock.ts';
import { type RunEvent, runEvents } from '../resources/automations/events.ts';
import { type ImportEvent, importEvents } from '../resources/imports/events.ts';
import { type RecordEvent, recordEvents } from '../resources/records/events.ts';
import { type DeliveryEvent, deliveryEvents } from '../resources/webhooks/events.ts';
import type { Store } from '../store.ts';

/** Entries kept (the oldest dropped first). */
export const MAX_ENTRIES = 200_000;
/** Changes kept per record for its history (the oldest dropped first). */
export const MAX_RECORD_CHANGES = 100;

interface Base {
  /** 1, 2, 3, … in the order things happened (not reset by a reset). */
  readonly seq: number;
  /** Sandbox time (ISO-8601). */
  readonly at: string;
  /** The request or import job it happened in; undefined for timers (retries, waits). */
  readonly cause: Cause | undefined;
}

export type ActivityEntry =
  | (Base & { readonly kind: 'record'; readonly event: RecordEvent })
  | (Base & { readonly kind: 'import'; readonly event: ImportEvent })
  | (Base & { readonly kind: 'run'; readonly event: RunEvent })
  | (Base & { readonly kind: 'delivery'; readonly event: DeliveryEvent })
  | (Base & { readonly kind: 'clock'; readonly event: ClockAdvanced })
  | (Base & { readonly kind: 'reset'; readonly event: undefined });

export type ActivityKind = ActivityEntry['kind'];

export class ActivityLog {
  private readonly store: Store;
  /** A ring of MAX_ENTRIES slots; the entry of sequence s is at (s - 1) % capacity. */
  private readonly ring: (ActivityEntry | undefined)[];
  private readonly capacity: number;
  private last = 0;
  /** Each record's changes, oldest first, by `<type>/<id>`. */
  private changes = new Map<string, ActivityEntry[]>();
  private readonly perRecord: number;
  private readonly unsubscribe: (() => void)[];

  constructor(store: Store, options: { maxEntries?: number; maxRecordChanges?: number } = {}) {
    this.store = store;
    this.capacity = options.maxEntries ?? MAX_ENTRIES;
    this.perRecord = options.maxRecordChanges ?? MAX_RECORD_CHANGES;
    this.ring = new Array(this.capacity);
    const { events } = store;
    this.unsubscribe = [
      events.on(recordEvents, (event) => {
        const entry = this.add('record', event);
        const key = `${event.objectType}/${event.id}`;
        const list = this.changes.get(key);
        if (list === undefined) this.changes.set(key, [entry]);
        else {
          list.push(entry);
          if (list.length > this.perRecord) list.shift();
        }
      }),
      events.on(importEvents, (event) => this.add('import', event)),
      events.on(runEvents, (event) => this.add('run', event)),
      events.on(deliveryEvents, (event) => this.add('delivery', event)),
      events.on(clockEvents, (event) => this.add('clock', event)),
      store.onChange((change) => {
        if (change.kind !== 'replaced') return;
        // The records the histories tell of were replaced.
        this.changes = new Map();
        this.add('reset', undefined);
      }),
    ];
  }

  /** The sequence of the latest entry (0: none yet). */
  get latest(): number {
    return this.last;
  }

  /** The sequence of the oldest entry kept. */
  get oldest(): number {
    return Math.max(1, this.last - this.capacity + 1);
  }

  /** The entry of sequence `seq`, while it is kept. */
  get(seq: number): ActivityEntry | undefined {
    if (seq < this.oldest || seq > this.last) return undefined;
    return this.ring[(seq - 1) % this.capacity];
  }

  /**
   * Entries newest first, from sequence `before - 1` down, that `keep` accepts, until `limit`
   * are found or `scan` entries were looked at (a filter that matches little still answers
   * quickly; `next` says where to go on).
   */
  newestFirst(
    options: { before?: number; limit: number; scan?: number },
    keep: (entry: ActivityEntry) => boolean = () => true,
  ): { entries: ActivityEntry[]; next: number | undefined } {
    const entries: ActivityEntry[] = [];
    let seq = Math.min(options.before === undefined ? this.last : options.before - 1, this.last);
    const stop = Math.max(this.oldest, seq - (options.scan ?? this.capacity) + 1);
    for (; seq >= stop && entries.length < options.limit; seq--) {
      const entry = this.ring[(seq - 1) % this.capacity];
      if (entry !== undefined && keep(entry)) entries.push(entry);
    }
    return { entries, next: seq >= this.oldest ? seq + 1 : undefined };
  }

  /** The changes of a record kept for its history, oldest first. */
  changesOf(objectType: string, id: string): readonly ActivityEntry[] {
    return this.changes.get(`${objectType}/${id}`) ?? [];
  }

  /** Stop listening (the sandbox is closing). */
  close(): void {
    for (const stop of this.unsubscribe) stop();
  }

  private add<K extends ActivityKind>(
    kind: K,
    event: Extract<ActivityEntry, { kind: K }>['event'],
  ): ActivityEntry {
    const seq = ++this.last;
    const entry = { seq, at: this.store.clock.iso(), cause: currentCause(), kind, event };
    this.ring[(seq - 1) % this.capacity] = entry as ActivityEntry;
    return entry as ActivityEntry;
  }
}
