import { ConflictError, UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { readSchemaFile, workspaceDefinitions } from '../../schema/load.ts';
import {
  changesOf,
  hasChanges,
  makePlan,
  type Plan,
  problems,
  summary,
} from '../../schema/plan.ts';
import { planText } from '../../schema/render.ts';
import { differencesFound, machineReadable, noDifferences } from '../common/differences.ts';
import type { DiffOptions } from '../common/plan-flags.ts';

/** Read the file and the workspace, and make the plan. */
export async function planFor(deps: Deps, file: string, prune: boolean): Promise<Plan> {
  if (deps.fields) throw new UsageError('--fields does not apply to plans.');
  if (deps.format === 'csv')
    throw new UsageError('A plan is printed as text, or as JSON with --json (or --format ndjson).');
  const schema = await readSchemaFile(deps, file);
  return makePlan(schema, await workspaceDefinitions(deps), { prune });
}

/** Print a plan: its text, or its changes as JSON (one array) or NDJSON (one per line). */
export function printPlan(deps: Deps, plan: Plan): void {
  if (deps.format === 'json') deps.io.println(JSON.stringify(changesOf(plan), null, 2));
  else if (deps.format === 'ndjson')
    for (const c of changesOf(plan)) deps.io.println(JSON.stringify(c));
  else deps.io.write(planText(deps.io.out, plan));
  // Scripts read stderr as JSON errors: what is kept is in the plan's answer.
  if (plan.kept.length > 0 && !machineReadable(deps)) {
    deps.io.info(
      `Not in ${plan.file}, left as they are (--prune deletes them): ${plan.kept.join(', ')}.`,
    );
  }
}

/** A plan with steps the API cannot carry out is an error (exit 6) listing them. */
export function refuseProblems(plan: Plan): void {
  const list = problems(plan);
  if (list.length === 0) return;
  throw new ConflictError(
    `${list.length} change${list.length === 1 ? '' : 's'} in ${plan.file} cannot be applied:\n${list.map((p) => `  ${p}`).join('\n')}`,
  );
}

/** Exit 0 when nothing differs, 1 when something does, above 1 on error (as `kubectl diff`). */
export async function run(opts: DiffOptions, deps: Deps): Promise<void> {
  const plan = await planFor(deps, opts.file, opts.prune);
  printPlan(deps, plan);
  refuseProblems(plan);
  if (!hasChanges(plan)) {
    noDifferences(deps, plan.file);
    return;
  }
  const n = summary(plan);
  differencesFound(
    deps,
    `The workspace differs from ${plan.file}: ${n.create} to create, ${n.update} to update${plan.prune ? `, ${n.delete} to delete` : ''}.`,
    `ws props apply -f ${opts.file}${plan.prune ? ' --prune' : ''}`,
  );
}
