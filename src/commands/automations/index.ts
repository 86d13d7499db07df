// `ws automations …`: the flags of each verb, read into its options.

import { RUN_STATUSES } from '../../api/automations.ts';
import { type Command, type CommandContext, Option, settleVerbs } from '../../command.ts';
import { describeArguments } from '../common/args.ts';
import { collect } from '../common/flags.ts';
import { pageFlags, pageOptions } from '../common/list-flags.ts';
import { applyOptions, diffOptions, planFlags } from '../common/plan-flags.ts';
import { nounOf } from '../common/verb-spec.ts';
import { draftFlags, draftOptions } from './draft-flags.ts';
import { TYPES_HELP } from './shared.ts';

const verbs = () => import('./verbs.ts');

/** The help of a verb that takes an object type and an automation. */
const AUTOMATION_HELP = `
${TYPES_HELP}
AUTOMATION is an automation id, or its name (looked up in the listing).`;

const KINDS = ['update', 'lifecycle'] as const;
const EVENTS = ['created', 'updated', 'deleted'] as const;

const LANGUAGE_HELP = `
When it fires:
  --on-change SLUG              any change of the property
  --on-change SLUG:to=VALUE     it changed, and its value after the write compares so
  --on-change 'SLUG:from<VALUE' it changed, and its value before the write compares so
                                (any --where operator after from or to: stage:to:in=won,lost)
  Several --on-change: all must hold (--any: one is enough); those on one slug make one
  condition ('amount:from<1000' with 'amount:to>=1000': it crossed 1000).
  --on-update                   every update;  --on-create, --on-delete: lifecycle
  --where EXPR                  and the record matches (the filter language of
                                \`ws records list --where\`; dot-paths follow references)
What it does, in the order given:
  --webhook NAME|ID  --wait 2h  --wait-cron "0 9 * * 1-5" --timezone Europe/Paris
  --agent ID  --action-file FILE (email and linkedin steps, as \`export\` writes them)`;

