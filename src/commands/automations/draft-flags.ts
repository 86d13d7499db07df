// The flags that write an automation without JSON (`--on-change stage:to=won --webhook
// "Deal alerts" --wait 1d`), read into options by index.ts and turned into a draft
// (src/automations-as-code/draft.ts) by create and update. Action flags keep the order they were
// typed in: a webhook and then a wait is not a wait and then a webhook.
import type { ActionDraft, Draft, Source } from '../../automations-as-code/draft.ts';
import type { Command } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Flags } from '../common/flags.ts';
import { collect } from '../common/flags.ts';
import { readInput } from '../common/input.ts';

/** One action flag as typed: which, and its value. */
export type ActionFlag =
  | { type: 'webhook'; value: string }
  | { type: 'wait'; value: string }
  | { type: 'wait-cron'; value: string; timezone?: string }
  | { type: 'agent'; value: string }
  | { type: 'action-file'; value: string };

export interface DraftFlags {
  name: string | undefined;
  onChange: string[];
  any: boolean | undefined;
  onUpdate: boolean;
  onCreate: boolean | undefined;
  onDelete: boolean | undefined;
  where: string[];
  or: boolean | undefined;
  clearWhere: boolean;
  /** undefined: no action flag (an update keeps the actions). */
  actions: ActionFlag[] | undefined;
  listId: string | null | undefined;
  enabled: boolean | undefined;
}

/** Order of action flags across flags: commander calls each parser in the order typed. */
let typed = 0;
const ordered = (value: string, previous: [number, string][] = []): [number, string][] => [
  ...previous,
  [typed++, value],
];

const ACTION_FLAGS = [
  ['--webhook', 'webhook'],
  ['--wait', 'wait'],
  ['--wait-cron', 'wait-cron'],
  ['--timezone', 'timezone'],
  ['--agent', 'agent'],
  ['--action-file', 'action-file'],
] as const;

/** Register the flags of create and update. */
export function draftFlags(cmd: Command, verb: 'create' | 'update'): Command {
  const replaces = verb === 'update' ? '; replaces every condition of its kind' : '';
  const actionsNote = verb === 'update' ? '; any action flag replaces all the actions' : '';
  return cmd
    .option('--name <name>', verb === 'create' ? 'name of the automation' : 'new name')
    .option(
      '--on-change <expr>',
      `fire when a property changes: SLUG, SLUG:to=VALUE, 'SLUG:from<VALUE' (repeatable${replaces})`,
      collect,
      [],
    )
    .option('--any', 'fire when any --on-change condition holds (default: all of them)')
    .option('--all', 'fire only when every --on-change condition holds')
    .option('--on-update', 'fire on every update of a record')
    .option('--on-create', 'fire when a record is created')
    .option('--on-delete', 'fire when a record is deleted')
    .option(
      '--where <expr>',
      `and only when the record matches, e.g. amount>=1000, organization.industry=software (repeatable${replaces})`,
      collect,
      [],
    )
    .option('--or', 'the record matches when any --where holds (default: all)')
    .option('--webhook <name|id>', `notify a webhook (repeatable, in order${actionsNote})`, ordered)
    .option('--wait <duration>', 'wait, e.g. 30m, 2h, 1d, 1h30m or seconds (repeatable)', ordered)
    .option('--wait-cron <expr>', 'wait until a 5-field cron time, e.g. "0 9 * * 1-5"', ordered)
    .option('--timezone <zone>', 'IANA time zone of the --wait-cron before it', ordered)
    .option('--agent <id>', 'run an agent (its id)', ordered)
    .option(
      '--action-file <file>',
      'actions from a YAML or JSON file, e.g. email or linkedin steps (a list, or one action)',
      ordered,
    )
    .option('--list-id <id>', 'only for records of this list')
    .option('--enabled', 'enabled (the default of a new automation)')
    .option('--disabled', 'disabled: it never fires');
}

