// `ws completion SHELL`.
import type { Command, CommandContext } from '../../command.ts';
import { SHELLS, type Shell } from '../../completion.ts';
import { UsageError } from '../../errors.ts';
import { examples } from '../../help.ts';
import type { OptionValues } from '../common/flags.ts';

const verbs = () => import('./verbs.ts');

export function registerCompletion(program: Command, ctx: CommandContext): void {
  program
    .command('completion <shell>')
    .description(`Print the shell completion script (${SHELLS.join(', ')})`)
    .addHelpText(
      'after',
      examples([
        'ws completion bash > ~/.local/share/bash-completion/completions/ws',
        'ws completion zsh > "${fpath[1]}/_ws"',
        'ws completion fish > ~/.config/fish/completions/ws.fish',
      ]),
    )
    .action((shell: string, _o: OptionValues, cmd: Command) => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new UsageError(`No completion for "${shell}".`, `Shells: ${SHELLS.join(', ')}.`);
      }
      return ctx.invoke(cmd, async () => (await verbs()).completionVerb, {
        shell: shell as Shell,
        program,
      });
    });
}
