// An automation written back in the language it was made in: `ws automations get` shows
// one line per condition and action as the flags that make it (`--on-change stage:to=won`,
// `--webhook "Deal alerts"`, `--wait 1d`), `list` and plans a one-line summary, and
// `export` the file's form (file.ts reads it back to the same automation).
import type { ActionItem, Automation } from '../api/automations.ts';
import { shellWord } from '../util/shell.ts';
import { changeItems, formatDelay, itemsText, whereItems } from './language.ts';

/** The names a rendering writes for ids; an id whose name is not known is written as the id. */
export interface Names {
  webhookName(id: string): string | undefined;
  /** True when the team's webhooks were read and none has this id (it was deleted). */
  webhookGone(id: string): boolean;
  contactViewName(id: string): string | undefined;
  contactPropertySlug(id: string): string | undefined;
}

export const NO_NAMES: Names = {
  webhookName: () => undefined,
  webhookGone: () => false,
  contactViewName: () => undefined,
  contactPropertySlug: () => undefined,
};

type Shape = Pick<
  Automation,
  'kind' | 'changeset' | 'state' | 'on_create' | 'on_delete' | 'actions'
>;

/** A group of one entry's expressions, in the file's flow form: `[stage, 'amount:to>=1000']`. */
function groupText(items: readonly string[]): string {
  return `[${items.map((i) => (/^[\w.:=-]+$/.test(i) ? i : `'${i.replace(/'/g, "''")}'`)).join(', ')}]`;
}

function flagLines(flag: string, items: readonly (string | string[])[]): string[] {
  return items.map((i) =>
    typeof i === 'string'
      ? `${flag} ${shellWord(i)}`
      : `${flag.replace(/^--/, '')} group ${groupText(i)}`,
  );
}

/** When it fires, as flags: `--on-change …` (`--any`), `--on-update`, `--on-create`, `--on-delete`. */
export function triggerLines(a: Shape): string[] {
  if (a.kind === 'update') {
    const filter = a.changeset?.filter ?? [];
    if (filter.length === 0) return ['--on-update'];
    const lines = flagLines('--on-change', changeItems(filter));
    if (a.changeset?.combinator === 'OR') lines.push('--any');
    return lines;
  }
  const lines: string[] = [];
  if (a.on_create === true) lines.push('--on-create');
  if (a.on_delete === true) lines.push('--on-delete');
  return lines.length > 0 ? lines : ['(neither --on-create nor --on-delete: it never fires)'];
}

/** Its condition on the record, as flags: `--where …` (`--or`). */
export function whereLines(a: Pick<Automation, 'state'>): string[] {
  const filter = a.state?.filter ?? [];
  const lines = flagLines('--where', whereItems(filter));
  if (filter.length > 1 && a.state?.combinator === 'OR') lines.push('--or');
  return lines;
}

function quoted(text: string): string {
  return JSON.stringify(text);
}

/** One action as its flag (`--webhook "Deal alerts"`, `--wait 1d`), or in words (email, LinkedIn). */
export function actionLine(action: ActionItem, names: Names = NO_NAMES): string {
  switch (action.type) {
    case 'webhook':
      return names.webhookGone(action.webhook_id)
        ? `--webhook ${action.webhook_id} (no webhook has this id: it was deleted)`
        : `--webhook ${shellWord(names.webhookName(action.webhook_id) ?? action.webhook_id)}`;
    case 'agent':
      return `--agent ${action.agent_id}`;
    case 'wait':
      if (action.delay_seconds !== undefined) return `--wait ${formatDelay(action.delay_seconds)}`;
      return `--wait-cron ${shellWord(action.cron_expression ?? '')}${action.timezone ? ` --timezone ${shellWord(action.timezone)}` : ''}`;
    case 'email': {
      const view = names.contactViewName(action.recipient_view_id) ?? action.recipient_view_id;
      const prop =
        names.contactPropertySlug(action.recipient_email_prop_def_id) ??
        action.recipient_email_prop_def_id;
      return `email the contacts of view ${quoted(view)} at ${prop}, as ${action.send_as_user_id}, template ${action.template_id}, subject ${quoted(action.subject)}`;
    }
    case 'linkedin': {
      const view = names.contactViewName(action.recipient_view_id) ?? action.recipient_view_id;
      const prop =
        names.contactPropertySlug(action.recipient_provider_prop_def_id) ??
        action.recipient_provider_prop_def_id;
      return `linkedin message to the contacts of view ${quoted(view)} at ${prop}, as ${action.send_as_user_id}, template ${action.template_id}`;
    }
    default:
      return JSON.stringify(action);
  }
}

export function actionLines(a: Pick<Automation, 'actions'>, names: Names = NO_NAMES): string[] {
  return (a.actions ?? []).map((x) => actionLine(x, names));
}

