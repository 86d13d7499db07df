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
// after a restart); of the finished ones, the latest MAX_FINISHED_RUNS.

import { changesOf } from '../../../automations/evaluate.ts';
import { nextCronTime } from '../../../automations/schedule.ts';
import { renderTemplate } from '../../../automations/template.ts';
import type {
  ActionItem,
  Change,
  EmailAction,
  LinkedinAction,
} from '../../../automations/types.ts';
import { isPlainObject } from '../../../util/guards.ts';
import { randomId } from '../../ids.ts';
import { isObjectType } from '../../object-types.ts';
import {
  defineSlice,
  type Slice,
  type SliceContext,
  SnapshotError,
  type Store,
} from '../../store.ts';
import { propertiesOf } from '../properties/model.ts';
import type { RecordEvent } from '../records/events.ts';
import { recordBody } from '../records/present.ts';
import type { StoredRecord } from '../records/types.ts';
import { contactViewsOf, recipientsOf } from './contact-views.ts';
import { type AutomationEventData, automationEvents } from './events.ts';
import type { Run, RunStep, RunTrigger, StoredAutomation } from './types.ts';

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

/** A step that cannot run: it fails and ends the run. */
class StepFailure extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

export class RunsModel implements Slice {
  /** Every run kept, in firing order. */
  private runs = new Map<string, Run>();
  /** Ids of finished runs in the order they finished, from `head` on. */
  private finished: string[] = [];
  private head = 0;
  private waiting = new Set<Run>();
  /** The earliest resume_at_ms of the waiting runs (a lower bound after resumptions). */
  private due: number | undefined;
  private sequence = 0;
  private readonly ctx: SliceContext;
  /** Told when a run starts waiting, with when it falls due (the runner arms its timer). */
  onWait: ((dueMs: number) => void) | undefined;

  constructor(ctx: SliceContext) {
    this.ctx = ctx;
  }

  /** Start a run of `automation` for the write `event`; its steps run up to the first wait. */
  start(store: Store, automation: StoredAutomation, event: RecordEvent): Run {
    const at = this.ctx.clock.iso();
    const type = triggerOf(event);
    const run: Run = {
      id: randomId(),
      sequence: ++this.sequence,
      team_id: event.teamId,
      object_type: event.objectType,
      record_id: event.id,
      automation_id: automation.id,
      automation_name: automation.name,
      list_id: automation.list_id,
      actions: automation.actions,
      trigger: {
        type,
        source: event.source,
        event: `${event.objectType}.${type}`,
        at,
        before: event.before,
        after: event.after,
      },
      status: 'running',
      started_at: at,
      updated_at: at,
      finished_at: null,
      resume_at_ms: null,
      steps: [],
    };
    this.runs.set(run.id, run);
    this.proceed(store, run);
    this.ctx.changed();
    return run;
  }

  /** Resume the waiting runs due by `nowMs`, earliest first. Returns how many resumed. */
  resumeDue(store: Store, nowMs: number): number {
    if (this.due === undefined || this.due > nowMs) return 0;
    const due = [...this.waiting]
      .filter((run) => run.resume_at_ms! <= nowMs)
      .sort((a, b) => a.resume_at_ms! - b.resume_at_ms! || a.sequence - b.sequence);
    for (const run of due) {
      this.waiting.delete(run);
      const step = run.steps[run.steps.length - 1]!;
      step.status = 'completed';
      step.finished_at = this.ctx.clock.iso();
      run.resume_at_ms = null;
      run.status = 'running';
      this.proceed(store, run);
    }
    this.due = undefined;
    for (const run of this.waiting) this.due = Math.min(this.due ?? Infinity, run.resume_at_ms!);
    if (due.length > 0) this.ctx.changed();
    return due.length;
  }

  /** When the earliest waiting run falls due (epoch ms of the sandbox clock); undefined: none. */
  nextDue(): number | undefined {
    return this.due;
  }

  /** Cancel the waiting runs of an automation (it was deleted). */
  cancelFor(automationId: string): void {
    for (const run of [...this.waiting]) {
      if (run.automation_id !== automationId) continue;
      this.waiting.delete(run);
      const step = run.steps[run.steps.length - 1]!;
      step.status = 'cancelled';
      step.finished_at = this.ctx.clock.iso();
      run.resume_at_ms = null;
      this.finish(run, 'cancelled');
      this.ctx.changed();
    }
  }

