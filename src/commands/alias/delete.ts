// ws alias delete NAME: remove an alias (one that does not exist is exit 4, naming those
// that do).
import { NotFoundError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';

export interface DeleteOptions {
  name: string;
}

export async function run(opts: DeleteOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const expansion = store.aliases().get(opts.name);
  if (expansion === undefined || !(await store.removeAlias(opts.name))) {
    const names = [...store.aliases().keys()].sort();
    throw new NotFoundError(
      `No alias named "${opts.name}".`,
      names.length > 0 ? `Aliases: ${names.join(', ')}.` : 'There are no aliases.',
    );
  }
  deps.io.success(`Deleted alias ${opts.name} (it stood for \`ws ${expansion}\`).`);
}
