// `ws version`: the version as a verb, as gh and the Stripe CLI have it (`ws --version` too).
import type { Command, CommandContext } from '../../command.ts';
import { examples } from '../../help.ts';
import type { OptionValues } from '../common/flags.ts';

export function register(program: Command, ctx: CommandContext): void {
  program
    .command('version')
    .description("Print ws's version (same as `ws --version`)")
    .addHelpText('after', examples(['ws version', 'ws version --json']))
    .action((_o: OptionValues, cmd: Command) =>
      ctx.invoke(cmd, async () => import('./version.ts'), {}),
    );
}