  /** A team's runs in firing order. */
  list(teamId: string): Run[] {
    return [...this.runs.values()].filter((run) => run.team_id === teamId);
  }

  get(teamId: string, id: string): Run | undefined {
    const run = this.runs.get(id);
    return run?.team_id === teamId ? run : undefined;
  }

  // ---------------------------------------------------------------- steps

  /** Run the steps from the next one until the run waits or ends. */
  private proceed(store: Store, run: Run): void {
    while (run.steps.length < run.actions.length) {
      const index = run.steps.length;
      const action = run.actions[index]!;
      const step: RunStep = {
        index,
        type: action.type,
        status: 'completed',
        started_at: this.ctx.clock.iso(),
        finished_at: null,
        detail: {},
      };
      run.steps.push(step);
      try {
        this.perform(store, run, action, step);
      } catch (err) {
        if (!(err instanceof StepFailure)) throw err;
        step.status = 'failed';
        step.error = { code: err.code, message: err.message };
        step.finished_at = step.started_at;
        this.finish(run, 'failed');
        return;
      }
      if (step.status === 'waiting') {
        run.status = 'waiting';
        run.updated_at = step.started_at;
        this.waiting.add(run);
        const due = run.resume_at_ms!;
        if (this.due === undefined || due < this.due) this.due = due;
        this.onWait?.(due);
        return;
      }
      step.finished_at = step.started_at;
    }
    this.finish(run, 'completed');
  }

  private perform(store: Store, run: Run, action: ActionItem, step: RunStep): void {
    switch (action.type) {
      case 'webhook': {
        step.status = 'dispatched';
        step.detail = { webhook_id: action.webhook_id, event: run.trigger.event };
        const { events } = this.ctx;
        if (events.listening(automationEvents)) {
          events.emit(automationEvents, {
            type: 'webhook.dispatch',
            teamId: run.team_id,
            webhookId: action.webhook_id,
            event: run.trigger.event,
            occurredAt: step.started_at,
            data: eventData(store, run),
          });
        }
        return;
      }
      case 'wait': {
        const now = this.ctx.clock.nowMs();
        let due: number | undefined;
        if (action.cron_expression !== undefined) {
          due = nextCronTime(action.cron_expression, action.timezone, now);
          if (due === undefined) {
            throw new StepFailure(
              'schedule',
              `The cron expression '${action.cron_expression}' matches no date after ${step.started_at}.`,
            );
          }
        } else {
          due = now + Math.round((action.delay_seconds ?? 0) * 1000);
        }
        const { type: _type, ...settings } = action;
        step.detail = { ...settings, until: new Date(due).toISOString() };
        if (due > now) {
          step.status = 'waiting';
          run.resume_at_ms = due;
        }
        return;
      }
      case 'agent':
        step.status = 'recorded';
        step.detail = {
          agent_id: action.agent_id,
          would: `run agent ${action.agent_id} on the ${run.object_type} record ${run.record_id}`,
        };
        return;
      case 'email':
      case 'linkedin':
        step.status = 'recorded';
        step.detail = sendStep(store, run, action);
        return;
    }
  }

  private finish(run: Run, status: 'completed' | 'failed' | 'cancelled'): void {
    const at = this.ctx.clock.iso();
    run.status = status;
    run.finished_at = at;
    run.updated_at = at;
    this.finished.push(run.id);
    while (this.finished.length - this.head > MAX_FINISHED_RUNS) {
      this.runs.delete(this.finished[this.head++]!);
    }
    if (this.head > 4096 && this.head * 2 > this.finished.length) {
      this.finished = this.finished.slice(this.head);
      this.head = 0;
    }
  }

  // ---------------------------------------------------------------- slice

  reset(): void {
    this.runs = new Map();
    this.finished = [];
    this.head = 0;
    this.waiting = new Set();
    this.due = undefined;
    this.sequence = 0;
  }

  isEmpty(): boolean {
    return this.runs.size === 0;
  }

  toJSON(): { sequence: number; runs: Run[] } {
    return { sequence: this.sequence, runs: [...this.runs.values()] };
  }

