// How a noun's index.ts declares its verbs: each verb's words, flags and help, and which of
// the noun's verbs (its verbs.ts, loaded when one runs) runs it with what options. The
// registration itself, and why only the verb the command line names is defined, is
// src/command.ts.
import { type Command, type CommandContext, type VerbModule, verb } from '../../command.ts';
import { examples } from '../../help.ts';
import { type Flags, flags, type OptionValues } from './flags.ts';

type OptionsOf<V> = V extends VerbModule<infer O> ? O : never;

export interface VerbSpec<M, K extends keyof M> {
  description: string;
  /** Adds its flags (and any help that goes with one). */
  flags?: (cmd: Command) => Command;
  /** Notes shown after the flags, before the examples. */
  help?: string;
  examples?: readonly string[];
  /** The verb of the noun's verbs.ts that runs it. */
  run: K;
  /**
   * Its options, from the operands (a variadic operand's words spread in place:
   * `([type, ...ids], f)`; an optional one missing is undefined) and the flags.
   */
  options(operands: string[], f: Flags): OptionsOf<M[K]>;
}

/**
 * The verb-declaring function of `noun`, whose verbs `load` gives: `names` is a verb's name
 * with its arguments, then its aliases.
 */
export function verbsOf<M>(noun: Command, ctx: CommandContext, load: () => Promise<M>) {
  return <K extends keyof M>(names: readonly [string, ...string[]], spec: VerbSpec<M, K>) =>
    verb(noun, names, (cmd) => {
      cmd.description(spec.description);
      spec.flags?.(cmd);
      if (spec.help !== undefined) cmd.addHelpText('after', spec.help);
      if (spec.examples) cmd.addHelpText('after', examples(spec.examples));
      cmd.action((...args: unknown[]) => {
        const [o, self] = args.slice(-2) as [OptionValues, Command];
        const operands = args.slice(0, -2).flat() as string[];
        const module = async () => (await load())[spec.run] as VerbModule<OptionsOf<M[K]>>;
        return ctx.invoke(self, module, spec.options(operands, flags(o)));
      });
    });
}