/** Read the flags of create and update into their options. */
export function draftOptions(
  f: Flags,
  verb: 'create' | 'update',
  values: Record<string, unknown>,
): DraftFlags {
  f.exclusive('--any', '--all');
  f.exclusive('--enabled', '--disabled');
  f.exclusive(
    '--on-update',
    '--on-change',
    '--on-update fires on every update; --on-change on some.',
  );
  const seq: { at: number; flag: string; value: string }[] = [];
  for (const [flag, key] of ACTION_FLAGS) {
    const attr = key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    for (const [at, value] of (values[attr] as [number, string][] | undefined) ?? [])
      seq.push({ at, flag, value });
  }
  seq.sort((a, b) => a.at - b.at);
  let actions: ActionFlag[] | undefined;
  for (const { flag, value } of seq) {
    if (flag === '--timezone') {
      const last = actions?.at(-1);
      if (last?.type !== 'wait-cron' || last.timezone !== undefined) {
        throw new UsageError(
          '--timezone gives the time zone of the --wait-cron just before it.',
          'e.g. --wait-cron "0 9 * * 1-5" --timezone Europe/Paris',
        );
      }
      last.timezone = value;
      continue;
    }
    actions ??= [];
    actions.push({ type: flag.slice(2) as ActionFlag['type'], value } as ActionFlag);
  }
  const listId = f.string('--list-id');
  return {
    name: f.string('--name'),
    onChange: f.list('--on-change'),
    any: f.boolean('--any') ? true : f.boolean('--all') ? false : undefined,
    onUpdate: f.boolean('--on-update'),
    onCreate: f.boolean('--on-create') || undefined,
    onDelete: f.boolean('--on-delete') || undefined,
    where: f.list('--where'),
    or: f.boolean('--or') || undefined,
    clearWhere: verb === 'update' ? f.boolean('--clear-where') : false,
    actions,
    listId: verb === 'update' && f.toggle('--list') === false ? null : listId,
    enabled: f.boolean('--enabled') ? true : f.boolean('--disabled') ? false : undefined,
  };
}

const flag = (name: string): Source => ({ kind: 'flag', flag: name });

function items(exprs: readonly string[], name: string) {
  return exprs.map((value) => ({
    items: [{ value, source: flag(`${name} "${value}"`) }],
    together: false,
  }));
}

/** An --action-file's actions: a list of actions, or one, in the automations file's form. */
async function fileActions(deps: Deps, file: string): Promise<ActionDraft[]> {
  const input = await readInput(file, deps, '--action-file');
  const { parseActionsFile } = await import('../../automations-as-code/file.ts');
  return parseActionsFile(input.text, input.path ?? 'stdin');
}

/** The draft the flags describe (an --action-file is read here). */
export async function draftOf(deps: Deps, o: DraftFlags): Promise<Draft> {
  const whole = flag('the command line');
  let actions: ActionDraft[] | undefined;
  if (o.actions !== undefined) {
    actions = [];
    for (const a of o.actions) {
      const source = flag(`--${a.type} ${a.value}`);
      const s = { value: a.value, source };
      switch (a.type) {
        case 'webhook':
          actions.push({ type: 'webhook', source, webhook: s });
          break;
        case 'agent':
          actions.push({ type: 'agent', source, agent: s });
          break;
        case 'wait':
          actions.push({ type: 'wait', source, delay: s });
          break;
        case 'wait-cron':
          actions.push({
            type: 'wait',
            source,
            cron: s,
            ...(a.timezone !== undefined
              ? { timezone: { value: a.timezone, source: flag(`--timezone ${a.timezone}`) } }
              : {}),
          });
          break;
        case 'action-file':
          actions.push(...(await fileActions(deps, a.value)));
          break;
      }
    }
  }
  const onChange =
    o.onChange.length > 0
      ? { groups: items(o.onChange, '--on-change'), any: o.any }
      : o.any !== undefined
        ? { any: o.any }
        : undefined;
  const where =
    o.where.length > 0 || o.clearWhere
      ? { groups: items(o.where, '--where'), any: o.or === true }
      : o.or !== undefined
        ? { any: o.or }
        : undefined;
  return {
    source: whole,
    name: o.name === undefined ? undefined : { value: o.name, source: flag('--name') },
    enabled:
      o.enabled === undefined
        ? undefined
        : { value: o.enabled, source: flag(o.enabled ? '--enabled' : '--disabled') },
    listId: o.listId === undefined ? undefined : { value: o.listId, source: flag('--list-id') },
    onChange,
    onUpdate: o.onUpdate ? { value: true, source: flag('--on-update') } : undefined,
    onCreate:
      o.onCreate === undefined ? undefined : { value: o.onCreate, source: flag('--on-create') },
    onDelete:
      o.onDelete === undefined ? undefined : { value: o.onDelete, source: flag('--on-delete') },
    where,
    actions,
  };
}
