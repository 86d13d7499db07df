// `ws automations get TYPE AUTOMATION`: one automation, its conditions and actions one line
// each, written as the flags that make it.
import type { Deps } from '../../factory.ts';
import { automationType, printAutomation, resolveAutomation } from './shared.ts';

export interface GetOptions {
  type: string;
  /** An automation id, or its name. */
  automation: string;
}

export async function run(opts: GetOptions, deps: Deps): Promise<void> {
  const type = automationType(opts.type);
  const client = await deps.client();
  const automation = await resolveAutomation(deps, client, type, opts.automation);
  await printAutomation(deps, automation);
}
