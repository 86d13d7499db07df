// What a noun's index.ts needs to register its verbs: commander for parsing, and a
// context that builds the dependencies and loads the verb's code only when it runs.
// Reading the flags into typed options is src/commands/common/flags.ts.
import type { Command } from 'commander';
import type { Deps } from './factory.ts';

export interface VerbModule<O> {
  run(opts: O, deps: Deps): Promise<void>;
}

export interface CommandContext {
  /**
   * Run a verb: `load` gives its module and `opts` is the typed options object parsed
   * from argv.
   *
   * Each noun's verbs load together from its `verbs.ts` when one of them runs, so the
   * command tree stays small and `ws --version` loads none of them; what is heavy
   * (conf, cli-table3, ora, @inquirer/prompts, yaml, csv-parse, the sandbox) is
   * imported where it is used. One chunk per noun rather than per verb: the bundle's
   * chunks are CommonJS files (scripts/build.mjs), each one more file to read and compile.
   */
  invoke<O>(cmd: Command, load: () => Promise<VerbModule<O>>, opts: O): Promise<void>;
}

export { Command, Option } from 'commander';

/** The verb word of the command line, for the root command whose argv names one noun. */
const wantedVerbs = new WeakMap<Command, string>();
/** The definitions verb() held back, by noun. */
const heldBack = new WeakMap<Command, (() => void)[]>();

/**
 * Tells the nouns registered under `root` which verb the command line names (the first
 * operand after the noun), so that only that verb's flags and help are defined; undefined
 * defines every verb (help, completion, or no verb given).
 */
export function setWantedVerb(root: Command, word: string | undefined): void {
  if (word === undefined) wantedVerbs.delete(root);
  else wantedVerbs.set(root, word);
}

/**
 * A verb of `noun`: `names` is its name with its arguments, then its aliases. `define` adds
 * its flags, help and action. When the command line names another verb of this noun, the
 * definition waits: a noun of twenty verbs defines one (records list: 3 ms of start-up).
 * The noun calls settleVerbs() once all its verbs are given.
 */
export function verb(
  noun: Command,
  names: readonly [string, ...string[]],
  define: (cmd: Command) => void,
): void {
  const make = () => {
    const cmd = noun.command(names[0]);
    for (const alias of names.slice(1)) cmd.alias(alias);
    define(cmd);
  };
  const wanted = noun.parent ? wantedVerbs.get(noun.parent) : undefined;
  if (wanted === undefined || names.some((n, i) => (i === 0 ? n.split(' ')[0] : n) === wanted))
    make();
  else {
    const held = heldBack.get(noun) ?? [];
    held.push(make);
    heldBack.set(noun, held);
  }
}

/**
 * Defines the verbs verb() held back when the command line's word named none of this noun's
 * verbs (a typo, or `help`): commander then suggests a close one, or shows them all.
 */
export function settleVerbs(noun: Command): void {
  const held = heldBack.get(noun);
  if (held === undefined) return;
  heldBack.delete(noun);
  const wanted = noun.parent ? wantedVerbs.get(noun.parent) : undefined;
  const named = noun.commands.some((c) => c.name() === wanted || c.aliases().includes(wanted!));
  if (!named) for (const make of held) make();
}
