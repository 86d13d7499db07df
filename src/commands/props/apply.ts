import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { applyPlan } from '../../schema/apply.ts';
import { invalidateDefinitions } from '../../schema/definitions-cache.ts';
import { type Change, changesOf, hasChanges, type Plan } from '../../schema/plan.ts';
import { changeLine } from '../../schema/render.ts';
import { learnDefaultRoles } from '../../schema/roles.ts';
import type { ApplyOptions } from '../common/plan-flags.ts';
import { planFor, printPlan, refuseProblems } from './diff.ts';

/** Deletes need --yes, or a yes on a terminal (after seeing what goes). */
async function confirmDeletes(deps: Deps, plan: Plan): Promise<void> {
  const deletes = changesOf(plan).filter((c) => c.action === 'delete');
  if (deletes.length === 0) return;
  const defs = deletes.filter((c) => c.option === null).length;
  const options = deletes.length - defs;
  const parts = [
    ...(defs > 0 ? [`${defs} propert${defs === 1 ? 'y' : 'ies'}`] : []),
    ...(options > 0 ? [`${options} option${options === 1 ? '' : 's'}`] : []),
  ].join(' and ');
  if (deps.io.canPrompt())
    deps.io.stderr.write(`${deletes.map((c) => changeLine(deps.io.err, c)).join('\n')}\n`);
  await confirmOrRefuse(
    deps.io,
    deps.prompter,
    `Delete ${parts} that ${plan.file} does not have? This cannot be undone.`,
    `Not deleting ${parts} without confirmation; nothing was changed.`,
  );
}

function tally(made: readonly Change[]): string {
  const n = { create: 0, update: 0, delete: 0 };
  for (const c of made) if (c.action !== 'unchanged') n[c.action]++;
  return `${n.create} created, ${n.update} updated, ${n.delete} deleted`;
}

export async function run(opts: ApplyOptions, deps: Deps): Promise<void> {
  const plan = await planFor(deps, opts.file, opts.prune);
  if (opts.dryRun) {
    printPlan(deps, plan);
    refuseProblems(plan);
    deps.io.info('Dry run: nothing was changed.');
    return;
  }
  refuseProblems(plan);
  const json = deps.format === 'json';
  if (!hasChanges(plan)) {
    if (json) deps.io.println('[]');
    deps.io.info(`Nothing to do: the workspace matches ${plan.file}.`);
    return;
  }
  await confirmDeletes(deps, plan);
  const client = await deps.client();
  const made: Change[] = [];
  const show = (changes: Change[]) => {
    made.push(...changes);
    for (const c of changes) {
      if (deps.format === 'ndjson') deps.io.println(JSON.stringify(c));
      else if (!json) deps.io.println(changeLine(deps.io.out, c));
    }
  };
  try {
    await applyPlan(client, plan, show, deps.signal, (created) => learnDefaultRoles(deps, created));
  } finally {
    if (json) deps.io.println(JSON.stringify(made, null, 2));
    for (const t of new Set(plan.steps.map((s) => s.objectType)))
      await invalidateDefinitions(deps, t);
  }
  deps.io.success(`Applied ${plan.file}: ${tally(made)}.`);
}