/** When it fires, in one line: `stage:to=won`, `any update`, `create or delete`; `where …` after. */
export function triggerSummary(a: Shape): string {
  let on: string;
  if (a.kind === 'update') {
    const filter = a.changeset?.filter ?? [];
    on =
      filter.length === 0
        ? 'any update'
        : `change: ${itemsText(changeItems(filter), a.changeset?.combinator ?? 'AND')}`;
  } else {
    const events = [a.on_create ? 'create' : '', a.on_delete ? 'delete' : ''].filter(Boolean);
    on = events.length > 0 ? events.join(' or ') : 'never';
  }
  const where = a.state?.filter ?? [];
  return where.length === 0
    ? on
    : `${on}; where ${itemsText(whereItems(where), a.state?.combinator ?? 'AND')}`;
}

/** Its actions in one line: `webhook, wait 1d, agent` (`webhook (deleted)` for a webhook gone). */
export function actionsSummary(a: Pick<Automation, 'actions'>, names: Names = NO_NAMES): string {
  return (a.actions ?? [])
    .map((x) =>
      x.type === 'wait'
        ? x.delay_seconds !== undefined
          ? `wait ${formatDelay(x.delay_seconds)}`
          : `wait until ${x.cron_expression}`
        : x.type === 'webhook' && names.webhookGone(x.webhook_id)
          ? 'webhook (deleted)'
          : x.type,
    )
    .join(', ');
}

/** The ids of the webhooks `a`'s steps name that no longer exist. */
export function goneWebhooks(a: Pick<Automation, 'actions'>, names: Names): string[] {
  return (a.actions ?? []).flatMap((x) =>
    x.type === 'webhook' && names.webhookGone(x.webhook_id) ? [x.webhook_id] : [],
  );
}

// ---------------------------------------------------------------- the file's form

/** An action as a file writes it: `{ webhook: NAME }`, `{ wait: 1d }`, `{ email: {…} }`. */
export function actionObject(action: ActionItem, names: Names): Record<string, unknown> {
  switch (action.type) {
    case 'webhook':
      return { webhook: names.webhookName(action.webhook_id) ?? action.webhook_id };
    case 'agent':
      return { agent: action.agent_id };
    case 'wait':
      if (action.delay_seconds !== undefined) {
        const text = formatDelay(action.delay_seconds);
        return { wait: /^\d/.test(text) && /[a-z]/.test(text) ? text : action.delay_seconds };
      }
      return {
        wait: {
          cron: action.cron_expression,
          ...(action.timezone !== undefined ? { timezone: action.timezone } : {}),
        },
      };
    case 'email':
    case 'linkedin': {
      const view = names.contactViewName(action.recipient_view_id) ?? action.recipient_view_id;
      const propId =
        action.type === 'email'
          ? action.recipient_email_prop_def_id
          : action.recipient_provider_prop_def_id;
      const prop = names.contactPropertySlug(propId) ?? propId;
      const sender = { send_as_user_id: action.send_as_user_id, template_id: action.template_id };
      return action.type === 'email'
        ? {
            email: {
              recipient_view: view,
              recipient_email_property: prop,
              ...sender,
              subject: action.subject,
            },
          }
        : { linkedin: { recipient_view: view, recipient_provider_property: prop, ...sender } };
    }
    default:
      return action as Record<string, unknown>;
  }
}

/** The conditions of a group as a file writes them: a list (AND), or `{ any: list }` (OR). */
function conditions(items: (string | string[])[], combinator: string | undefined): unknown {
  return combinator === 'OR' ? { any: items } : items;
}

/** An automation as a file writes it: only what differs from the defaults, no ids of its own. */
export function automationObject(a: Automation, names: Names): Record<string, unknown> {
  const out: Record<string, unknown> = { name: a.name };
  const lifecycle = a.kind === 'lifecycle';
  if (lifecycle && a.on_create !== true && a.on_delete !== true) out.kind = 'lifecycle';
  if (a.enabled === false) out.enabled = false;
  if (a.list_id != null) out.list_id = a.list_id;
  if (!lifecycle) {
    const filter = a.changeset?.filter ?? [];
    if (filter.length === 0) out.on_update = true;
    else out.on_change = conditions(changeItems(filter), a.changeset?.combinator);
  } else {
    if (a.on_create === true) out.on_create = true;
    if (a.on_delete === true) out.on_delete = true;
  }
  const where = a.state?.filter ?? [];
  if (where.length > 0) out.where = conditions(whereItems(where), a.state?.combinator);
  if ((a.actions ?? []).length > 0) out.actions = a.actions!.map((x) => actionObject(x, names));
  return out;
}
