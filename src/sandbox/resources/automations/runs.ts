// Runs of triggered automations: a firing starts a run, which takes the automation's actions
// in order. Its steps run at once, before the write that fired it answers, up to a wait
// step, which suspends the run on the sandbox clock until it falls due (the runner, runner.ts,
// resumes it when the clock is advanced or real time passes). What each step does:
//
// - webhook: hands the event (`deal.updated`, …) to the webhook delivery engine through the
//   event spine (`automationEvents`, `webhook.dispatch`) and is `dispatched`;
// - wait: `waiting` until `delay_seconds` after it started, or the next time its 5-field
//   `cron_expression` matches in its `timezone`, then `completed`;
// - agent, email, linkedin cannot really run in a sandbox: the step is `recorded` with what it
//   would have done: email and LinkedIn steps read their recipients from the contact view
//   at that step (contact-views.ts), and an email step renders its Liquid subject per
//   recipient.
//
// A step that cannot run (a contact view or property that does not exist, a subject that
// does not render, a cron expression that never matches again) is `failed` and ends the run.
// Runs are kept in the `automation_runs` slice (so a sandbox with a data file resumes them
// after a restart); of the finished ones, the latest MAX_FINISHED_RUNS. The slice keeps keyed
// entries for the data file's journal: one per run (its sequence) and `meta` (the id prefix
// and the last sequence), so a write appends the runs it started or moved, and the runs it
// pushed out, whatever the number of runs kept.
//
// Cost: an import fires automations for every row, so a run is small: it shares its trigger
// (the write, with the record before and after) with the other runs of the same write, keeps
// its automation by reference, and its steps hold only what their action does not tell.

import { changesOf, eventName } from '../../../automation-engine/evaluate.ts';
import { MAX_WAIT_SECONDS, nextCronTime } from '../../../automation-engine/schedule.ts';
import type {
  Change,
  EmailAction,
  LinkedinAction,
  WaitAction,
} from '../../../automation-engine/types.ts';
import { isPlainObject, own } from '../../../util/guards.ts';
import type { Clock } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { isObjectType } from '../../object-types.ts';
import { defineSlice, SliceModel, SnapshotError, type Store } from '../../store.ts';
import { propertiesOf } from '../properties/model.ts';
import type { RecordEvent } from '../records/events.ts';
import { recordBody } from '../records/present.ts';
import type { StoredRecord } from '../records/types.ts';
import { contactViewsOf, recipientsOf } from './contact-views.ts';
import {
  type AutomationEventData,
  automationEvents,
  type RunEvent,
  type RunsStartedEvent,
  runEvents,
} from './events.ts';
import { type Rendered, renderSubjects } from './renderer.ts';
import type { Run, RunAutomation, RunStep, RunTrigger } from './types.ts';

/** Finished runs kept (the oldest go first); runs under way are always kept. */
export const MAX_FINISHED_RUNS = 10_000;

const TRIGGERS = {
  'record.created': 'created',
  'record.updated': 'updated',
  'record.deleted': 'deleted',
  'record.restored': 'restored',
} as const;

/** The trigger of a record event. */
export function triggerOf(event: RecordEvent): RunTrigger['type'] {
  return TRIGGERS[event.type];
}

/** The trigger of the runs `event` fires, written at `atMs`: built once, shared by its runs. */
export function runTrigger(event: RecordEvent, atMs: number, clock: Clock): RunTrigger {
  const type = triggerOf(event);
  return {
    type,
    source: event.source,
    at: clock.iso(atMs),
    at_ms: atMs,
    team_id: event.teamId,
    object_type: event.objectType,
    record_id: event.id,
    before: event.before?.default ?? null,
    before_lists: event.before?.lists ?? null,
    after: event.after.default,
    after_lists: event.after.lists,
    first: 0,
    automations: [],
  };
}

/** The record of a run's trigger before or after the write, as the evaluator reads records. */
export function recordOf(trigger: RunTrigger, side: 'before' | 'after'): StoredRecordView | null {
  if (side === 'before') {
    return trigger.before === null
      ? null
      : { id: trigger.record_id, default: trigger.before, lists: trigger.before_lists ?? {} };
  }
  return { id: trigger.record_id, default: trigger.after, lists: trigger.after_lists };
}

