// `ws automations diff -f FILE [--prune]`: what apply would change. Exit 0 when nothing,
// 1 when something, above 1 on error (as `kubectl diff`).
import { hasChanges, tally } from '../../automations-as-code/plan.ts';
import type { Deps } from '../../factory.ts';
import { differencesFound, noDifferences } from '../common/differences.ts';
import type { DiffOptions } from '../common/plan-flags.ts';
import { planFor, printPlan } from './code.ts';

export async function run(opts: DiffOptions, deps: Deps): Promise<void> {
  const plan = await planFor(deps, opts.file, opts.prune);
  printPlan(deps, plan);
  if (!hasChanges(plan)) {
    noDifferences(deps, plan.file);
    return;
  }
  const n = tally(plan.steps);
  differencesFound(
    deps,
    `The workspace differs from ${plan.file}: ${n.create} to create, ${n.update} to update${plan.prune ? `, ${n.delete} to delete` : ''}.`,
    `ws automations apply -f ${opts.file}${plan.prune ? ' --prune' : ''}`,
  );
}