  load(data: unknown): void {
    const base = 'store.slices.automation_runs';
    if (!isPlainObject(data) || !Array.isArray(data['runs'])) {
      throw new SnapshotError(base, 'must be an object { sequence, runs }');
    }
    const sequence = data['sequence'];
    if (typeof sequence !== 'number' || !Number.isInteger(sequence) || sequence < 0) {
      throw new SnapshotError(`${base}.sequence`, 'must be an integer >= 0');
    }
    const runs = new Map<string, Run>();
    const finished: Run[] = [];
    const waiting = new Set<Run>();
    for (const [i, item] of data['runs'].entries()) {
      const run = parseRun(item, `${base}.runs[${i}]`);
      runs.set(run.id, run);
      if (run.status === 'waiting') waiting.add(run);
      else if (run.finished_at !== null) finished.push(run);
    }
    finished.sort((a, b) =>
      a.finished_at! < b.finished_at! ? -1 : a.finished_at! > b.finished_at! ? 1 : 0,
    );
    this.runs = runs;
    this.finished = finished.map((run) => run.id);
    this.head = 0;
    this.waiting = waiting;
    this.due = undefined;
    for (const run of waiting) this.due = Math.min(this.due ?? Infinity, run.resume_at_ms!);
    this.sequence = sequence;
  }
}

function parseRun(item: unknown, at: string): Run {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  for (const field of ['id', 'team_id', 'object_type', 'record_id', 'automation_id', 'status']) {
    if (typeof item[field] !== 'string')
      throw new SnapshotError(`${at}.${field}`, 'must be a string');
  }
  if (!Array.isArray(item['actions']) || !Array.isArray(item['steps'])) {
    throw new SnapshotError(at, 'must carry actions and steps arrays');
  }
  const trigger = item['trigger'];
  if (!isPlainObject(trigger) || !isPlainObject(trigger['after'])) {
    throw new SnapshotError(`${at}.trigger`, 'must be an object with the record after the write');
  }
  if (item['status'] === 'waiting' && typeof item['resume_at_ms'] !== 'number') {
    throw new SnapshotError(`${at}.resume_at_ms`, 'must be a number on a waiting run');
  }
  return item as unknown as Run;
}

// ---------------------------------------------------------------- what steps say

/** The write a run fired on, as the evaluator reads it. */
function changeOf(run: Run): Change {
  const { type, before, after } = run.trigger;
  return { trigger: type, before, after };
}

/** The `data` of the run's webhook event (documented in the sandbox README). */
export function eventData(store: Store, run: Run): AutomationEventData {
  return {
    automation_id: run.automation_id,
    automation_name: run.automation_name,
    run_id: run.id,
    object_type: run.object_type,
    record_id: run.record_id,
    changes: changesOf(changeOf(run), run.list_id),
    record: presentRecord(store, run, run.trigger.after),
  };
}

/** A record as GET returns it, read with the current definitions of the run's team. */
function presentRecord(store: Store, run: Run, record: Readonly<StoredRecord>): unknown {
  if (!isObjectType(run.object_type)) return { id: record.id, default: record.default };
  return recordBody({ store, teamId: run.team_id, type: run.object_type, listId: null }, record);
}

/** What an email or LinkedIn step would have sent, to the contacts its view shows now. */
function sendStep(
  store: Store,
  run: Run,
  action: EmailAction | LinkedinAction,
): Record<string, unknown> {
  const view = contactViewsOf(store).find(run.team_id, action.recipient_view_id);
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
  const def = propertiesOf(store).get(run.team_id, 'contact', propertyId);
  if (def === undefined) {
    throw new StepFailure('not_found', `No contact property has the id ${propertyId}.`);
  }
  const record = run.trigger.after;
  const variables = {
    record: { ...record.default, id: record.id },
    automation: { id: run.automation_id, name: run.automation_name },
    object_type: run.object_type,
  };
  const recipients = recipientsOf(store, view).map((contact) => {
    const values = def.list_id === null ? contact.default : contact.lists[def.list_id];
    const address = values?.[def.slug] ?? null;
    if (action.type === 'linkedin') return { contact_id: contact.id, provider_value: address };
    let subject: string;
    try {
      subject = renderTemplate(action.subject, {
        ...variables,
        contact: { ...contact.default, id: contact.id },
      });
    } catch (err) {
      throw new StepFailure(
        'template',
        `The subject does not render for contact ${contact.id}: ${(err as Error).message}`,
      );
    }
    return { contact_id: contact.id, address, subject };
  });
  const { type: _type, ...settings } = action;
  return { ...settings, recipients };
}

export const runsSlice = defineSlice('automation_runs', (ctx) => new RunsModel(ctx));

/** The runs of `store`. */
export function runsOf(store: Store): RunsModel {
  return store.slice(runsSlice);
}