type StoredRecordView = Pick<StoredRecord, 'id' | 'default' | 'lists'>;

/**
 * Runs by sequence, in firing order: an array with a hole where a finished run was dropped
 * (cheaper than a map for tens of thousands of runs an import starts). A run whose every
 * step was done at once (webhook and agent steps) is kept as the trigger it shares with the
 * other runs of its write, and read back as a run when asked for: an import starts one per
 * row and automation, and most of them are of this kind.
 */
class RunTable {
  private slots: (Run | RunTrigger | undefined)[] = [];
  /** The sequence of slots[0]. */
  private first = 1;
  /** Leading holes. */
  private lead = 0;
  size = 0;
  private readonly prefix: string;

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  add(sequence: number, run: Run | RunTrigger): void {
    if (this.slots.length === 0) this.first = sequence;
    const i = sequence - this.first;
    while (this.slots.length < i) this.slots.push(undefined);
    this.slots.push(run);
    this.size++;
  }

  get(sequence: number): Run | undefined {
    return this.read(this.slots[sequence - this.first], sequence);
  }

  delete(sequence: number): void {
    const i = sequence - this.first;
    if (this.slots[i] === undefined) return;
    this.slots[i] = undefined;
    this.size--;
    while (this.lead < this.slots.length && this.slots[this.lead] === undefined) this.lead++;
    if (this.lead > 4096 && this.lead * 2 > this.slots.length) {
      this.slots = this.slots.slice(this.lead);
      this.first += this.lead;
      this.lead = 0;
    }
  }

  *values(): IterableIterator<Run> {
    for (let i = this.lead; i < this.slots.length; i++) {
      const run = this.read(this.slots[i], this.first + i);
      if (run !== undefined) yield run;
    }
  }

  private read(slot: Run | RunTrigger | undefined, sequence: number): Run | undefined {
    if (slot === undefined || 'sequence' in slot) return slot;
    return instantRun(this.prefix, slot, sequence);
  }
}

/** A run whose steps were all done at once, read back from the trigger it shares. */
function instantRun(prefix: string, trigger: RunTrigger, sequence: number): Run {
  const automation = trigger.automations[sequence - trigger.first]!;
  const { at } = trigger;
  return {
    prefix,
    sequence,
    automation,
    trigger,
    status: 'completed',
    started_at: at,
    updated_at: at,
    finished_at: at,
    resume_at_ms: null,
    steps: automation.actions.map((a) => ({
      status: a.type === 'webhook' ? 'dispatched' : 'recorded',
      started_at: at,
      finished_at: at,
    })),
  };
}

/** The runs one write started (RunsStartedEvent), read as they are when asked. */
class RunsStarted implements RunsStartedEvent {
  readonly type = 'runs.started';
  private readonly model: RunsModel;
  private readonly prefix: string;
  readonly trigger: RunTrigger;

  constructor(model: RunsModel, prefix: string, trigger: RunTrigger) {
    this.model = model;
    this.prefix = prefix;
    this.trigger = trigger;
  }

  get count(): number {
    return this.trigger.automations.length;
  }

  run(index: number): Run | undefined {
    const sequence = this.trigger.first + index;
    const automation = this.trigger.automations[index]!;
    // Kept (under way, or among the latest finished ones): as it is now. A run done at once
    // is the same whenever it is read; another one dropped since is no longer known.
    return (
      this.model.kept(this.prefix, sequence) ??
      (isInstant(automation) ? instantRun(this.prefix, this.trigger, sequence) : undefined)
    );
  }
}

/** True when every action is done at once and says nothing of its own: webhook and agent steps. */
function isInstant(automation: RunAutomation): boolean {
  return automation.actions.every((a) => a.type === 'webhook' || a.type === 'agent');
}

/** The steps of a run that has not done any: shared until its first step. */
const NO_STEPS: RunStep[] = Object.freeze([]) as unknown as RunStep[];

function addStep(run: Run, step: RunStep): void {
  if (run.steps === NO_STEPS) run.steps = [step];
  else run.steps.push(step);
}

