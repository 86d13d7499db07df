// `ws profile …`: the flags of each verb, read into its options.
import { type Command, type CommandContext, settleVerbs } from '../../command.ts';
import { describeArguments } from '../common/args.ts';
import { nounOf } from '../common/verb-spec.ts';

const verbs = () => import('./verbs.ts');

export function register(program: Command, ctx: CommandContext): void {
  const { noun: profile, define } = nounOf(program, ctx, verbs, ['profile'], {
    description: 'Manage profiles: base URL, team id and API key of a workspace',
    examples: ['ws profile list', 'ws profile use prod'],
  });

  define(['add <name>'], {
    description:
      'Add (or replace) a profile, checking its key with one request; the key comes from stdin or a masked prompt',
    flags: (cmd) =>
      cmd
        .option('--base-url <url>', 'base URL of the API')
        .option('--team-id <id>', 'team id (a UUID from the workspace settings)')
        .option('--with-key', 'read the API key from stdin')
        .option(
          '--rate-limit <n>',
          'requests per second this key may make (default 10; 0 for no limit)',
        )
        .option('--default', 'make it the default profile')
        .option('--no-verify', 'save it without checking the key (one request) first'),
    examples: [
      'ws profile add prod --base-url https://api.example.com --team-id 8f1c…  --with-key < key.txt',
      'ws profile add staging   # on a terminal: asks for the base URL, team id and key',
    ],
    run: 'addVerb',
    options: ([name], f) => ({
      name,
      baseUrl: f.string('--base-url'),
      teamId: f.string('--team-id'),
      withKey: f.boolean('--with-key'),
      rateLimit: f.integer('--rate-limit', 0, 10_000),
      makeDefault: f.boolean('--default'),
      verify: f.toggle('--verify') !== false,
    }),
  });

  define(['list', 'ls'], {
    description: 'List profiles (keys shown as their last four characters)',
    examples: ['ws profile list', 'ws profile list --json'],
    run: 'listVerb',
  });

  define(['use <name>'], {
    description: 'Make a profile the default',
    examples: ['ws profile use prod'],
    run: 'useVerb',
    options: ([name]) => ({ name }),
  });

  define(['show [name]'], {
    description: 'Show a profile (default: the one in use)',
    examples: ['ws profile show', 'ws profile show prod --json'],
    run: 'showVerb',
    options: ([name]: (string | undefined)[]) => ({ name }),
  });

  define(['remove <name>', 'rm'], {
    description: 'Remove a profile (asks first; --yes to skip)',
    examples: ['ws profile remove staging', 'ws profile remove staging --yes'],
    run: 'removeVerb',
    options: ([name]) => ({ name }),
  });

  settleVerbs(profile);
  describeArguments(profile, undefined, { name: 'a profile name' });
}
