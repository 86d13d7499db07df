// `ws alias set|list|delete`: names for ws command lines, kept with the profiles and
// expanded before parsing (src/aliases.ts).
import { type Command, type CommandContext, settleVerbs, verb } from '../../command.ts';
import { examples } from '../../help.ts';
import { describeArguments } from '../common/args.ts';
import { flags, type OptionValues } from '../common/flags.ts';

const verbs = () => import('./verbs.ts');

export function register(program: Command, ctx: CommandContext): void {
  const alias = program
    .command('alias')
    .description('Names for ws command lines: `ws NAME …` runs what NAME stands for')
    .addHelpText(
      'after',
      examples([
        "ws alias set won 'records list deals --where stage=won --sort -amount'",
        'ws won --limit 5',
        'ws alias list',
      ]),
    );

  verb(alias, ['set <name> <expansion...>'], (cmd) =>
    cmd
      .description('Make NAME stand for a ws command line (without the leading ws)')
      .option('--clobber', 'replace an alias of the same name')
      .addHelpText(
        'after',
        `
The expansion is split into words as a shell splits them: quote it whole, or give its words
after --. $1 … $9 take the words that follow the alias where it is used; the other words are
added at the end. NAME cannot be a ws command: a command always wins.`,
      )
      .addHelpText(
        'after',
        examples([
          "ws alias set won 'records list deals --where stage=won'",
          'ws alias set bigger \'records list deals --where "amount>=$1"\'   # ws bigger 50000',
          'ws alias set ls-contacts -- records list contacts --fields id,name',
        ]),
      )
      .action((name: string, words: string[], o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).setVerb, {
          name,
          words,
          clobber: flags(o).boolean('--clobber'),
        }),
      ),
  );

  verb(alias, ['list', 'ls'], (cmd) =>
    cmd
      .description('List the aliases and what each stands for')
      .addHelpText('after', examples(['ws alias list', 'ws alias list --json']))
      .action((_o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).listVerb, {}),
      ),
  );

  verb(alias, ['delete <name>', 'rm'], (cmd) =>
    cmd
      .description('Delete an alias')
      .addHelpText('after', examples(['ws alias delete won']))
      .action((name: string, _o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).deleteVerb, { name }),
      ),
  );

  settleVerbs(alias);
  describeArguments(alias, undefined, {
    name: 'an alias name: one word, not a ws command',
    expansion: 'the ws command line it stands for, without the leading ws',
  });
}
