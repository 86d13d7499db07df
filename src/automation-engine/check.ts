// The checks of an automation that its schema (openapi/openapi.yaml, AutomationWrite, which
// the sandbox applies at the door and src/contract applies anywhere) cannot express: the
// property slugs and dot paths it names exist on the object type (on its list), its
// comparators read in each property's type, its wait steps carry a cron expression and time
// zone that exist, its email subject parses as Liquid, its recipient properties are contact
// properties. Shared by the sandbox (create and replace answer 400 listing every problem) and
// the CLI (checking automation files before they are applied). Paths name fields inside the
// automation (`changeset.filter[0].stage.to.=`, `actions[2].cron_expression`).

import { compileAutomation } from './evaluate.ts';
import { cronProblem, timeZoneProblem } from './schedule.ts';
import { templateProblem } from './template.ts';
import type { AutomationProblem, AutomationSpec, Workspace } from './types.ts';

/**
 * Every problem of `automation` (already of the contract's shape) on `objectType`, its wait
 * schedules read from `nowMs` (the sandbox's clock; default now).
 */
export function checkAutomation(
  automation: AutomationSpec,
  objectType: string,
  workspace: Workspace,
  nowMs: number = Date.now(),
): AutomationProblem[] {
  const problems: AutomationProblem[] = [];
  if (automation.kind === 'update') {
    for (const field of ['on_create', 'on_delete'] as const) {
      if (automation[field] === true) {
        problems.push({
          field,
          code: 'not_allowed',
          message: `${field} applies to lifecycle automations only; an update automation fires on updates.`,
        });
      }
    }
  }
  problems.push(...compileAutomation(automation, objectType, workspace).problems);
  const contact = workspace.definitions('contact', null);
  for (const [i, action] of (automation.actions ?? []).entries()) {
    const at = `actions[${i}]`;
    const problem = (field: string, code: string, message: string) =>
      problems.push({ field: `${at}.${field}`, code, message });
    switch (action.type) {
      case 'wait': {
        const zone = typeof action.timezone === 'string' ? action.timezone : undefined;
        const zoneProblem = zone === undefined ? undefined : timeZoneProblem(zone);
        if (zoneProblem !== undefined) problem('timezone', 'format', zoneProblem);
        if (typeof action.cron_expression === 'string') {
          const cron = cronProblem(
            action.cron_expression,
            zoneProblem === undefined ? zone : undefined,
            nowMs,
          );
          if (cron !== undefined) problem('cron_expression', 'format', cron);
        }
        break;
      }
      case 'email': {
        const subject = templateProblem(action.subject);
        if (subject !== undefined) problem('subject', 'format', `subject ${subject}`);
        checkContactProperty(
          contact,
          action.recipient_email_prop_def_id,
          'recipient_email_prop_def_id',
          problem,
        );
        break;
      }
      case 'linkedin':
        checkContactProperty(
          contact,
          action.recipient_provider_prop_def_id,
          'recipient_provider_prop_def_id',
          problem,
        );
        break;
      default:
        break;
    }
  }
  return problems;
}

function checkContactProperty(
  contact: ReturnType<Workspace['definitions']>,
  id: string,
  field: string,
  problem: (field: string, code: string, message: string) => void,
): void {
  if (contact === undefined || contact.some((d) => d.id === id)) return;
  problem(
    field,
    'unknown_property',
    `No contact property has the id ${id}: the recipients are contacts, so ${field} names a contact property.`,
  );
}
