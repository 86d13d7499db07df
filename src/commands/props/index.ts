// `ws props …`: the flags of each verb, read into its options.
import { type Command, type CommandContext, settleVerbs, verb } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import { examples } from '../../help.ts';
import { describeArguments } from '../common/args.ts';
import { collect, type Flags, flags, type OptionValues } from '../common/flags.ts';
import { applyOptions, diffOptions, planFlags } from '../common/plan-flags.ts';
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
  const props = program
    .command('props')
    .alias('properties')
    .description(
      'Property definitions and their select options; the schema as code (export, diff, apply)',
    )
    .addHelpText(
      'after',
      `
Object types are singular or plural (contact, contacts); a property is its slug or its id.

Examples:
  $ ws props list contacts --options
  $ ws props create contact --name "Lead source" --type select_str --option Web --option Referral
  $ ws props options add contact lead_source Partner --color-scheme teal
  $ ws props export --output schema.yaml
  $ ws props diff -f schema.yaml
  $ ws props apply -f schema.yaml --prune --yes`,
    );

  verb(props, ['list [type]', 'ls'], (cmd) =>
    cmd
      .description(
        'List property definitions of one object type, or of all (the API is asked each time)',
      )
      .option('--term <text>', 'only definitions whose name or slug contains this')
      .option('--list-id <id>', 'what this list shows: shared, workspace and its own definitions')
      .option('--options', 'show option values instead of their number')
      .addHelpText(
        'after',
        examples([
          'ws props list contacts',
          'ws props list --options',
          'ws props list deal --term stage --json',
        ]),
      )
      .action((type: string | undefined, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, async () => (await verbs()).listVerb, {
          objectType: type,
          term: f.string('--term'),
          listId: f.string('--list-id'),
          options: f.boolean('--options'),
        });
      }),
  );

  verb(props, ['get <type> <property>'], (cmd) =>
    cmd
      .description('Show one property definition with its options (property: slug or id)')
      .option('--list-id <id>', 'look among what this list shows')
      .addHelpText(
        'after',
        examples(['ws props get contact lead_source', 'ws props get deal stage --json']),
      )
      .action((type: string, property: string, o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).getVerb, {
          objectType: type,
          property,
          listId: flags(o).string('--list-id'),
        }),
      ),
  );

  verb(props, ['create <type>'], (cmd) =>
    cmd
      .description(
        'Create a property definition (on a terminal, asks for a missing name and type); warns about similar names',
      )
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
      )
      .addHelpText(
        'after',
        examples([
          'ws props create contact --name "Lead source" --type select_str --option Web --option Referral',
          'ws props create deal --name "Renewal date" --type date --required',
        ]),
      )
      .action((type: string, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, async () => (await verbs()).createVerb, {
          objectType: type,
          name: f.string('--name'),
          type: f.string('--type'),
          slug: f.string('--slug'),
          required: f.boolean('--required'),
          icon: f.string('--icon'),
          listId: f.string('--list-id'),
          roleId: f.string('--role-id'),
          options: f.list('--option'),
        });
      }),
  );

  verb(props, ['update <type> <property>'], (cmd) =>
    cmd
      .description('Change a property definition (property: slug or id)')
      .option('--name <name>', 'new display name')
      .option('--icon <icon>', 'new icon')
      .option('--no-icon', 'clear the icon')
      .option('--required', 'records must carry a value')
      .option('--no-required', 'a value is optional')
      .option('--enable', 'show the property')
      .option('--disable', 'hide the property (its values are kept)')
      .option('--list-id <id>', 'move it to this list')
      .option('--no-list-id', 'make it workspace-global')
      .addHelpText(
        'after',
        examples([
          'ws props update contact lead_source --name Source --required',
          'ws props update contact lead_source --no-icon --disable',
        ]),
      )
      .action((type: string, property: string, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        f.exclusive('--enable', '--disable');
        return ctx.invoke(cmd, async () => (await verbs()).updateVerb, {
          objectType: type,
          property,
          name: f.string('--name'),
          icon: f.clearable('--icon'),
          required: f.toggle('--required'),
          enabled: f.boolean('--enable') ? true : f.boolean('--disable') ? false : undefined,
          listId: f.clearable('--list-id'),
        });
      }),
  );

  verb(props, ['delete <type> <property>', 'rm'], (cmd) =>
    cmd
      .description('Delete a property definition (asks first; --yes to skip)')
      .addHelpText(
        'after',
        examples([
          'ws props delete contact lead_source',
          'ws props delete contact lead_source --yes',
        ]),
      )
      .action((type: string, property: string, _o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).deleteVerb, { objectType: type, property }),
      ),
  );

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

    options
      .command('list <type> <property>')
      .alias('ls')
      .description('List the options of a select property, in their order')
      .addHelpText(
        'after',
        examples([
          'ws props options list contact lead_source',
          'ws props options list deal stage --json',
        ]),
      )
      .action((type: string, property: string, _o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).optionsListVerb, {
          objectType: type,
          property,
        }),
      );

    optionFieldFlags(
      options
        .command('add <type> <property> <value>')
        .description('Add an option to a select property')
        .option('--slug <slug>', 'slug (default: derived from the value)'),
      false,
    )
      .addHelpText(
        'after',
        examples([
          'ws props options add contact lead_source "Trade show" --color-scheme purple --group Events',
          'ws props options add deal stage Negotiation --sort-index 3',
        ]),
      )
      .action((type: string, property: string, value: string, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, async () => (await verbs()).optionsAddVerb, {
          objectType: type,
          property,
          value,
          slug: f.string('--slug'),
          ...optionFields(f),
        });
      });

    optionFieldFlags(
      options
        .command('update <type> <property> <option>')
        .description('Change an option (option: slug or id)')
        .option('--value <value>', 'new display value')
        .option('--slug <slug>', 'new slug')
        .option('--enable', 'offer the option again')
        .option('--disable', 'hide the option (records keep it)')
        .option('--list-id <id>', 'show the option on this list only')
        .option('--no-list-id', 'show the option on every list'),
      true,
    )
      .addHelpText(
        'after',
        examples([
          'ws props options update contact lead_source trade_show --value "Trade fair"',
          'ws props options update contact lead_source trade_show --no-color-scheme',
          'ws props options update contact lead_source trade_show --disable',
        ]),
      )
      .action((type: string, property: string, option: string, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        f.exclusive('--enable', '--disable');
        return ctx.invoke(cmd, async () => (await verbs()).optionsUpdateVerb, {
          objectType: type,
          property,
          option,
          value: f.string('--value'),
          slug: f.string('--slug'),
          ...optionFields(f),
          enabled: f.boolean('--enable') ? true : f.boolean('--disable') ? false : undefined,
          listId: f.clearable('--list-id'),
        });
      });

    options
      .command('remove <type> <property> <option>')
      .alias('rm')
      .description('Remove an option (asks first; --yes to skip)')
      .addHelpText(
        'after',
        examples([
          'ws props options remove contact lead_source trade_show',
          'ws props options remove contact lead_source trade_show --yes',
        ]),
      )
      .action((type: string, property: string, option: string, _o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).optionsRemoveVerb, {
          objectType: type,
          property,
          option,
        }),
      );
  });

  verb(props, ['export [types...]'], (cmd) =>
    cmd
      .description(
        "Write the workspace's own definitions and options as a schema file (YAML; JSON with --format json)",
      )
      .option('-o, --output <file>', 'write to this file (default: stdout)')
      .addHelpText(
        'after',
        examples([
          'ws props export -o schema.yaml',
          'ws props export contact deal --format json',
          'ws props export contact > contact.yaml',
        ]),
      )
      .action((types: string[], o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).exportVerb, {
          objectTypes: types,
          output: flags(o).string('--output'),
        }),
      ),
  );

  verb(props, ['diff'], (cmd) =>
    planFlags(
      cmd.description(
        'Show what applying a schema file would change; exit 0 when nothing, 1 when something',
      ),
      {
        file: 'the schema file (- for stdin)',
        prune: 'also plan deletes of what the file does not have',
      },
    )
      .addHelpText(
        'after',
        examples([
          'ws props diff -f schema.yaml',
          'ws props diff -f schema.yaml --prune --json',
          'ws props export --profile prod | ws props diff -f - --profile staging',
        ]),
      )
      .action((o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).diffVerb, diffOptions(flags(o))),
      ),
  );

  verb(props, ['apply'], (cmd) =>
    planFlags(cmd.description('Make the workspace match a schema file, and print what changed'), {
      file: 'the schema file (- for stdin)',
      dryRun: 'print the plan and change nothing',
      prune: 'delete what the file does not have (asks first; --yes to skip)',
    })
      .addHelpText(
        'after',
        examples([
          'ws props apply -f schema.yaml --dry-run',
          'ws props apply -f schema.yaml',
          'ws props apply -f schema.yaml --prune --yes',
        ]),
      )
      .action((o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).applyVerb, applyOptions(flags(o))),
      ),
  );

  settleVerbs(props);
  describeArguments(props, 'property', { value: "the option's display value" });
}
