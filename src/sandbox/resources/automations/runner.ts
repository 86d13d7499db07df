// How automations react: every record event (one per record an API write changed: create,
// patch, upsert, duplicate, batch update, delete, batch delete, restore, import rows) is
// matched against the team's enabled automations of that object type and trigger by the
// shared evaluator, and each automation that fires starts a run (runs.ts), before the write
// answers. Waiting runs proceed when they fall due: at once when the sandbox clock is
// advanced (`clockEvents`), and by a timer when real time passes. The timer is armed only
// while runs are waiting (it keeps the process alive then), and stopped when the sandbox
// closes. Definitions that change make the automations compile again.
//
// The events of one request (or of one step of an import job: up to 500 rows) are matched
// together once its writes are done, in a microtask, so before the request answers (the
// server awaits its handler): a tight loop over the writes, each tried on the automations
// compiled for them, that costs a fraction of trying them between the writes of every row.
// Runs start in the order of the writes, and of the automations for one write; writes that
// fire the same automations share the array that names them.

import type { Change, RecordData } from '../../../automation-engine/types.ts';
import { clockEvents } from '../../clock.ts';
import { perStore, type Store } from '../../store.ts';
import { propertyEvents } from '../properties/events.ts';
import { recordEvents } from '../records/events.ts';
import { type AutomationsModel, automationsOf } from './model.ts';
import { type RunsModel, runsOf, runTrigger, triggerOf } from './runs.ts';
import type { RunTrigger, StoredAutomation } from './types.ts';

/** Longest a timer is set for (setTimeout's limit is about 24.8 days); it re-arms then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What automations react to: record writes, definitions, and the clock. */
export function subscribeAutomations(store: Store): void {
  const automations = automationsOf(store);
  const runs = runsOf(store);
  let pending: RunTrigger[] = [];
  let generation = store.generation;
  const flush = () => {
    const writes = pending;
    pending = [];
    // A reset or a snapshot load in between replaced the state the writes tell of.
    if (store.generation !== generation) return;
    try {
      fire(store, automations, runs, writes);
    } catch (err) {
      store.events.report(err, recordEvents.name);
    }
  };
  store.events.on(recordEvents, (event) => {
    const trigger = triggerOf(event);
    if (automations.candidatesFor(event.teamId, event.objectType, trigger).length === 0) return;
    if (pending.length === 0) {
      generation = store.generation;
      queueMicrotask(flush);
    }
    // The write as runs keep it (its values, not the event's copies of the record).
    pending.push(runTrigger(event, store.clock.nowMs(), store.clock));
  });
  store.events.on(propertyEvents, () => automations.definitionsChanged());
  store.events.on(clockEvents, () => runnerOf(store).wake());
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Start a run of every automation each write fires, in the order of the writes. */
function fire(
  store: Store,
  automations: AutomationsModel,
  runs: RunsModel,
  writes: readonly RunTrigger[],
): void {
  // One change and two records, refilled for each write (the evaluator keeps nothing of
  // them): an import step matches 500 writes here.
  const before: Mutable<RecordData> = { id: '', default: {}, lists: {} };
  const after: Mutable<RecordData> = { id: '', default: {}, lists: {} };
  const change: Mutable<Change> = { trigger: 'created', before: null, after };
  // Consecutive writes of one team, type and trigger meet the same candidates.
  for (let start = 0; start < writes.length; ) {
    const first = writes[start]!;
    let end = start + 1;
    while (
      end < writes.length &&
      writes[end]!.team_id === first.team_id &&
      writes[end]!.object_type === first.object_type &&
      writes[end]!.type === first.type
    ) {
      end++;
    }
    const candidates = automations.candidatesFor(first.team_id, first.object_type, first.type);
    const compiled = candidates.map((candidate) => automations.compiledOf(store, candidate));
    // The automations a write fires, by the bits of their candidates: writes that fire the
    // same ones share one array (runs keep it), so the writes of an import step make a few.
    const firings = candidates.length <= 30 ? new Map<number, StoredAutomation[]>() : undefined;
    change.trigger = first.type;
    for (let i = start; i < end; i++) {
      const write = writes[i]!;
      after.id = write.record_id;
      after.default = write.after;
      after.lists = write.after_lists;
      if (write.before === null) change.before = null;
      else {
        before.id = write.record_id;
        before.default = write.before;
        before.lists = write.before_lists ?? {};
        change.before = before;
      }
      let firing: StoredAutomation[] | undefined;
      if (firings !== undefined) {
        let bits = 0;
        for (let c = 0; c < compiled.length; c++) if (compiled[c]!.fires(change)) bits |= 1 << c;
        if (bits !== 0) {
          firing = firings.get(bits);
          if (firing === undefined) {
            firing = candidates.filter((_, c) => (bits & (1 << c)) !== 0).map((c) => c.automation);
            firings.set(bits, firing);
          }
        }
      } else {
        for (let c = 0; c < compiled.length; c++) {
          if (!compiled[c]!.fires(change)) continue;
          firing ??= [];
          firing.push(candidates[c]!.automation);
        }
      }
      if (firing !== undefined) runs.start(store, firing, write);
    }
    start = end;
  }
}

/** The runner of `store`'s waiting runs. */
export const runnerOf = perStore((store) => new Runner(store));

export class Runner {
  private readonly store: Store;
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (epoch ms of the sandbox clock). */
  private armedFor: number | undefined;
  private stopped = false;

  constructor(store: Store) {
    this.store = store;
    runsOf(store).onWait = (dueMs) => {
      if (this.armedFor === undefined || dueMs < this.armedFor) this.arm();
    };
  }

  /** Resume the runs due by now, then arm the timer for the next one. */
  wake(): void {
    runsOf(this.store).resumeDue(this.store, this.store.clock.nowMs());
    this.arm();
  }

  /** Stop for good (the sandbox is closing); waiting runs stay waiting in the store. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = undefined;
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = undefined;
    const due = runsOf(this.store).nextDue();
    if (this.stopped || due === undefined) return;
    const wait = Math.min(Math.max(0, due - this.store.clock.nowMs()), MAX_TIMER_MS);
    this.armedFor = this.store.clock.nowMs() + wait;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.armedFor = undefined;
      this.wake();
    }, wait);
  }
}
