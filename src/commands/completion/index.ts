// `ws completion SHELL`: print the script that makes a shell complete ws's commands and values.
import type { Command, CommandContext } from '../../command.ts';
import { SHELLS, type Shell } from '../../completion.ts';
import { UsageError } from '../../errors.ts';
import { verbsOf } from '../common/verb-spec.ts';

const verbs = () => import('./verbs.ts');

export function register(program: Command, ctx: CommandContext): void {
  const define = verbsOf(program, ctx, verbs);
  define(['completion <shell>'], {
    description: `Print the shell completion script (${SHELLS.join(', ')})`,
    help: `
Each Tab asks \`ws __complete\` what to offer: commands, flags, flag values (--format,
--profile, property slugs for --fields, --select, --sort and --where), object types,
properties, options, views and profiles. Values come from local files only (the profiles
and the definitions cache, filled by earlier commands); nothing is sent.`,
    examples: [
      'source <(ws completion bash)                 # bash, this shell; add it to ~/.bashrc',
      'mkdir -p ~/.local/share/bash-completion/completions && ws completion bash > ~/.local/share/bash-completion/completions/ws',
      'source <(ws completion zsh)                  # zsh, after compinit; add it to ~/.zshrc',
      'mkdir -p ~/.config/fish/completions && ws completion fish > ~/.config/fish/completions/ws.fish',
    ],
    run: 'completionVerb',
    options: ([shell]) => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new UsageError(`No completion for "${shell}".`, `Shells: ${SHELLS.join(', ')}.`);
      }
      return { shell: shell as Shell };
    },
  });
}
