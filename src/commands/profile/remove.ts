import { noSuchProfile } from '../../config/resolve.ts';
import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { shellWord } from '../../util/shell.ts';

export interface RemoveOptions {
  name: string;
}

export async function run(opts: RemoveOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  if (!store.get(opts.name)) throw noSuchProfile(opts.name, store.names());
  await confirmOrRefuse(
    deps.io,
    deps.prompter,
    `Remove profile "${opts.name}" and its API key?`,
    `Not removing profile "${opts.name}" without confirmation.`,
  );
  const wasDefault = store.defaultName() === opts.name;
  await store.remove(opts.name);
  deps.io.success(`Removed profile "${opts.name}".`);
  if (wasDefault) {
    const left = store.names();
    deps.io.info(
      left.length > 0
        ? `There is no default profile now; pick one with \`ws profile use ${shellWord(left[0]!)}\`.`
        : 'There are no profiles left.',
    );
  }
  if (deps.format === 'json' || deps.format === 'ndjson')
    deps.io.println(JSON.stringify({ removed: opts.name }));
}
