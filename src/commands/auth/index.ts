// `ws auth status` and `ws whoami`.
import type { Command, CommandContext } from '../../command.ts';
import { examples } from '../../help.ts';
import type { OptionValues } from '../common/flags.ts';

const verbs = () => import('./verbs.ts');

export function register(program: Command, ctx: CommandContext): void {
  const auth = program
    .command('auth')
    .description('Check authentication')
    .addHelpText('after', examples(['ws auth status']));
  auth
    .command('status')
    .description(
      'Check the API key with one request and show the profile, base URL, team id and key in use',
    )
    .addHelpText(
      'after',
      examples([
        'ws auth status',
        'ws auth status --profile prod --json',
        'WS_API_KEY=… ws auth status',
      ]),
    )
    .action((_o: OptionValues, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).statusVerb, {}),
    );
  program
    .command('whoami')
    .description('Same as `ws auth status`')
    .addHelpText('after', examples(['ws whoami', 'ws whoami --json']))
    .action((_o: OptionValues, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).statusVerb, {}),
    );
}
