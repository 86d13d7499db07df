// What the automations resource keeps: triggered automations as the API answers them (plus a
// version for the etag), their runs (a firing and its steps), and the contact views that
// email and LinkedIn steps read their recipients from.

import type { ActionItem, Changeset, StateFilter, Trigger } from '../../../automations/types.ts';
import type { WriteSource } from '../records/events.ts';
import type { StoredRecord } from '../records/types.ts';

export type AutomationKind = 'update' | 'lifecycle';

/** A triggered automation; replaced whole (never changed in place) by a PUT. */
export interface StoredAutomation {
  readonly id: string;
  readonly object_type: string;
  readonly kind: AutomationKind;
  readonly name: string;
  readonly actions: readonly ActionItem[];
  readonly changeset: Changeset | null;
  readonly state: StateFilter | null;
  readonly enabled: boolean;
  /** Lifecycle automations: booleans; update automations: null. */
  readonly on_create: boolean | null;
  readonly on_delete: boolean | null;
  readonly list_id: string | null;
  readonly team_id: string;
  readonly user_id: string;
  readonly created_at: string;
  readonly updated_at: string;
  /** 1 at creation, +1 on every replacement that changed it: the etag. */
  readonly version: number;
}

/** The fields a create or a replacement sets. */
export type AutomationFields = Pick<
  StoredAutomation,
  | 'kind'
  | 'name'
  | 'actions'
  | 'changeset'
  | 'state'
  | 'enabled'
  | 'on_create'
  | 'on_delete'
  | 'list_id'
>;

export type RunStatus = 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';

export type StepStatus =
  | 'waiting'
  | 'completed'
  | 'dispatched'
  | 'recorded'
  | 'failed'
  | 'cancelled';

/** One step of a run: an action as it ran (later steps are pending, not listed yet). */
export interface RunStep {
  readonly index: number;
  readonly type: ActionItem['type'];
  status: StepStatus;
  readonly started_at: string;
  finished_at: string | null;
  /** What the step did or would have done (by type; see the README). */
  detail: Record<string, unknown>;
  error?: { code: string; message: string };
}

/** The write that fired a run. */
export interface RunTrigger {
  readonly type: Trigger;
  readonly source: WriteSource;
  /** `deal.updated`, `contact.created`, …: the name of the webhook event. */
  readonly event: string;
  readonly at: string;
  /** The record before the write (null when created) and after it (as the event carried them). */
  readonly before: Readonly<StoredRecord> | null;
  readonly after: Readonly<StoredRecord>;
}

export interface Run {
  readonly id: string;
  /** 1, 2, 3, … in firing order (never reused until a reset). */
  readonly sequence: number;
  readonly team_id: string;
  readonly object_type: string;
  readonly record_id: string;
  readonly automation_id: string;
  readonly automation_name: string;
  readonly list_id: string | null;
  /** The automation's actions when it fired: a replacement does not change a run under way. */
  readonly actions: readonly ActionItem[];
  readonly trigger: RunTrigger;
  status: RunStatus;
  readonly started_at: string;
  updated_at: string;
  finished_at: string | null;
  /** While waiting: when the wait step falls due (epoch ms of the sandbox clock). */
  resume_at_ms: number | null;
  steps: RunStep[];
}

/** A contact view the sandbox stands in for (contact views are made in the product). */
export interface ContactView {
  readonly id: string;
  readonly team_id: string;
  readonly name: string;
  readonly filter: readonly Record<string, Record<string, unknown>>[];
  readonly combinator: 'AND' | 'OR';
  readonly list_id: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}