/**
 * When a wait step that starts at `nowMs` ends: at most MAX_WAIT_SECONDS later (the contract
 * bounds a delay; a cron expression that matches no date within it fails the step).
 */
function waitEnd(action: WaitAction, nowMs: number, at: string): number {
  if (action.cron_expression === undefined) {
    // (An automation kept by an earlier version may hold a longer delay.)
    const seconds = Math.min(action.delay_seconds ?? 0, MAX_WAIT_SECONDS);
    return nowMs + Math.round(seconds * 1000);
  }
  const due = nextCronTime(action.cron_expression, action.timezone, nowMs);
  if (due === undefined) {
    throw new StepFailure(
      'schedule',
      `The cron expression '${action.cron_expression}' matches no date after ${at}.`,
    );
  }
  if (due - nowMs > MAX_WAIT_SECONDS * 1000) {
    throw new StepFailure(
      'schedule',
      `The cron expression '${action.cron_expression}' next matches on ${new Date(due).toISOString()}, more than a year (366 days) after ${at}: a wait ends at most a year after it starts.`,
    );
  }
  return due;
}

/** A step that cannot run: it fails and ends the run. */
class StepFailure extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

export class RunsModel extends SliceModel {
  /** Run ids are this and the sequence: opaque, and not reused after a reset. */
  private prefix = newPrefix();
  /** Every run kept, by sequence, in firing order. */
  private runs = new RunTable(this.prefix);
  /** Sequences of finished runs in the order they finished, from `head` on. */
  private finished: number[] = [];
  private head = 0;
  private waiting: Run[] = [];
  /** Runs loaded as running, until resumeRunning() takes them on. */
  private interrupted: Run[] = [];
  /** The earliest resume_at_ms of the waiting runs. */
  private due: number | undefined;
  private sequence = 0;
  /** Per automation: whether its runs are done at once (isInstant). */
  private instant = new WeakMap<RunAutomation, boolean>();
  /** Per automation: the webhooks its steps name (webhookIdsOf). */
  private webhookIds = new WeakMap<RunAutomation, readonly string[]>();
  /** The shared steps of the latest instant steps were done at. */
  private done: { at: string; dispatched: RunStep; recorded: RunStep } = {
    at: '',
    dispatched: { status: 'dispatched', started_at: '', finished_at: '' },
    recorded: { status: 'recorded', started_at: '', finished_at: '' },
  };
  /** Runs loaded from the journal, by sequence, until entriesLoaded() puts them in place. */
  private loading: { prefix: string; sequence: number; runs: Map<number, Run> } | undefined;
  /** Told when a run starts waiting, with when it falls due (the runner arms its timer). */
  onWait: ((dueMs: number) => void) | undefined;

  /**
   * Start a run of each automation for the write `trigger` tells of; the steps of each run
   * up to its first wait at once, in order.
   */
  start(store: Store, automations: readonly RunAutomation[], trigger: RunTrigger): void {
    trigger.first = this.sequence + 1;
    trigger.automations = automations;
    for (const automation of automations) {
      const sequence = ++this.sequence;
      let instant = this.instant.get(automation);
      if (instant === undefined) {
        instant = isInstant(automation);
        this.instant.set(automation, instant);
      }
      if (instant) {
        // Done at once: kept as the trigger (RunTable); its webhook events go out now.
        this.runs.add(sequence, trigger);
        if (this.ctx.events.listening(automationEvents)) {
          // The run is made only if a listener asks for the event's data.
          let run: Run | undefined;
          const made = () => {
            run ??= instantRun(this.prefix, trigger, sequence);
            return run;
          };
          const webhookIds = this.webhookIdsOf(automation);
          if (webhookIds.length > 0) this.dispatch(store, trigger, made, webhookIds, trigger.at);
        }
        this.finished.push(sequence);
        this.ctx.changed(String(sequence));
        this.trim();
        continue;
      }
      const run: Run = {
        prefix: this.prefix,
        sequence,
        automation,
        trigger,
        status: 'running',
        started_at: trigger.at,
        updated_at: trigger.at,
        finished_at: null,
        resume_at_ms: null,
        steps: NO_STEPS,
      };
      this.runs.add(sequence, run);
      this.ctx.changed(String(sequence));
      this.track(store, this.proceed(store, run, trigger.at, trigger.at_ms));
    }
    if (automations.length > 0) this.ctx.changed(META);
    // One event for the runs of the write (an import step starts thousands).
    if (automations.length > 0 && this.ctx.events.listening(runEvents)) {
      this.ctx.events.emit(runEvents, new RunsStarted(this, this.prefix, trigger));
    }
  }

