// What the automations resource announces on the event spine (src/sandbox/events.ts): a
// webhook step of a run hands its event to the webhook delivery engine, which subscribes to
// `automationEvents` (resources/webhooks/routes.ts): the event is delivered, signed, to the
// webhook the step names when it is enabled and verified. The run records the step as
// dispatched either way, as the service's runs do not wait for deliveries.

import { defineEvent } from '../../events.ts';
import type { Run, RunTrigger } from './types.ts';

/** The `data` of a webhook event of an automation (documented in the sandbox README). */
export interface AutomationEventData {
  readonly automation_id: string;
  readonly automation_name: string;
  readonly run_id: string;
  readonly object_type: string;
  readonly record_id: string;
  /** `{ slug: { from, to } }`: the values the write changed (null for no value). */
  readonly changes: Readonly<Record<string, { from: unknown; to: unknown }>>;
  /** The record after the write, as GET returns it (`{ id, default, list? }`). */
  readonly record: unknown;
}

export interface WebhookDispatch {
  readonly type: 'webhook.dispatch';
  readonly teamId: string;
  /**
   * The webhooks the run's steps name, in order: the webhook steps done together (all of a
   * run whose steps are done at once, else the one step), one event each.
   */
  readonly webhookIds: readonly string[];
  /** The event name: `deal.updated`, `contact.created`, `deal.deleted`, `deal.restored`. */
  readonly event: string;
  /** When the step ran (sandbox clock, ISO-8601): the delivery's `occurred_at`. */
  readonly occurredAt: string;
  /**
   * The event's `data`, built when first asked for (the same object after): a listener that
   * will not deliver it (no such webhook, or one disabled or unverified) never pays for
   * presenting the record.
   */
  readonly data: () => AutomationEventData;
}

export type AutomationEvent = WebhookDispatch;

export const automationEvents = defineEvent<AutomationEvent>('automation');

/**
 * News of runs, for whoever shows them (the activity log of the console): the runs a write
 * started (one event per write: an import step starts thousands of runs), a waiting run
 * resumed (its wait fell due), and a run that was not done at once finished (completed,
 * failed, or cancelled: its automation was deleted while it waited). Emitted only when
 * someone listens.
 */
export interface RunsStartedEvent {
  readonly type: 'runs.started';
  /** The write that fired them (shared with the runs: read-only). */
  readonly trigger: RunTrigger;
  /** How many runs it started (one per automation it fired, in order). */
  readonly count: number;
  /**
   * The index-th run as it is now; undefined once the sandbox no longer keeps it (a run that
   * was not done at once, finished and dropped: the latest 10,000 finished runs are kept).
   */
  run(index: number): Run | undefined;
}

export interface RunEvent {
  readonly type: 'run.resumed' | 'run.finished';
  readonly teamId: string;
  /** The run itself (live). */
  readonly run: Run;
}

export const runEvents = defineEvent<RunsStartedEvent | RunEvent>('run');
