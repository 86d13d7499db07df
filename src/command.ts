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
   * (undici, conf, cli-table3, ora, @inquirer/prompts, yaml, csv-parse, the sandbox) is
   * imported where it is used. One chunk per noun rather than per verb: every chunk is
   * one more file for Node's ESM loader to read, compile and link (bench/startup.mjs).
   */
  invoke<O>(cmd: Command, load: () => Promise<VerbModule<O>>, opts: O): Promise<void>;
}

export { Command, Option } from 'commander';
