// `ws props …`: the flags of each verb, read into its options.
import { type Command, type CommandContext, settleVerbs, verb } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import { examples } from '../../help.ts';
import { describeArguments } from '../common/args.ts';
import { collect, type Flags } from '../common/flags.ts';
import { applyOptions, diffOptions, planFlags } from '../common/plan-flags.ts';
import { nounOf, verbsOf } from '../common/verb-spec.ts';
import type { OptionFields } from './shared.ts';

const verbs = () => import('./verbs.ts');

/** --sort-index N (any number), or null for --no-sort-index. */
function sortIndex(f: Flags): number | null | undefined {
  const value = f.clearable('--sort-index');
  if (value === null || value === undefined) return value;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--sort-index takes a number, not "${value}".`);
  return n;
}

function optionFieldFlags(cmd: Command, clear: boolean): Command {
  cmd
    .option('--color-scheme <name>', 'colour of the option, e.g. blue')
    .option('--description <text>', 'what the option means')
    .option('--icon <icon>', 'icon of the option')
    .option('--group <name>', 'option group')
    .option('--sort-index <n>', 'position among the options (lower first)');
  if (clear) {
    cmd
      .option('--no-color-scheme', 'clear the colour')
      .option('--no-description', 'clear the description')
      .option('--no-icon', 'clear the icon')
      .option('--no-group', 'clear the group')
      .option('--no-sort-index', 'clear the position');
  }
  return cmd;
}

function optionFields(f: Flags): OptionFields {
  return {
    color: f.clearable('--color-scheme'),
    description: f.clearable('--description'),
    icon: f.clearable('--icon'),
    group: f.clearable('--group'),
    sortIndex: sortIndex(f),
  };
}

export function register(program: Command, ctx: CommandContext): void {
  const { noun: props, define } = nounOf(program, ctx, verbs, ['props', 'properties'], {
    description:
      'Property definitions and their select options; the schema as code (export, diff, apply)',
    help: '\nObject types are singular or plural (contact, contacts); a property is its slug or its id.',
    examples: [
      'ws props list contacts --options',
      'ws props create contact --name "Lead source" --type select_str --option Web --option Referral',
      'ws props options add contact lead_source Partner --color-scheme teal',
      'ws props export --output schema.yaml',
      'ws props diff -f schema.yaml',
      'ws props apply -f schema.yaml --prune --yes',
    ],
  });

  define(['list [type]', 'ls'], {
    description:
      'List property definitions of one object type, or of all (the API is asked each time)',
    flags: (cmd) =>
      cmd
        .option('--term <text>', 'only definitions whose name or slug contains this')
        .option('--list-id <id>', 'what this list shows: shared, workspace and its own definitions')
        .option('--options', 'show option values instead of their number'),
    examples: [
      'ws props list contacts',
      'ws props list --options',
      'ws props list deal --term stage --json',
    ],
    run: 'listVerb',
    options: ([type]: (string | undefined)[], f) => ({
      objectType: type,
      term: f.string('--term'),
      listId: f.string('--list-id'),
      options: f.boolean('--options'),
    }),
  });

  define(['get <type> <property>'], {
    description: 'Show one property definition with its options (property: slug or id)',
    flags: (cmd) => cmd.option('--list-id <id>', 'look among what this list shows'),
    examples: ['ws props get contact lead_source', 'ws props get deal stage --json'],
    run: 'getVerb',
    options: ([type, property], f) => ({
      objectType: type,
      property,
      listId: f.string('--list-id'),
    }),
  });

  define(['create <type>'], {
    description:
      'Create a property definition (on a terminal, asks for a missing name and type); warns about similar names',
    flags: (cmd) =>
      cmd
        .option('--name <name>', 'display name (unique among the properties it is shown with)')
        .option('--type <type>', 'storage type: str, num, bool, date, text, select_str, …')
        .option('--slug <slug>', 'slug (default: derived from the name)')
        .option('--required', 'records must carry a value')
        .option('--icon <icon>', 'icon')
        .option('--list-id <id>', 'belong to this list only (default: the whole workspace)')
        .option('--role-id <id>', 'display format (default: the type’s own)')
        .option(
          '--option <value>',
          'an option of a select property (repeatable, in order)',
          collect,
          [],
        ),
    examples: [
      'ws props create contact --name "Lead source" --type select_str --option Web --option Referral',
      'ws props create deal --name "Renewal date" --type date --required',
    ],
    run: 'createVerb',
    options: ([type], f) => ({
      objectType: type,
      name: f.string('--name'),
      type: f.string('--type'),
      slug: f.string('--slug'),
      required: f.boolean('--required'),
      icon: f.string('--icon'),
      listId: f.string('--list-id'),
      roleId: f.string('--role-id'),
      options: f.list('--option'),
    }),
  });

  define(['update <type> <property>'], {
    description: 'Change a property definition (property: slug or id)',
    flags: (cmd) =>
      cmd
        .option('--name <name>', 'new display name')
        .option('--icon <icon>', 'new icon')
        .option('--no-icon', 'clear the icon')
        .option('--required', 'records must carry a value')
        .option('--no-required', 'a value is optional')
        .option('--enable', 'show the property')
        .option('--disable', 'hide the property (its values are kept)')
        .option('--list-id <id>', 'move it to this list')
        .option('--no-list-id', 'make it workspace-global'),
    examples: [
      'ws props update contact lead_source --name Source --required',
      'ws props update contact lead_source --no-icon --disable',
    ],
    run: 'updateVerb',
    options: ([type, property], f) => ({
      enabled: f.enabled(),
      objectType: type,
      property,
      name: f.string('--name'),
      icon: f.clearable('--icon'),
      required: f.toggle('--required'),
      listId: f.clearable('--list-id'),
    }),
  });

  define(['delete <type> <property>', 'rm'], {
    description: 'Delete a property definition (asks first; --yes to skip)',
    examples: ['ws props delete contact lead_source', 'ws props delete contact lead_source --yes'],
    run: 'deleteVerb',
    options: ([type, property]) => ({ objectType: type, property }),
  });

  verb(props, ['options'], (cmd) => {
    const options = cmd
      .description('Options of select_str and multiselect_str properties')
      .addHelpText(
        'after',
        examples([
          'ws props options list contact lead_source',
          'ws props options add contact lead_source Partner --color-scheme teal',
        ]),
      );
    const defineOption = verbsOf(options, ctx, verbs);

    defineOption(['list <type> <property>', 'ls'], {
      description: 'List the options of a select property, in their order',
      examples: [
        'ws props options list contact lead_source',
        'ws props options list deal stage --json',
      ],
      run: 'optionsListVerb',
      options: ([type, property]) => ({ objectType: type, property }),
    });

    defineOption(['add <type> <property> <value>'], {
      description: 'Add an option to a select property',
      flags: (cmd) =>
        optionFieldFlags(
          cmd.option('--slug <slug>', 'slug (default: derived from the value)'),
          false,
        ),
      examples: [
        'ws props options add contact lead_source "Trade show" --color-scheme purple --group Events',
        'ws props options add deal stage Negotiation --sort-index 3',
      ],
      run: 'optionsAddVerb',
      options: ([type, property, value], f) => ({
        objectType: type,
        property,
        value,
        slug: f.string('--slug'),
        ...optionFields(f),
      }),
    });

    defineOption(['update <type> <property> <option>'], {
      description: 'Change an option (option: slug or id)',
      flags: (cmd) =>
        optionFieldFlags(
          cmd
            .option('--value <value>', 'new display value')
            .option('--slug <slug>', 'new slug')
            .option('--enable', 'offer the option again')
            .option('--disable', 'hide the option (records keep it)')
            .option('--list-id <id>', 'show the option on this list only')
            .option('--no-list-id', 'show the option on every list'),
          true,
        ),
      examples: [
        'ws props options update contact lead_source trade_show --value "Trade fair"',
        'ws props options update contact lead_source trade_show --no-color-scheme',
        'ws props options update contact lead_source trade_show --disable',
      ],
      run: 'optionsUpdateVerb',
      options: ([type, property, option], f) => ({
        enabled: f.enabled(),
        objectType: type,
        property,
        option,
        value: f.string('--value'),
        slug: f.string('--slug'),
        ...optionFields(f),
        listId: f.clearable('--list-id'),
      }),
    });

    defineOption(['remove <type> <property> <option>', 'rm'], {
      description: 'Remove an option (asks first; --yes to skip)',
      examples: [
        'ws props options remove contact lead_source trade_show',
        'ws props options remove contact lead_source trade_show --yes',
      ],
      run: 'optionsRemoveVerb',
      options: ([type, property, option]) => ({ objectType: type, property, option }),
    });
  });

  define(['export [types...]'], {
    description:
      "Write the workspace's own definitions and options as a schema file (YAML; JSON with --format json)",
    flags: (cmd) => cmd.option('-o, --output <file>', 'write to this file (default: stdout)'),
    examples: [
      'ws props export -o schema.yaml',
      'ws props export contact deal --format json',
      'ws props export contact > contact.yaml',
    ],
    run: 'exportVerb',
    options: (types, f) => ({ objectTypes: types, output: f.string('--output') }),
  });

  define(['diff'], {
    description:
      'Show what applying a schema file would change; exit 0 when nothing, 1 when something',
    flags: (cmd) =>
      planFlags(cmd, {
        file: 'the schema file (- for stdin)',
        prune: 'also plan deletes of what the file does not have',
      }),
    examples: [
      'ws props diff -f schema.yaml',
      'ws props diff -f schema.yaml --prune --json',
      'ws props export --profile prod | ws props diff -f - --profile staging',
    ],
    run: 'diffVerb',
    options: (_, f) => diffOptions(f),
  });

  define(['apply'], {
    description: 'Make the workspace match a schema file, and print what changed',
    flags: (cmd) =>
      planFlags(cmd, {
        file: 'the schema file (- for stdin)',
        dryRun: 'print the plan and change nothing',
        prune: 'delete what the file does not have (asks first; --yes to skip)',
      }),
    examples: [
      'ws props apply -f schema.yaml --dry-run',
      'ws props apply -f schema.yaml',
      'ws props apply -f schema.yaml --prune --yes',
    ],
    run: 'applyVerb',
    options: (_, f) => applyOptions(f),
  });

  settleVerbs(props);
  describeArguments(props, 'property', { value: "the option's display value" });
}