  /** Resume the waiting runs due by `nowMs`, earliest first. Returns how many resumed. */
  resumeDue(store: Store, nowMs: number): number {
    if (this.due === undefined || this.due > nowMs) return 0;
    const due = this.waiting
      .filter((run) => run.resume_at_ms! <= nowMs)
      .sort((a, b) => a.resume_at_ms! - b.resume_at_ms! || a.sequence - b.sequence);
    this.waiting = this.waiting.filter((run) => run.resume_at_ms! > nowMs);
    this.due = undefined;
    for (const run of this.waiting) this.due = Math.min(this.due ?? Infinity, run.resume_at_ms!);
    const at = this.ctx.clock.iso(nowMs);
    for (const run of due) {
      this.endWait(run, 'completed', at);
      run.status = 'running';
      this.ctx.changed(String(run.sequence));
      this.track(store, this.proceed(store, run, at, nowMs));
      this.announce('run.resumed', run);
    }
    return due.length;
  }

  /** When the earliest waiting run falls due (epoch ms of the sandbox clock); undefined: none. */
  nextDue(): number | undefined {
    return this.due;
  }

  /** Cancel the waiting runs of an automation (it was deleted). */
  cancelFor(automationId: string): void {
    const at = this.ctx.clock.iso();
    const cancelled = this.waiting.filter((run) => run.automation.id === automationId);
    if (cancelled.length === 0) return;
    this.waiting = this.waiting.filter((run) => run.automation.id !== automationId);
    this.due = undefined;
    for (const run of this.waiting) this.due = Math.min(this.due ?? Infinity, run.resume_at_ms!);
    for (const run of cancelled) {
      this.endWait(run, 'cancelled', at);
      this.ctx.changed(String(run.sequence));
      this.finish(run, 'cancelled', at);
    }
  }

  /**
   * The wait a run is in ends at `at`: its step joins the run's steps. (While it waits, the
   * step is the run itself: it began at updated_at and ends at resume_at_ms.)
   */
  private endWait(run: Run, status: 'completed' | 'cancelled', at: string): void {
    addStep(run, {
      status,
      started_at: run.updated_at,
      finished_at: at,
      until: run.resume_at_ms!,
    });
    run.resume_at_ms = null;
  }

  /** Tell listeners of run events about `run` (a run kept as itself). */
  private announce(type: RunEvent['type'], run: Run): void {
    if (!this.ctx.events.listening(runEvents)) return;
    this.ctx.events.emit(runEvents, { type, teamId: run.trigger.team_id, run });
  }

  /** The run of `sequence` while the table keeps it (runs of an earlier reset: none). */
  kept(prefix: string, sequence: number): Run | undefined {
    return prefix === this.prefix ? this.runs.get(sequence) : undefined;
  }

  /** A team's runs in firing order. */
  list(teamId: string): Run[] {
    return [...this.runs.values()].filter((run) => run.trigger.team_id === teamId);
  }

  get(teamId: string, id: string): Run | undefined {
    if (!id.startsWith(this.prefix)) return undefined;
    const run = this.runs.get(Number(id.slice(this.prefix.length)));
    return run !== undefined && runId(run) === id && run.trigger.team_id === teamId
      ? run
      : undefined;
  }

  /** Runs started since the last reset. */
  get started(): number {
    return this.sequence;
  }

  // ---------------------------------------------------------------- steps

