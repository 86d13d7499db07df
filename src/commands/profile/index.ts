// `ws profile …`: the flags of each verb, read into its options.
import type { Command, CommandContext } from '../../command.ts';
import { flags, type OptionValues } from '../common/flags.ts';

const verbs = () => import('./verbs.ts');

export function registerProfile(program: Command, ctx: CommandContext): void {
  const profile = program
    .command('profile')
    .description('Manage profiles: base URL, team id and API key of a workspace');

  profile
    .command('add <name>')
    .description('Add (or replace) a profile; the API key comes from stdin or a masked prompt')
    .option('--base-url <url>', 'base URL of the API')
    .option('--team-id <id>', 'team id (a UUID from the workspace settings)')
    .option('--with-key', 'read the API key from stdin')
    .option(
      '--rate-limit <n>',
      'requests per second this key may make (default 10; 0 for no limit)',
    )
    .option('--default', 'make it the default profile')
    .addHelpText(
      'after',
      '\nExample:\n  $ ws profile add prod --base-url https://api.example.com --team-id 8f1c…  --with-key < key.txt',
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
      });
    });

  profile
    .command('list')
    .alias('ls')
    .description('List profiles (keys shown as their last four characters)')
    .action((_o: OptionValues, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).listVerb, {}),
    );

  profile
    .command('use <name>')
    .description('Make a profile the default')
    .action((name: string, _o: OptionValues, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).useVerb, { name }),
    );

  profile
    .command('show [name]')
    .description('Show a profile (default: the one in use)')
    .action((name: string | undefined, _o: OptionValues, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).showVerb, { name }),
    );

  profile
    .command('remove <name>')
    .alias('rm')
    .description('Remove a profile (asks first; --yes to skip)')
    .action((name: string, _o: OptionValues, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).removeVerb, { name }),
    );
}
