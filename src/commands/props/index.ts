import { type Command, type CommandContext, collect } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import type { OptionFields } from './shared.ts';

const verbs = () => import('./verbs.ts');

type Flags = Record<string, string | boolean | string[] | undefined>;

/** A flag with a `--no-` twin: a string sets it, false clears it (null), absent leaves it. */
function clearable(value: unknown): string | null | undefined {
  if (value === false) return null;
  return typeof value === 'string' ? value : undefined;
}

function sortIndex(value: unknown): number | null | undefined {
  if (value === false) return null;
  if (typeof value !== 'string') return undefined;
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

function optionFields(o: Flags): OptionFields {
  return {
    color: clearable(o.colorScheme),
    description: clearable(o.description),
    icon: clearable(o.icon),
    group: clearable(o.group),
    sortIndex: sortIndex(o.sortIndex),
  };
}

export function registerProps(program: Command, ctx: CommandContext): void {
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

  props
    .command('list [type]')
    .alias('ls')
    .description(
      'List property definitions of one object type, or of all (the API is asked each time)',
    )
    .option('--term <text>', 'only definitions whose name or slug contains this')
    .option('--list-id <id>', 'what this list shows: shared, workspace and its own definitions')
    .option('--options', 'show option values instead of their number')
    .action((type: string | undefined, o: Flags, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).listVerb, {
        objectType: type,
        term: o.term as string | undefined,
        listId: o.listId as string | undefined,
        options: o.options === true,
      }),
    );

  props
    .command('get <type> <property>')
    .description('Show one property definition with its options (property: slug or id)')
    .option('--list-id <id>', 'look among what this list shows')
    .action((type: string, property: string, o: Flags, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).getVerb, {
        objectType: type,
        property,
        listId: o.listId as string | undefined,
      }),
    );

  props
    .command('create <type>')
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
    .action((type: string, o: Flags, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).createVerb, {
        objectType: type,
        name: o.name as string | undefined,
        type: o.type as string | undefined,
        slug: o.slug as string | undefined,
        required: o.required === true,
        icon: o.icon as string | undefined,
        listId: o.listId as string | undefined,
        roleId: o.roleId as string | undefined,
        options: o.option as string[],
      }),
    );

  props
    .command('update <type> <property>')
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
    .action((type: string, property: string, o: Flags, cmd: Command) => {
      if (o.enable === true && o.disable === true)
        throw new UsageError('--enable and --disable cannot be used together.');
      return ctx.invoke(cmd, async () => (await verbs()).updateVerb, {
        objectType: type,
        property,
        name: o.name as string | undefined,
        icon: clearable(o.icon),
        required: typeof o.required === 'boolean' ? o.required : undefined,
        enabled: o.enable === true ? true : o.disable === true ? false : undefined,
        listId: clearable(o.listId),
      });
    });

  props
    .command('delete <type> <property>')
    .alias('rm')
    .description('Delete a property definition (asks first; --yes to skip)')
    .action((type: string, property: string, _o: Flags, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).deleteVerb, { objectType: type, property }),
    );

  const options = props
    .command('options')
    .description('Options of select_str and multiselect_str properties');

  options
    .command('list <type> <property>')
    .alias('ls')
    .description('List the options of a select property, in their order')
    .action((type: string, property: string, _o: Flags, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).optionsListVerb, { objectType: type, property }),
    );

  optionFieldFlags(
    options
      .command('add <type> <property> <value>')
      .description('Add an option to a select property')
      .option('--slug <slug>', 'slug (default: derived from the value)'),
    false,
  ).action((type: string, property: string, value: string, o: Flags, cmd: Command) =>
    ctx.invoke(cmd, async () => (await verbs()).optionsAddVerb, {
      objectType: type,
      property,
      value,
      slug: o.slug as string | undefined,
      ...optionFields(o),
    }),
  );

  optionFieldFlags(
    options
      .command('update <type> <property> <option>')
      .description('Change an option (option: slug or id)')
      .option('--value <value>', 'new display value')
      .option('--slug <slug>', 'new slug'),
    true,
  ).action((type: string, property: string, option: string, o: Flags, cmd: Command) =>
    ctx.invoke(cmd, async () => (await verbs()).optionsUpdateVerb, {
      objectType: type,
      property,
      option,
      value: o.value as string | undefined,
      slug: o.slug as string | undefined,
      ...optionFields(o),
    }),
  );

  options
    .command('remove <type> <property> <option>')
    .alias('rm')
    .description('Remove an option (asks first; --yes to skip)')
    .action((type: string, property: string, option: string, _o: Flags, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).optionsRemoveVerb, {
        objectType: type,
        property,
        option,
      }),
    );

  props
    .command('export [types...]')
    .description(
      "Write the workspace's own definitions and options as a schema file (YAML; JSON with --format json)",
    )
    .option('-o, --output <file>', 'write to this file (default: stdout)')
    .action((types: string[], o: Flags, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).exportVerb, {
        objectTypes: types,
        output: o.output as string | undefined,
      }),
    );

  props
    .command('diff')
    .description(
      'Show what applying a schema file would change; exit 0 when nothing, 1 when something',
    )
    .requiredOption('-f, --file <file>', 'the schema file (- for stdin)')
    .option('--prune', 'also plan deletes of what the file does not have')
    .action((o: Flags, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).diffVerb, {
        file: o.file as string,
        prune: o.prune === true,
      }),
    );

  props
    .command('apply')
    .description('Make the workspace match a schema file, and print what changed')
    .requiredOption('-f, --file <file>', 'the schema file (- for stdin)')
    .option('--dry-run', 'print the plan and change nothing')
    .option('--prune', 'delete what the file does not have (asks first; --yes to skip)')
    .action((o: Flags, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).applyVerb, {
        file: o.file as string,
        dryRun: o.dryRun === true,
        prune: o.prune === true,
      }),
    );
}