  /**
   * Run the steps from the next one until the run waits or ends; `at` and `nowMs` are now.
   * A step whose subjects render in the worker returns the rest of the run, as a promise.
   */
  private proceed(store: Store, run: Run, at: string, nowMs: number): Promise<void> | undefined {
    const { actions } = run.automation;
    while (run.steps.length < actions.length) {
      const action = actions[run.steps.length]!;
      let step: RunStep;
      try {
        switch (action.type) {
          case 'webhook':
          case 'agent':
            // Done at once, and what they did follows from the action: one shared step.
            step = this.doneStep(action.type === 'webhook' ? 'dispatched' : 'recorded', at);
            if (action.type === 'webhook')
              this.dispatch(store, run.trigger, () => run, [action.webhook_id], at);
            break;
          case 'wait': {
            const due = waitEnd(action, nowMs, at);
            if (due > nowMs) {
              // The run itself holds the wait until it ends (endWait).
              run.status = 'waiting';
              run.updated_at = at;
              run.resume_at_ms = due;
              this.waiting.push(run);
              if (this.due === undefined || due < this.due) this.due = due;
              this.onWait?.(due);
              return;
            }
            step = { status: 'completed', started_at: at, finished_at: at, until: due };
            break;
          }
          default: {
            const send = sendOf(store, run, action);
            if (send.render !== undefined) {
              // Subjects render in the worker (renderer.ts): the run goes on once they have.
              run.updated_at = at;
              this.ctx.changed(String(run.sequence));
              return this.rendered(store, run, send, at);
            }
            step = {
              status: 'recorded',
              started_at: at,
              finished_at: at,
              detail: { recipients: send.recipients },
            };
          }
        }
      } catch (err) {
        if (!(err instanceof StepFailure)) throw err;
        addStep(run, {
          status: 'failed',
          started_at: at,
          finished_at: at,
          error: { code: err.code, message: err.message },
        });
        this.finish(run, 'failed', at);
        return;
      }
      addStep(run, step);
    }
    this.finish(run, 'completed', at);
  }

  /**
   * An email step's subjects are rendered (`startedAt` is when the step began): it is
   * recorded, and the run goes on from the next step.
   */
  private async rendered(store: Store, run: Run, send: Send, startedAt: string): Promise<void> {
    const generation = store.generation;
    const subjects = await send.render!();
    // A reset or a loaded snapshot replaced the run meanwhile.
    if (store.generation !== generation || this.runs.get(run.sequence) !== run) return;
    const nowMs = this.ctx.clock.nowMs();
    const at = this.ctx.clock.iso(nowMs);
    const recipients = send.recipients.map((recipient, i) => ({ ...recipient, ...subjects[i] }));
    addStep(run, {
      status: 'recorded',
      started_at: startedAt,
      finished_at: at,
      detail: { recipients },
    });
    run.updated_at = at;
    this.ctx.changed(String(run.sequence));
    await this.proceed(store, run, at, nowMs);
  }

  /** Runs loaded as running (the sandbox stopped during a step): they go on from it. */
  resumeRunning(store: Store): void {
    const running = this.interrupted;
    this.interrupted = [];
    const nowMs = this.ctx.clock.nowMs();
    for (const run of running) {
      if (this.runs.get(run.sequence) === run && run.status === 'running') {
        this.track(store, this.proceed(store, run, this.ctx.clock.iso(nowMs), nowMs));
      }
    }
  }

  /** The rest of a run, when a step left it for later: the write that started it waits for it. */
  private track(store: Store, rest: Promise<void> | undefined): void {
    if (rest !== undefined) store.work.track(rest);
  }

  /** A step done at `at` with nothing of its own to keep: shared, never changed. */
  private doneStep(status: 'dispatched' | 'recorded', at: string): RunStep {
    if (this.done.at !== at) {
      this.done = {
        at,
        dispatched: Object.freeze({ status: 'dispatched', started_at: at, finished_at: at }),
        recorded: Object.freeze({ status: 'recorded', started_at: at, finished_at: at }),
      };
    }
    return this.done[status];
  }

  /** The webhooks an automation's steps name, in order (kept per automation). */
  private webhookIdsOf(automation: RunAutomation): readonly string[] {
    let ids = this.webhookIds.get(automation);
    if (ids === undefined) {
      ids = automation.actions.flatMap((a) => (a.type === 'webhook' ? [a.webhook_id] : []));
      this.webhookIds.set(automation, ids);
    }
    return ids;
  }

