// `ws automations get TYPE AUTOMATION`: one automation, its conditions and actions one line
// each, written as the flags that make it.
import type { Deps } from '../../factory.ts';
import { type AutomationRef, namedAutomation, printAutomation } from './shared.ts';

export async function run(opts: AutomationRef, deps: Deps): Promise<void> {
  const { automation } = await namedAutomation(deps, opts);
  await printAutomation(deps, automation);
}
