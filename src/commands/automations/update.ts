// `ws automations update TYPE AUTOMATION …`: read the automation, change what the flags
// say, check it, and write it whole (the API replaces an automation with PUT).
import { replaceAutomation } from '../../api/automations.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { shellWord } from '../../util/shell.ts';
import { draftFrom, givesFields } from './create.ts';
import type { DraftFlags } from './draft-flags.ts';
import { automationType, compileFlags, printAutomation, resolveAutomation } from './shared.ts';

export interface UpdateOptions extends DraftFlags {
  type: string;
  automation: string;
  file: string | undefined;
}

export async function run(opts: UpdateOptions, deps: Deps): Promise<void> {
  const type = automationType(opts.type);
  if (opts.file === undefined && !givesFields(opts)) {
    throw new UsageError(
      'Nothing to change: give what to change (--name, --on-change, --where, --webhook, --wait, …).',
      `See \`ws automations update --help\`; \`ws automations get ${type} ${shellWord(opts.automation)}\` shows it as it is.`,
    );
  }
  const client = await deps.client();
  const current = await resolveAutomation(deps, client, type, opts.automation);
  const draft = await draftFrom(deps, opts);
  const body = await compileFlags(deps, draft, type, current);
  const updated = await replaceAutomation(client, type, current.id, body, { signal: deps.signal });
  deps.io.success(`Updated ${type} automation "${updated.name}" (${updated.id}).`);
  await printAutomation(deps, updated);
}