  /** Hand the run's webhook event, for each of `webhookIds`, to the delivery engine. */
  private dispatch(
    store: Store,
    trigger: RunTrigger,
    runOf: () => Run,
    webhookIds: readonly string[],
    at: string,
  ): void {
    const { events } = this.ctx;
    if (!events.listening(automationEvents)) return;
    let data: AutomationEventData | undefined;
    events.emit(automationEvents, {
      type: 'webhook.dispatch',
      teamId: trigger.team_id,
      webhookIds,
      event: eventName(trigger.object_type, trigger.type),
      occurredAt: at,
      data: () => {
        data ??= eventData(store, runOf());
        return data;
      },
    });
  }

  private finish(run: Run, status: 'completed' | 'failed' | 'cancelled', at: string): void {
    run.status = status;
    run.finished_at = at;
    run.updated_at = at;
    this.finished.push(run.sequence);
    this.trim();
    this.announce('run.finished', run);
  }

  /** Drop the oldest finished runs past MAX_FINISHED_RUNS. */
  private trim(): void {
    while (this.finished.length - this.head > MAX_FINISHED_RUNS) {
      const sequence = this.finished[this.head++]!;
      this.runs.delete(sequence);
      this.ctx.changed(String(sequence));
    }
    if (this.head > 4096 && this.head * 2 > this.finished.length) {
      this.finished = this.finished.slice(this.head);
      this.head = 0;
    }
  }

  // ---------------------------------------------------------------- slice

  reset(): void {
    this.prefix = newPrefix();
    this.runs = new RunTable(this.prefix);
    this.finished = [];
    this.head = 0;
    this.waiting = [];
    this.interrupted = [];
    this.due = undefined;
    this.sequence = 0;
    this.loading = undefined;
  }

  /** Runs are history: a snapshot leaves them out (loaded, it fires nothing). */
  snapshot(): undefined {
    return undefined;
  }

  isEmpty(): boolean {
    return this.runs.size === 0;
  }

  toJSON(): { prefix: string; sequence: number; runs: unknown[] } {
    const runs = [...this.runs.values()].map(savedRun);
    return { prefix: this.prefix, sequence: this.sequence, runs };
  }

  /** Journal entries: `meta`, then every run kept, by sequence. */
  *entries(): IterableIterator<[string, unknown]> {
    yield [META, this.entry(META)];
    for (const run of this.runs.values()) yield [String(run.sequence), savedRun(run)];
  }

  entry(key: string): unknown {
    if (key === META) return { prefix: this.prefix, sequence: this.sequence };
    const run = this.runs.get(Number(key));
    return run === undefined ? undefined : savedRun(run);
  }

  loadEntry(key: string, value: unknown): void {
    const at = `store.slices.automation_runs[${JSON.stringify(key)}]`;
    this.loading ??= {
      prefix: this.prefix,
      sequence: this.sequence,
      runs: new Map([...this.runs.values()].map((run) => [run.sequence, run])),
    };
    if (key === META) {
      if (
        !isPlainObject(value) ||
        typeof value['prefix'] !== 'string' ||
        !isCount(value['sequence'])
      ) {
        throw new SnapshotError(at, 'must be { prefix: string, sequence: integer >= 0 }');
      }
      this.loading.prefix = value['prefix'];
      this.loading.sequence = value['sequence'];
      return;
    }
    const sequence = Number(key);
    if (!isCount(sequence) || String(sequence) !== key) {
      throw new SnapshotError(at, "a run's key must be its sequence");
    }
    if (value === undefined) {
      this.loading.runs.delete(sequence);
      return;
    }
    const run = parseRun(value, at);
    if (run.sequence !== sequence) throw new SnapshotError(`${at}.sequence`, `must be ${key}`);
    this.loading.runs.set(sequence, run);
  }

  entriesLoaded(): void {
    if (this.loading === undefined) return;
    const { prefix, sequence, runs } = this.loading;
    this.loading = undefined;
    const sorted = [...runs.values()].sort((a, b) => a.sequence - b.sequence);
    this.install(prefix, Math.max(sequence, sorted.at(-1)?.sequence ?? 0), sorted);
  }

