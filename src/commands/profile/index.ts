// `ws profile …`: the flags of each verb, read into its options.
import { type Command, type CommandContext, settleVerbs, verb } from '../../command.ts';
import { examples } from '../../help.ts';
import { describeArguments } from '../common/args.ts';
import { flags, type OptionValues } from '../common/flags.ts';

const verbs = () => import('./verbs.ts');

export function register(program: Command, ctx: CommandContext): void {
  const profile = program
    .command('profile')
    .description('Manage profiles: base URL, team id and API key of a workspace')
    .addHelpText('after', examples(['ws profile list', 'ws profile use prod']));

  verb(profile, ['add <name>'], (cmd) =>
    cmd
      .description(
        'Add (or replace) a profile, checking its key with one request; the key comes from stdin or a masked prompt',
      )
      .option('--base-url <url>', 'base URL of the API')
      .option('--team-id <id>', 'team id (a UUID from the workspace settings)')
      .option('--with-key', 'read the API key from stdin')
      .option(
        '--rate-limit <n>',
        'requests per second this key may make (default 10; 0 for no limit)',
      )
      .option('--default', 'make it the default profile')
      .option('--no-verify', 'save it without checking the key (one request) first')
      .addHelpText(
        'after',
        examples([
          'ws profile add prod --base-url https://api.example.com --team-id 8f1c…  --with-key < key.txt',
          'ws profile add staging   # on a terminal: asks for the base URL, team id and key',
        ]),
      )
      .action((name: string, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, async () => (await verbs()).addVerb, {
          name,
          baseUrl: f.string('--base-url'),
          teamId: f.string('--team-id'),
          withKey: f.boolean('--with-key'),
          rateLimit: f.integer('--rate-limit', 0, 10_000),
          makeDefault: f.boolean('--default'),
          verify: f.toggle('--verify') !== false,
        });
      }),
  );

  verb(profile, ['list', 'ls'], (cmd) =>
    cmd
      .description('List profiles (keys shown as their last four characters)')
      .addHelpText('after', examples(['ws profile list', 'ws profile list --json']))
      .action((_o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).listVerb, {}),
      ),
  );

  verb(profile, ['use <name>'], (cmd) =>
    cmd
      .description('Make a profile the default')
      .addHelpText('after', examples(['ws profile use prod']))
      .action((name: string, _o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).useVerb, { name }),
      ),
  );

  verb(profile, ['show [name]'], (cmd) =>
    cmd
      .description('Show a profile (default: the one in use)')
      .addHelpText('after', examples(['ws profile show', 'ws profile show prod --json']))
      .action((name: string | undefined, _o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).showVerb, { name }),
      ),
  );

  verb(profile, ['remove <name>', 'rm'], (cmd) =>
    cmd
      .description('Remove a profile (asks first; --yes to skip)')
      .addHelpText(
        'after',
        examples(['ws profile remove staging', 'ws profile remove staging --yes']),
      )
      .action((name: string, _o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).removeVerb, { name }),
      ),
  );

  settleVerbs(profile);
  describeArguments(profile, undefined, { name: 'a profile name' });
}
