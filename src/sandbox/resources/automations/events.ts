// What the automations resource announces on the event spine (src/sandbox/events.ts): a
// webhook step of a run hands its event to the webhook delivery engine, which subscribes to
// `automationEvents` (resources/webhooks/routes.ts): the event is delivered, signed, to the
// webhook the step names when it is enabled and verified. The run records the step as
// dispatched either way, as the service's runs do not wait for deliveries.

import { defineEvent } from '../../events.ts';
import type { Run } from './types.ts';

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
  readonly webhookId: string;
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
 * News of runs, for whoever shows them (the activity log of the console): a run started (for
 * every run, the ones done at once included), a waiting run resumed (its wait fell due), a
 * waiting run cancelled (its automation was deleted). `run()` reads the run as it is now (a
 * run done at once is kept as the write it shares with its siblings, and made when asked
 * for). Emitted only when someone listens.
 */
export interface RunEvent {
  readonly type: 'run.started' | 'run.resumed' | 'run.cancelled';
  readonly teamId: string;
  readonly recordId: string;
  readonly automationId: string;
  run(): Run;
}

export const runEvents = defineEvent<RunEvent>('run');