  load(data: unknown): void {
    const base = 'store.slices.automation_runs';
    if (
      !isPlainObject(data) ||
      !Array.isArray(data['runs']) ||
      typeof data['prefix'] !== 'string'
    ) {
      throw new SnapshotError(base, 'must be an object { prefix, sequence, runs }');
    }
    const sequence = data['sequence'];
    if (typeof sequence !== 'number' || !Number.isInteger(sequence) || sequence < 0) {
      throw new SnapshotError(`${base}.sequence`, 'must be an integer >= 0');
    }
    const parsed: Run[] = [];
    for (const [i, item] of data['runs'].entries()) {
      const run = parseRun(item, `${base}.runs[${i}]`);
      if (i > 0 && run.sequence <= parsed[i - 1]!.sequence) {
        throw new SnapshotError(`${base}.runs[${i}].sequence`, 'must grow from run to run');
      }
      parsed.push(run);
    }
    this.install(data['prefix'], sequence, parsed);
  }

  /** Put loaded runs (in sequence order) in place. */
  private install(prefix: string, sequence: number, loaded: readonly Run[]): void {
    const runs = new RunTable(prefix);
    const finished: Run[] = [];
    const waiting: Run[] = [];
    const interrupted: Run[] = [];
    for (const run of loaded) {
      runs.add(run.sequence, run);
      if (run.status === 'waiting') waiting.push(run);
      else if (run.status === 'running') interrupted.push(run);
      else if (run.finished_at !== null) finished.push(run);
    }
    finished.sort((a, b) => compareIso(a.finished_at!, b.finished_at!) || a.sequence - b.sequence);
    this.runs = runs;
    this.finished = finished.map((run) => run.sequence);
    this.head = 0;
    this.waiting = waiting;
    this.interrupted = interrupted;
    this.due = undefined;
    for (const run of waiting) this.due = Math.min(this.due ?? Infinity, run.resume_at_ms!);
    this.sequence = sequence;
    this.prefix = prefix;
  }
}

/** The journal key of the id prefix and last sequence. */
const META = 'meta';

