// Aliases (`ws alias set NAME 'records list deals --where stage=won'`): a word that stands
// for the start of a ws command line, kept with the profiles. main() expands one before
// anything is parsed, as gh does: when the first word of the command line (after global
// flags) is not one of ws's commands and names an alias, it is replaced by the alias's
// words, `$1`…`$9` in them filled by the words that follow it (the rest appended). A
// built-in command always wins: an alias cannot be set to a command's name, and one that a
// later ws gives a command of its own is no longer expanded. The words of an expansion are
// split as a POSIX shell splits them (quotes, backslashes), by shell-quote.
import { parse } from 'shell-quote';
import { UsageError } from './errors.ts';

/** An alias's name: one word, not a flag. */
export const ALIAS_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** `$1` … `$9`: the words after the alias's name, in order. */
const PLACEHOLDER = /\$(\d)/g;

/**
 * The words of an expansion, split as a shell splits them, without expanding anything;
 * a shell operator (a pipe, a redirection, `;`, `&&`) or a comment is a usage error: an
 * alias stands for ws's own arguments.
 */
export function expansionWords(expansion: string): string[] {
  const words: string[] = [];
  for (const entry of parse(expansion, (name) => `$${name}`)) {
    if (typeof entry === 'string') {
      words.push(entry);
      continue;
    }
    const what = 'op' in entry ? `the shell operator ${entry.op}` : 'a shell comment or pattern';
    throw new UsageError(
      `The alias's expansion holds ${what}: an alias stands for the arguments of one ws command.`,
      'Write the arguments alone (e.g. `records list deals --where stage=won`); pipe the alias where you run it.',
    );
  }
  return words;
}

/**
 * The command line with the alias at `at` replaced by its words: each `$N` is the Nth word
 * after the alias (all of them must be given), the words no placeholder took follow.
 */
export function expandAlias(
  argv: readonly string[],
  at: number,
  name: string,
  expansion: string,
): string[] {
  const words = expansionWords(expansion);
  const after = argv.slice(at + 1);
  const used = new Set<number>();
  let highest = 0;
  const filled = words.map((word) =>
    word.replace(PLACEHOLDER, (_all, digit: string) => {
      const n = Number(digit);
      highest = Math.max(highest, n);
      used.add(n);
      return after[n - 1] ?? '';
    }),
  );
  if (highest > after.length) {
    throw new UsageError(
      `The alias ${name} takes ${highest} argument${highest === 1 ? '' : 's'} ($1${highest > 1 ? `…$${highest}` : ''}); ${after.length === 0 ? 'none was' : `${after.length} ${after.length === 1 ? 'was' : 'were'}`} given.`,
      `It stands for: ws ${expansion}`,
    );
  }
  const rest = after.filter((_w, i) => !used.has(i + 1));
  return [...argv.slice(0, at), ...filled, ...rest];
}
