// ws completion SHELL: print the completion script of a shell (src/completion.ts).
import { completionScript, type Shell } from '../../completion.ts';
import type { Deps } from '../../factory.ts';

export interface CompletionOptions {
  shell: Shell;
}

export async function run(opts: CompletionOptions, deps: Deps): Promise<void> {
  deps.io.write(completionScript(opts.shell));
}
