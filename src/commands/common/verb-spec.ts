// How a noun's index.ts declares itself and its verbs: each one's words, flags and help, and
// which of the noun's verbs (its verbs.ts, loaded when one runs) runs a verb with what
// options. The registration itself, and why only the verb the command line names is
// defined, is src/command.ts.
import { type Command, type CommandContext, type VerbModule, verb } from '../../command.ts';
import { examples } from '../../help.ts';
import { type Flags, flags, type OptionValues } from './flags.ts';

type OptionsOf<V> = V extends VerbModule<infer O> ? O : never;

/** What a noun or a verb says of itself in its help. */
interface Words {
  description: string;
  /** Adds its flags, and arguments described apart (`cmd.argument(…)`). */
  flags?: (cmd: Command) => Command;
  /** Notes shown after the flags, before the examples. */
  help?: string;
  examples?: readonly string[];
}

function describe(cmd: Command, words: Words): Command {
  cmd.description(words.description);
  words.flags?.(cmd);
  if (words.help !== undefined) cmd.addHelpText('after', words.help);
  if (words.examples) cmd.addHelpText('after', examples(words.examples));
  return cmd;
}

/**
 * Its options, from the operands (a variadic operand's words spread in place:
 * `([type, ...ids], f)`; an optional one missing is undefined), the flags, and the command
 * itself (for the flags of the commands above it: `cmd.optsWithGlobals()`).
 */
type ReadOptions<O> = (operands: string[], f: Flags, cmd: Command) => O;

export type VerbSpec<M, K extends keyof M> = Words & {
  /** The verb of the noun's verbs.ts that runs it. */
  run: K;
} & (Record<never, never> extends OptionsOf<M[K]> // an empty object will do
    ? { options?: ReadOptions<OptionsOf<M[K]>> }
    : { options: ReadOptions<OptionsOf<M[K]>> });

/**
 * The verb-declaring function of `noun`, whose verbs `load` gives: `names` is a verb's name
 * with its arguments, then its aliases.
 */
export function verbsOf<M>(noun: Command, ctx: CommandContext, load: () => Promise<M>) {
  return <K extends keyof M>(names: readonly [string, ...string[]], spec: VerbSpec<M, K>) =>
    verb(noun, names, (cmd) => {
      describe(cmd, spec).action((...args: unknown[]) => {
        const [o, self] = args.slice(-2) as [OptionValues, Command];
        const operands = args.slice(0, -2).flat() as string[];
        const module = async () => (await load())[spec.run] as VerbModule<OptionsOf<M[K]>>;
        const options = spec.options?.(operands, flags(o), self) ?? ({} as OptionsOf<M[K]>);
        return ctx.invoke(self, module, options);
      });
    });
}

/**
 * A noun of the root, `names` its name then its aliases, and the function that declares its
 * verbs (verbsOf). The noun calls settleVerbs() once all its verbs are declared.
 */
export function nounOf<M>(
  program: Command,
  ctx: CommandContext,
  load: () => Promise<M>,
  names: readonly [string, ...string[]],
  words: Words,
) {
  const noun = program.command(names[0]);
  for (const alias of names.slice(1)) noun.alias(alias);
  describe(noun, words);
  return { noun, define: verbsOf(noun, ctx, load) };
}
