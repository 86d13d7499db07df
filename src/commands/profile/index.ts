import { type Command, type CommandContext, intFlag } from '../../command.ts';

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
    .action((name: string, o: Record<string, string | boolean | undefined>, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).addVerb, {
        name,
        baseUrl: o.baseUrl as string | undefined,
        teamId: o.teamId as string | undefined,
        withKey: o.withKey === true,
        rateLimit: intFlag('--rate-limit', o.rateLimit as string | undefined, 0, 10_000),
        makeDefault: o.default === true,
      }),
    );

  profile
    .command('list')
    .alias('ls')
    .description('List profiles (keys shown as their last four characters)')
    .action((_o: unknown, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).listVerb, {}),
    );

  profile
    .command('use <name>')
    .description('Make a profile the default')
    .action((name: string, _o: unknown, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).useVerb, { name }),
    );

  profile
    .command('show [name]')
    .description('Show a profile (default: the one in use)')
    .action((name: string | undefined, _o: unknown, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).showVerb, { name }),
    );

  profile
    .command('remove <name>')
    .alias('rm')
    .description('Remove a profile (asks first; --yes to skip)')
    .action((name: string, _o: unknown, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).removeVerb, { name }),
    );
}
