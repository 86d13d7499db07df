// What the automations resource keeps: triggered automations as the API answers them (plus a
// version for the etag), their runs (a firing and its steps), and the contact views that
// email and LinkedIn steps read their recipients from.

import type {
  ActionItem,
  AutomationKind,
  Changeset,
  StateFilter,
  Trigger,
} from '../../../automation-engine/types.ts';
import type { WriteSource } from '../records/events.ts';
import type { StoredRecord } from '../records/types.ts';

type Values = StoredRecord['default'];
type Lists = StoredRecord['lists'];

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

/**
 * A step a run reached: its index is its position, its type the action's. What a webhook or
 * agent step did follows from its action and the trigger; `detail` holds what does not (a
 * wait's end, an email's recipients).
 */
export interface RunStep {
  status: StepStatus;
  readonly started_at: string;
  finished_at: string | null;
  /** A wait step: when it falls due (epoch ms of the sandbox clock). */
  until?: number;
  /** An email or LinkedIn step: its recipients. */
  detail?: Record<string, unknown>;
  error?: { code: string; message: string };
}

/** The write that fired a run: one object shared by the runs it started. */
export interface RunTrigger {
  readonly type: Trigger;
  readonly source: WriteSource;
  readonly at: string;
  /** `at` in epoch ms of the sandbox clock. */
  readonly at_ms: number;
  readonly team_id: string;
  readonly object_type: string;
  readonly record_id: string;
  /**
   * The record's values (`default`) and list values before the write (null when it was
   * created) and after it, as the event carried them. The records model never changes a
   * values object in place, so keeping these keeps the record as it was without copying it
   * (an import fires on every row: fewer objects kept is less work for the collector).
   */
  readonly before: Values | null;
  readonly before_lists: Lists | null;
  readonly after: Values;
  readonly after_lists: Lists;
  /** The sequence of the first run the write started, and the automations it fired, in order. */
  first: number;
  automations: readonly RunAutomation[];
}

/** What a run keeps of its automation: the automation itself, or this much of it once saved. */
export type RunAutomation = Pick<StoredAutomation, 'id' | 'name' | 'list_id' | 'actions'>;

export interface Run {
  /** The run's id is this and its sequence (runId()): opaque to clients. */
  readonly prefix: string;
  /** 1, 2, 3, … in firing order (until a reset). */
  readonly sequence: number;
  /** Its actions as they were when it fired: a replacement does not change a run under way. */
  readonly automation: RunAutomation;
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
