// How automations react: every record event (one per record an API write changed: create,
// patch, upsert, duplicate, batch update, delete, batch delete, restore, import rows) is
// matched against the team's enabled automations of that object type and trigger by the
// shared evaluator, and each automation that fires starts a run (runs.ts), before the write
// answers. Waiting runs proceed when they fall due: at once when the sandbox clock is
// advanced (`clockEvents`), and by a timer when real time passes. The timer is armed only
// while runs are waiting (it keeps the process alive then), and stopped when the sandbox
// closes. Definitions that change make the automations compile again.

import { clockEvents } from '../../clock.ts';
import type { Store } from '../../store.ts';
import { propertyEvents } from '../properties/events.ts';
import { type RecordEvent, recordEvents } from '../records/events.ts';
import { type AutomationsModel, automationsOf } from './model.ts';
import { type RunsModel, runsOf, runTrigger, triggerOf } from './runs.ts';
import type { StoredAutomation } from './types.ts';

/** Longest a timer is set for (setTimeout's limit is about 24.8 days); it re-arms then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What automations react to: record writes, definitions, and the clock. */
export function subscribeAutomations(store: Store): void {
  const automations = automationsOf(store);
  const runs = runsOf(store);
  store.events.on(recordEvents, (event) => fire(store, automations, runs, event));
  store.events.on(propertyEvents, () => automationsOf(store).definitionsChanged());
  store.events.on(clockEvents, () => runnerOf(store).wake());
}

/** Start a run of every automation the write `event` fires. */
function fire(
  store: Store,
  automations: AutomationsModel,
  runs: RunsModel,
  event: RecordEvent,
): void {
  const trigger = triggerOf(event);
  const candidates = automations.candidatesFor(event.teamId, event.objectType, trigger);
  if (candidates.length === 0) return;
  const change = { trigger, before: event.before, after: event.after };
  let firing: StoredAutomation[] | undefined;
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    if (automations.compiledOf(store, candidate).fires(change)) {
      firing ??= [];
      firing.push(candidate.automation);
    }
  }
  if (firing !== undefined) {
    const nowMs = store.clock.nowMs();
    runs.start(store, firing, runTrigger(event, store.clock.iso(nowMs)), nowMs);
  }
}

const runners = new WeakMap<Store, Runner>();

/** The runner of `store`'s waiting runs. */
export function runnerOf(store: Store): Runner {
  let runner = runners.get(store);
  if (runner === undefined) {
    runner = new Runner(store);
    runners.set(store, runner);
  }
  return runner;
}

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
