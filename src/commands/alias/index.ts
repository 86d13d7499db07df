// `ws alias set|list|delete`: names for ws command lines, kept with the profiles and
// expanded before parsing (src/aliases.ts).
import { type Command, type CommandContext, settleVerbs } from '../../command.ts';
import { describeArguments } from '../common/args.ts';
import { nounOf } from '../common/verb-spec.ts';

const verbs = () => import('./verbs.ts');

export function register(program: Command, ctx: CommandContext): void {
  const { noun: alias, define } = nounOf(program, ctx, verbs, ['alias'], {
    description: 'Names for ws command lines: `ws NAME …` runs what NAME stands for',
    examples: [
      "ws alias set won 'records list deals --where stage=won --sort -amount'",
      'ws won --limit 5',
      'ws alias list',
    ],
  });

  define(['set <name> <expansion...>'], {
    description: 'Make NAME stand for a ws command line (without the leading ws)',
    flags: (cmd) => cmd.option('--clobber', 'replace an alias of the same name'),
    help: `
The expansion is split into words as a shell splits them: quote it whole, or give its words
after --. $1 … $9 take the words that follow the alias where it is used; the other words are
added at the end. NAME cannot be a ws command: a command always wins.`,
    examples: [
      "ws alias set won 'records list deals --where stage=won'",
      'ws alias set bigger \'records list deals --where "amount>=$1"\'   # ws bigger 50000',
      'ws alias set ls-contacts -- records list contacts --fields id,name',
    ],
    run: 'setVerb',
    options: ([name, ...words], f) => ({ name, words, clobber: f.boolean('--clobber') }),
  });

  define(['list', 'ls'], {
    description: 'List the aliases and what each stands for',
    examples: ['ws alias list', 'ws alias list --json'],
    run: 'listVerb',
  });

  define(['delete <name>', 'rm'], {
    description: 'Delete an alias',
    examples: ['ws alias delete won'],
    run: 'deleteVerb',
    options: ([name]) => ({ name }),
  });

  settleVerbs(alias);
  describeArguments(alias, undefined, {
    name: 'an alias name: one word, not a ws command',
    expansion: 'the ws command line it stands for, without the leading ws',
  });
}
