// Automations and runs as the sandbox answers them: an automation is the stored one without
// its version (the etag carries it); a run shows its automation, the write that fired it
// (with the changes it made), the steps it ran with what each did or would have done (a
// webhook step with the event `data` it dispatched), and the steps it has not reached
// (`pending` while it runs or waits, `skipped` once it failed or was cancelled; the step a
// running run is in, `running`).

import { changesOf, eventName } from '../../../automation-engine/evaluate.ts';
import type { Store } from '../../store.ts';
import { changeOf, eventData, runId } from './runs.ts';
import type { Run, RunStep, StoredAutomation } from './types.ts';

export function automationBody(automation: StoredAutomation): Omit<StoredAutomation, 'version'> {
  const { version: _version, ...body } = automation;
  return body;
}

export function etagOf(automation: StoredAutomation): string {
  return `"v${automation.version}"`;
}

/**
 * A run as the runs endpoint answers it. `withData: false` leaves out the webhook steps'
 * event `data` (the console's lists, which show many runs at once and link to each).
 */
export function runBody(
  store: Store,
  run: Run,
  options: { withData?: boolean } = {},
): Record<string, unknown> {
  const { automation, trigger } = run;
  const event = eventName(trigger.object_type, trigger.type);
  let data: unknown;
  const steps: Record<string, unknown>[] = automation.actions.map((action, index) => {
    let step: RunStep | undefined = run.steps[index];
    if (step === undefined && index === run.steps.length && run.status === 'waiting') {
      // The wait the run is in: the run holds it until it ends.
      step = {
        status: 'waiting',
        started_at: run.updated_at,
        finished_at: null,
        until: run.resume_at_ms!,
      };
    }
    if (step === undefined && index === run.steps.length && run.status === 'running') {
      // The step the run is in: an email step whose subjects are being rendered.
      return { index, type: action.type, status: 'running', started_at: run.updated_at };
    }
    if (step === undefined) {
      const status = run.status === 'failed' || run.status === 'cancelled' ? 'skipped' : 'pending';
      return { index, type: action.type, status };
    }
    const body: Record<string, unknown> = {
      index,
      type: action.type,
      status: step.status,
      started_at: step.started_at,
      finished_at: step.finished_at,
    };
    switch (action.type) {
      case 'webhook':
        if (options.withData === false) {
          Object.assign(body, { webhook_id: action.webhook_id, event });
          break;
        }
        data ??= eventData(store, run);
        Object.assign(body, { webhook_id: action.webhook_id, event, data });
        break;
      case 'agent':
        Object.assign(body, {
          agent_id: action.agent_id,
          would: `run agent ${action.agent_id} on the ${trigger.object_type} record ${trigger.record_id}`,
        });
        break;
      default: {
        const { type: _type, ...settings } = action;
        Object.assign(body, settings, step.detail);
        if (step.until !== undefined) body['until'] = new Date(step.until).toISOString();
      }
    }
    if (step.error !== undefined) body['error'] = step.error;
    return body;
  });
  return {
    id: runId(run),
    sequence: run.sequence,
    automation_id: automation.id,
    automation_name: automation.name,
    object_type: trigger.object_type,
    record_id: trigger.record_id,
    list_id: automation.list_id,
    status: run.status,
    started_at: run.started_at,
    updated_at: run.updated_at,
    finished_at: run.finished_at,
    resume_at: run.resume_at_ms === null ? null : new Date(run.resume_at_ms).toISOString(),
    trigger: {
      type: trigger.type,
      source: trigger.source,
      event,
      at: trigger.at,
      changes: changesOf(changeOf(run), automation.list_id),
    },
    steps,
  };
}
