// `ws automations apply -f FILE [--dry-run] [--prune]`: make the workspace match the file.
// The whole file is checked first; deletes ask on a terminal (--yes elsewhere).
import { applySteps, hasChanges, type Step, tally } from '../../automations-as-code/plan.ts';
import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import type { ApplyOptions } from '../common/plan-flags.ts';
import { planFor, printPlan, stepLines, stepObject } from './code.ts';

export async function run(opts: ApplyOptions, deps: Deps): Promise<void> {
  const plan = await planFor(deps, opts.file, opts.prune);
  if (opts.dryRun) {
    printPlan(deps, plan);
    deps.io.info('Dry run: nothing was changed.');
    return;
  }
  const json = deps.format === 'json';
  if (plan.kept.length > 0)
    deps.io.info(
      `Not in ${plan.file}, left as they are (--prune deletes them): ${plan.kept.join(', ')}.`,
    );
  if (!hasChanges(plan)) {
    if (json) deps.io.println('[]');
    deps.io.info(`Nothing to do: the workspace matches ${plan.file}.`);
    return;
  }
  const deletes = plan.steps.filter((s) => s.action === 'delete');
  if (deletes.length > 0) {
    if (deps.io.canPrompt())
      deps.io.stderr.write(`${deletes.flatMap((s) => stepLines(deps, s)).join('\n')}\n`);
    const what = `${deletes.length} automation${deletes.length === 1 ? '' : 's'}`;
    await confirmOrRefuse(
      deps.io,
      deps.prompter,
      `Delete ${what} that ${plan.file} does not have?`,
      `Not deleting ${what} without confirmation; nothing was changed.`,
    );
  }
  const client = await deps.client();
  const made: Record<string, unknown>[] = [];
  try {
    await applySteps(
      client,
      plan,
      (step: Step, id: string) => {
        const obj = { ...stepObject(step), id };
        made.push(obj);
        if (deps.format === 'ndjson') deps.io.println(JSON.stringify(obj));
        else if (!json) deps.io.println(stepLines(deps, step).join('\n'));
      },
      deps.signal,
    );
  } finally {
    if (json) deps.io.println(JSON.stringify(made, null, 2));
  }
  const n = tally(plan.steps);
  deps.io.success(
    `Applied ${plan.file}: ${n.create} created, ${n.update} updated, ${n.delete} deleted.`,
  );
}