/** A time in epoch ms that a Date (so JSON and the data file) can hold. */
function isDateMs(value: unknown): value is number {
  return typeof value === 'number' && Math.abs(value) <= 8.64e15;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * A run as the data file keeps it: its automation as it was, and its own copy of the
 * trigger (loaded runs no longer share one).
 */
function savedRun(run: Run): unknown {
  const { id, name, list_id, actions } = run.automation;
  const { first: _first, automations: _automations, ...trigger } = run.trigger;
  return { ...run, automation: { id, name, list_id, actions }, trigger };
}

function newPrefix(): string {
  return `run_${randomId().slice(0, 8)}_`;
}

/** A run's id: its sandbox's run prefix and its sequence (opaque to clients). */
export function runId(run: Run): string {
  return `${run.prefix}${run.sequence}`;
}

function compareIso(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function parseRun(item: unknown, at: string): Run {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  for (const field of ['prefix', 'status', 'started_at', 'updated_at']) {
    if (typeof item[field] !== 'string')
      throw new SnapshotError(`${at}.${field}`, 'must be a string');
  }
  if (!Number.isInteger(item['sequence'])) {
    throw new SnapshotError(`${at}.sequence`, 'must be an integer');
  }
  const automation = item['automation'];
  if (!isPlainObject(automation) || !Array.isArray(automation['actions'])) {
    throw new SnapshotError(`${at}.automation`, 'must be an object with the actions of the run');
  }
  if (!Array.isArray(item['steps'])) throw new SnapshotError(`${at}.steps`, 'must be an array');
  const trigger = item['trigger'];
  if (
    !isPlainObject(trigger) ||
    !isPlainObject(trigger['after']) ||
    !isPlainObject(trigger['after_lists'])
  ) {
    throw new SnapshotError(`${at}.trigger`, 'must be an object with the record after the write');
  }
  if (item['status'] === 'waiting' && !isDateMs(item['resume_at_ms'])) {
    if (item['resume_at_ms'] !== null && typeof item['resume_at_ms'] !== 'number') {
      throw new SnapshotError(`${at}.resume_at_ms`, 'must be a number on a waiting run');
    }
    // A wait that ended past the dates JSON can hold (kept by a version that did not bound
    // waits): the run fails with the reason, and the rest of the file loads.
    const when = String(item['updated_at']);
    (item['steps'] as unknown[]).push({
      status: 'failed',
      started_at: when,
      finished_at: when,
      error: {
        code: 'schedule',
        message:
          'The wait ended later than any date the sandbox can keep: waits now end at most a year after they start.',
      },
    });
    item['status'] = 'failed';
    item['finished_at'] = when;
    item['resume_at_ms'] = null;
  }
  // A loaded run has its own copy of the trigger: it names only this run.
  trigger['first'] = item['sequence'];
  trigger['automations'] = [automation];
  return item as unknown as Run;
}

// ---------------------------------------------------------------- what steps say

/** The write a run fired on, as the evaluator reads it. */
export function changeOf(run: Run): Change {
  const { trigger } = run;
  return {
    trigger: trigger.type,
    before: recordOf(trigger, 'before'),
    after: recordOf(trigger, 'after')!,
  };
}

/** The `data` of the run's webhook event (documented in docs/sandbox-reference.md). */
export function eventData(store: Store, run: Run): AutomationEventData {
  const { trigger, automation } = run;
  return {
    automation_id: automation.id,
    automation_name: automation.name,
    run_id: runId(run),
    object_type: trigger.object_type,
    record_id: trigger.record_id,
    changes: changesOf(changeOf(run), automation.list_id),
    record: presentRecord(store, run, recordOf(trigger, 'after')!),
  };
}

/** A record as GET returns it, read with the current definitions of the run's team. */
function presentRecord(store: Store, run: Run, record: StoredRecordView): unknown {
  const { object_type: type, team_id: teamId } = run.trigger;
  if (!isObjectType(type)) return { id: record.id, default: record.default };
  return recordBody({ store, teamId, type, listId: null }, record as Readonly<StoredRecord>);
}

/** What an email or LinkedIn step sends: to whom, and (email) how its subjects render. */
interface Send {
  /** `{ contact_id, address }` (email) or `{ contact_id, provider_value }` (LinkedIn). */
  recipients: Record<string, unknown>[];
  /** An email step's subjects, one per recipient, rendered in the worker; none to render: undefined. */
  render: (() => Promise<Rendered[]>) | undefined;
}

/** Who an email or LinkedIn step would have sent to: the contacts its view shows now. */
function sendOf(store: Store, run: Run, action: EmailAction | LinkedinAction): Send {
  const { team_id: teamId } = run.trigger;
  const view = contactViewsOf(store).find(teamId, action.recipient_view_id);
  if (view === undefined) {
    throw new StepFailure(
      'not_found',
      `No contact view has the id ${action.recipient_view_id}. Contact views are made in the product, not through the API: define the sandbox's with PUT /__sandbox/contact_views/${action.recipient_view_id}.`,
    );
  }
  const propertyId =
    action.type === 'email'
      ? action.recipient_email_prop_def_id
      : action.recipient_provider_prop_def_id;
  const def = propertiesOf(store).get(teamId, 'contact', propertyId);
  if (def === undefined) {
    throw new StepFailure('not_found', `No contact property has the id ${propertyId}.`);
  }
  const contacts = recipientsOf(store, view);
  const addressOf = (contact: Readonly<StoredRecord>) =>
    own(def.list_id === null ? contact.default : contact.lists[def.list_id], def.slug) ?? null;
  if (action.type === 'linkedin') {
    const recipients = contacts.map((c) => ({ contact_id: c.id, provider_value: addressOf(c) }));
    return { recipients, render: undefined };
  }
  const recipients = contacts.map((c) => ({ contact_id: c.id, address: addressOf(c) }));
  if (contacts.length === 0) return { recipients, render: undefined };
  const shared = {
    record: { ...run.trigger.after, id: run.trigger.record_id },
    automation: { id: run.automation.id, name: run.automation.name },
    object_type: run.trigger.object_type,
  };
  const variables = contacts.map((c) => ({ ...c.default, id: c.id }));
  return { recipients, render: () => renderSubjects(action.subject, shared, variables) };
}

export const runsSlice = defineSlice('automation_runs', (ctx) => new RunsModel(ctx));

/** The runs of `store`. */
export function runsOf(store: Store): RunsModel {
  return store.slice(runsSlice);
}
