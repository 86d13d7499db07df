// `ws automations diff -f FILE [--prune]`: what apply would change. Exit 0 when nothing,
// 1 when something, above 1 on error (as `kubectl diff`).
import { hasChanges, tally } from '../../automation-code/plan.ts';
import { ExitCode, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { planFor, printPlan } from './code.ts';

export interface DiffOptions {
  file: string;
  prune: boolean;
}

export async function run(opts: DiffOptions, deps: Deps): Promise<void> {
  const plan = await planFor(deps, opts.file, opts.prune);
  printPlan(deps, plan);
  if (!hasChanges(plan)) {
    deps.io.info(`No differences: the workspace matches ${plan.file}.`);
    return;
  }
  const n = tally(plan.steps);
  const message = `The workspace differs from ${plan.file}: ${n.create} to create, ${n.update} to update${plan.prune ? `, ${n.delete} to delete` : ''}.`;
  deps.io.info(message);
  deps.io.info(
    `Apply it with \`ws automations apply -f ${opts.file}${plan.prune ? ' --prune' : ''}\`.`,
  );
  throw new WsError(message, { exitCode: ExitCode.error, code: 'differences', silent: true });
}
