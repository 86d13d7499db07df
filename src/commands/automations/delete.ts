// `ws automations delete TYPE AUTOMATION`: asks on a terminal; --yes elsewhere.
import { deleteAutomation } from '../../api/automations.ts';
import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { automationType, resolveAutomation } from './shared.ts';

export interface DeleteOptions {
  type: string;
  automation: string;
}

export async function run(opts: DeleteOptions, deps: Deps): Promise<void> {
  const type = automationType(opts.type);
  const client = await deps.client();
  const a = await resolveAutomation(deps, client, type, opts.automation);
  const label = `"${a.name}" (${a.id})`;
  await confirmOrRefuse(
    deps.io,
    deps.prompter,
    `Delete ${type} automation ${label}? Runs under way are cancelled.`,
    `Not deleting ${type} automation ${label} without confirmation.`,
  );
  await deleteAutomation(client, type, a.id, { signal: deps.signal });
  deps.io.success(`Deleted ${type} automation ${label}.`);
  if (deps.format === 'json' || deps.format === 'ndjson')
    deps.io.println(JSON.stringify({ deleted: a.id }));
}
