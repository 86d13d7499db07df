// `ws automations delete TYPE AUTOMATION`: asks on a terminal; --yes elsewhere.
import { deleteAutomation } from '../../api/automations.ts';
import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { type AutomationRef, namedAutomation } from './shared.ts';

export async function run(opts: AutomationRef, deps: Deps): Promise<void> {
  const { type, client, automation: a } = await namedAutomation(deps, opts);
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
