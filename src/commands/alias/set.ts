// ws alias set NAME EXPANSION…: save an alias, once its words are known to start a ws
// command line (a command of ws first, no shell operators), and never over a command.
import { ALIAS_NAME, expansionWords } from '../../aliases.ts';
import { ConflictError, UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { shellWord } from '../../util/shell.ts';
import { didYouMean } from '../../util/suggest.ts';
import { builtinWords } from './shared.ts';

export interface SetOptions {
  name: string;
  /** One quoted expansion, or its words given after --. */
  words: string[];
  clobber: boolean;
}

export async function run(opts: SetOptions, deps: Deps): Promise<void> {
  const { name } = opts;
  const builtins = builtinWords();
  if (builtins.includes(name))
    throw new UsageError(
      `"${name}" is a ws command: an alias of that name would never run (a command always wins).`,
      'Choose another name.',
    );
  if (!ALIAS_NAME.test(name))
    throw new UsageError(
      `"${name}" is not a valid alias name.`,
      'Use one word of letters, digits, ".", "_", ":" and "-" (up to 64 characters), starting with a letter or digit.',
    );
  // One argument is the expansion as typed (quoted); several are its words (after --).
  const expansion =
    opts.words.length === 1 ? opts.words[0]!.trim() : opts.words.map(shellWord).join(' ');
  const words = expansionWords(expansion);
  const first = words[0];
  if (first === 'ws')
    throw new UsageError(
      'Leave out the leading "ws": an alias stands for what follows it.',
      `E.g. ws alias set ${shellWord(name)} ${shellWord(words.slice(1).join(' ') || 'records list contacts')}`,
    );
  if (first === undefined || first === '' || first.startsWith('-') || !builtins.includes(first)) {
    throw new UsageError(
      `An alias stands for a ws command line, and ${first ? `"${first}" is not a ws command` : 'the expansion is empty'}.`,
      (first ? didYouMean(first, builtins) : undefined) ??
        `Start it with a command: ${builtins.filter((w) => w !== 'help').join(', ')}.`,
    );
  }
  const store = await deps.config();
  const had = store.aliases().get(name);
  if (had !== undefined && had !== expansion && !opts.clobber)
    throw new ConflictError(
      `The alias ${name} exists: it stands for \`ws ${had}\`.`,
      'Pass --clobber to replace it, or choose another name.',
    );
  await store.setAlias(name, expansion);
  deps.io.success(
    `${had === undefined ? 'Added' : had === expansion ? 'Kept' : 'Replaced'} alias ${name}: \`ws ${name}\` runs \`ws ${expansion}\`.`,
  );
}
