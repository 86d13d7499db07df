// Automations and runs as the sandbox answers them: an automation is the stored one without
// its version (the etag carries it); a run shows its trigger with the changes of the write,
// the steps it ran with what each did (a webhook step with the event `data` it dispatched),
// and the steps it has not reached (`pending` while it runs or waits, `skipped` once it
// failed or was cancelled).

import { changesOf } from '../../../automations/evaluate.ts';
import type { Store } from '../../store.ts';
import { eventData } from './runs.ts';
import type { Run, StoredAutomation } from './types.ts';

export function automationBody(automation: StoredAutomation): Omit<StoredAutomation, 'version'> {
  const { version: _version, ...body } = automation;
  return body;
}

export function etagOf(automation: StoredAutomation): string {
  return `"v${automation.version}"`;
}

export function runBody(store: Store, run: Run): Record<string, unknown> {
  const { type, source, event, at, before, after } = run.trigger;
  let data: unknown;
  const steps: Record<string, unknown>[] = run.steps.map((step) => {
    const { detail, error, ...rest } = step;
    const body: Record<string, unknown> = { ...rest, ...detail };
    if (step.type === 'webhook') {
      data ??= eventData(store, run);
      body['data'] = data;
    }
    if (error !== undefined) body['error'] = error;
    return body;
  });
  const unreached = run.status === 'failed' || run.status === 'cancelled' ? 'skipped' : 'pending';
  for (let index = run.steps.length; index < run.actions.length; index++) {
    steps.push({ index, type: run.actions[index]!.type, status: unreached });
  }
  return {
    id: run.id,
    sequence: run.sequence,
    automation_id: run.automation_id,
    automation_name: run.automation_name,
    object_type: run.object_type,
    record_id: run.record_id,
    list_id: run.list_id,
    status: run.status,
    started_at: run.started_at,
    updated_at: run.updated_at,
    finished_at: run.finished_at,
    resume_at: run.resume_at_ms === null ? null : new Date(run.resume_at_ms).toISOString(),
    trigger: {
      type,
      source,
      event,
      at,
      changes: changesOf({ trigger: type, before, after }, run.list_id),
    },
    steps,
  };
}