export function register(program: Command, ctx: CommandContext): void {
  const { noun: automations, define } = nounOf(program, ctx, verbs, ['automations', 'automation'], {
    description:
      'Triggered automations: what fires them, what they do; automations as code (export, diff, apply)',
    help: `\n${TYPES_HELP}`,
    examples: [
      'ws automations create deal --name "Deal won" --on-change stage:to=won --webhook "Deal alerts" --wait 1d',
      'ws automations get deal "Deal won"',
      'ws automations test deal "Deal won" --record 6f1c… --set stage=won',
      'ws automations export > automations.yaml',
      'ws automations apply -f automations.yaml --prune --yes',
    ],
  });

  define(['list <type>', 'ls'], {
    description: 'List the automations of an object type',
    flags: (cmd) =>
      pageFlags(
        cmd
          .addOption(
            new Option('--kind <kind>', 'only update or only lifecycle automations').choices(KINDS),
          )
          .option('--list-id <id>', 'only the automations of this list'),
        { one: 'automation', many: 'automations' },
        50,
      ),
    help: `\n${TYPES_HELP}\nColumns: id, name, kind, enabled, when, then, updated_at; --fields adds list_id,\nobject_type, created_at.`,
    examples: ['ws automations list deals', 'ws automations list deal --kind lifecycle --json'],
    run: 'listVerb',
    options: ([type], f) => ({
      type,
      kind: f.choice('--kind', KINDS),
      listId: f.string('--list-id'),
      ...pageOptions(f),
    }),
  });

  define(['get <type> <automation>'], {
    description: 'Show an automation: one line per condition and action, as the flags that make it',
    help: AUTOMATION_HELP,
    examples: [
      'ws automations get deal "Deal won"',
      'ws automations get deal 8b8a7432-a5f9-401a-80ea-62432fdcc992 --json',
    ],
    run: 'getVerb',
    options: ([type, automation]) => ({ type, automation }),
  });

  // create and update read the action flags in the order given, from the option values
  // themselves (draftOptions).
  define(['create <type>'], {
    description: 'Create an automation from flags (or --file, one automation as a file holds it)',
    flags: (cmd) =>
      draftFlags(
        cmd.option(
          '--file <file>',
          'the automation as YAML or JSON, as `export` writes one (- for stdin)',
        ),
        'create',
      ),
    help: `\n${TYPES_HELP}\n${LANGUAGE_HELP}`,
    examples: [
      'ws automations create deal --name "Deal won" --on-change stage:to=won --webhook "Deal alerts" --wait 1d',
      "ws automations create deal --name \"Crossed 10k\" --on-change 'amount:from<10000' --on-change 'amount:to>=10000'",
      'ws automations create contact --name "New lead" --on-create --where lead_source=web --agent 3b…',
    ],
    run: 'createVerb',
    options: ([type], f, cmd) => ({
      type,
      file: f.string('--file'),
      ...draftOptions(f, 'create', cmd.opts()),
    }),
  });

  define(['update <type> <automation>'], {
    description: 'Change an automation: read it, change what the flags say, write it whole',
    flags: (cmd) =>
      draftFlags(
        cmd
          .option('--clear-where', 'remove every --where condition')
          .option('--no-list', 'for records of any list')
          .option(
            '--file <file>',
            'what to change, as YAML or JSON in the form `export` writes (- for stdin)',
          ),
        'update',
      ),
    help: `${AUTOMATION_HELP}
--on-change replaces the changes it fires on; --where replaces its conditions on the
record; any action flag replaces all its actions. What no flag names is kept.
${LANGUAGE_HELP}`,
    examples: [
      'ws automations update deal "Deal won" --where \'amount>=5000\'',
      'ws automations update deal "Deal won" --webhook "Deal alerts" --wait 2h',
    ],
    run: 'updateVerb',
    options: ([type, automation], f, cmd) => ({
      type,
      automation,
      file: f.string('--file'),
      ...draftOptions(f, 'update', cmd.opts()),
    }),
  });

  define(['delete <type> <automation>', 'rm'], {
    description: 'Delete an automation (asks first; --yes to skip)',
    help: AUTOMATION_HELP,
    examples: [
      'ws automations delete deal "Deal won"',
      'ws automations delete deal "Deal won" --yes',
    ],
    run: 'deleteVerb',
    options: ([type, automation]) => ({ type, automation }),
  });

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    define([`${name} <type> <automation>`], {
      description: enabled ? 'Enable an automation' : 'Disable an automation: it fires no more',
      help: AUTOMATION_HELP,
      examples: [`ws automations ${name} deal "Deal won"`],
      run: 'enableVerb',
      options: ([type, automation]) => ({ type, automation, enabled }),
    });
  }

  define(['runs [type] [automation]'], {
    description: "The runs of automations: a ws sandbox's record of what fired, and each step",
    flags: (cmd) =>
      pageFlags(
        cmd
          .option('--record <id>', 'only the runs of this record')
          .addOption(
            new Option('--status <status>', 'only runs in this state').choices(RUN_STATUSES),
          )
          .option('--steps', 'one row per step instead of per run'),
        { one: 'run', many: 'runs' },
        50,
      ),
    help: `${AUTOMATION_HELP}
Runs are kept by \`ws sandbox\` (newest last). The API has no runs: against another
service this explains so (exit 1); \`ws automations test\` answers "would it fire" there.`,
    examples: [
      'ws automations runs deal "Deal won"',
      'ws automations runs --record 7cc28d35-f106-497e-adb6-2d9bc5230103 --steps',
    ],
    run: 'runsVerb',
    options: ([type, automation]: (string | undefined)[], f) => ({
      type,
      automation,
      record: f.string('--record'),
      status: f.choice('--status', RUN_STATUSES),
      steps: f.boolean('--steps'),
      ...pageOptions(f),
    }),
  });

  define(['test <type> <automation>'], {
    description:
      'Would it fire, and why: each condition with the values it compared (writes nothing)',
    flags: (cmd) =>
      cmd
        .requiredOption('--record <id>', 'the record the change is made to')
        .option(
          '--set <slug=value>',
          'the change: a property and its new value (repeatable)',
          collect,
          [],
        )
        .option('--before <file>', 'the record before the change (JSON or YAML values by slug)')
        .option('--after <file>', 'the record after the change (JSON or YAML values by slug)')
        .addOption(
          new Option('--event <event>', 'what happens to the record (default: updated)').choices(
            EVENTS,
          ),
        ),
    help: `${AUTOMATION_HELP}
Exit 0 when it would fire, 1 when not. The record is read from the service; --set
changes its values (as \`ws records update --set\` reads them), or --before and --after
give both sides. The verdicts come from the evaluator the ws sandbox runs.`,
    examples: [
      'ws automations test deal "Deal won" --record 6f1c… --set stage=won',
      'ws automations test deal "Deal won" --record 6f1c… --before before.json --after after.json',
    ],
    run: 'testVerb',
    options: ([type, automation], f) => {
      f.exclusive('--set', '--before');
      f.exclusive('--set', '--after');
      return {
        type,
        automation,
        record: f.string('--record')!,
        set: f.list('--set'),
        before: f.string('--before'),
        after: f.string('--after'),
        event: f.choice('--event', EVENTS),
      };
    },
  });

  define(['export [types...]'], {
    description:
      'Write the automations of some or all object types as a file (YAML; JSON with --format json)',
    flags: (cmd) => cmd.option('-o, --output <file>', 'write to this file (default: stdout)'),
    examples: [
      'ws automations export > automations.yaml',
      'ws automations export deal contact --output automations.yaml',
    ],
    run: 'exportVerb',
    options: (types, f) => ({ types, output: f.string('--output') }),
  });

  define(['validate <file>'], {
    description:
      'Check an automations file against the API and the workspace, writing nothing (each error at its line and column)',
    help: '\nExit 0 when the file is valid, 2 with every problem.',
    examples: ['ws automations validate automations.yaml'],
    run: 'validateVerb',
    options: ([file]) => ({ file }),
  });

  define(['diff'], {
    description:
      'Show what applying an automations file would change; exit 0 when nothing, 1 when something',
    flags: (cmd) =>
      planFlags(cmd, {
        file: 'the automations file (- for stdin)',
        prune: 'also plan deletes of automations the file does not have',
      }),
    help: '\nExit 0 when nothing differs, 1 when something does, above 1 on error (as kubectl diff).',
    examples: [
      'ws automations diff -f automations.yaml',
      'ws automations diff -f automations.yaml --prune --json',
    ],
    run: 'diffVerb',
    options: (_, f) => diffOptions(f),
  });

  define(['apply'], {
    description:
      'Make the workspace match an automations file: create, replace (and with --prune delete) automations',
    flags: (cmd) =>
      planFlags(cmd, {
        file: 'the automations file (- for stdin)',
        dryRun: 'show the plan, change nothing',
        prune: 'delete automations of the file’s object types that it does not have',
      }),
    help: `
An automation is known by its object type and name. Everything is checked before the first
write; deletes (--prune) ask first on a terminal (--yes to skip, required elsewhere).`,
    examples: [
      'ws automations apply -f automations.yaml --dry-run',
      'ws automations apply -f automations.yaml --prune --yes',
    ],
    run: 'applyVerb',
    options: (_, f) => applyOptions(f),
  });

  settleVerbs(automations);
  describeArguments(automations, 'automation', {
    automation: 'an automation, by id or by name',
  });
}
