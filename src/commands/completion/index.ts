// `ws completion SHELL`: print the script that makes a shell complete ws's commands and values.
import type { Command, CommandContext } from '../../command.ts';
import { SHELLS, type Shell } from '../../completion.ts';
import { UsageError } from '../../errors.ts';
import { examples } from '../../help.ts';
import type { OptionValues } from '../common/flags.ts';

const verbs = () => import('./verbs.ts');

export function register(program: Command, ctx: CommandContext): void {
  program
    .command('completion <shell>')
    .description(`Print the shell completion script (${SHELLS.join(', ')})`)
    .addHelpText(
      'after',
      `
Each Tab asks \`ws __complete\` what to offer: commands, flags, flag values (--format,
--profile, property slugs for --fields, --select, --sort and --where), object types,
properties, options, views and profiles. Values come from local files only (the profiles
and the definitions cache, filled by earlier commands); nothing is sent.`,
    )
    .addHelpText(
      'after',
      examples([
        'source <(ws completion bash)                 # bash, this shell; add it to ~/.bashrc',
        'mkdir -p ~/.local/share/bash-completion/completions && ws completion bash > ~/.local/share/bash-completion/completions/ws',
        'source <(ws completion zsh)                  # zsh, after compinit; add it to ~/.zshrc',
        'mkdir -p ~/.config/fish/completions && ws completion fish > ~/.config/fish/completions/ws.fish',
      ]),
    )
    .action((shell: string, _o: OptionValues, cmd: Command) => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new UsageError(`No completion for "${shell}".`, `Shells: ${SHELLS.join(', ')}.`);
      }
      return ctx.invoke(cmd, async () => (await verbs()).completionVerb, {
        shell: shell as Shell,
      });
    });
}
