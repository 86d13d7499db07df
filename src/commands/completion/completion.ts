import type { Command } from 'commander';
import { completionScript, type Shell } from '../../completion.ts';
import type { Deps } from '../../factory.ts';

export interface CompletionOptions {
  shell: Shell;
  program: Command;
}

export async function run(opts: CompletionOptions, deps: Deps): Promise<void> {
  deps.io.write(completionScript(opts.program, opts.shell));
}
