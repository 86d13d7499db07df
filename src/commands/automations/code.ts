// What export, validate, diff and apply share: reading an automations file and checking it
// whole against the workspace, the plan against the workspace's automations, and how a plan
// is printed (text for people, JSON or NDJSON for scripts).
import type { Automation } from '../../api/automations.ts';
import type { AutomationType } from '../../api/object-types.ts';
import { type AutomationFile, parseAutomationFile } from '../../automations-as-code/file.ts';
import {
  compileFile,
  type Desired,
  makePlan,
  type Plan,
  type Step,
} from '../../automations-as-code/plan.ts';
import { triggerSummary } from '../../automations-as-code/render.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { readInput } from '../common/input.ts';
import { allAutomations, lookupsFor } from './shared.ts';

/** The file read and every automation compiled against the workspace as it is now. */
export async function readChecked(
  deps: Deps,
  spec: string,
): Promise<{
  file: AutomationFile;
  desired: Desired[];
  names: import('../../automations-as-code/render.ts').Names;
}> {
  const input = await readInput(spec, deps, spec === '-' ? '--file' : 'FILE');
  const file = await parseAutomationFile(input.text, input.path ?? 'stdin');
  const drafts = file.types.flatMap((t) => t.drafts.map((draft) => ({ draft, type: t.type })));
  const lookups = await lookupsFor(deps, drafts, true);
  return { file, desired: compileFile(file, lookups), names: lookups };
}

/** Read and check the file, then plan it against the automations of its object types. */
export async function planFor(deps: Deps, spec: string, prune: boolean): Promise<Plan> {
  if (deps.fields) throw new UsageError('--fields does not apply to plans.');
  if (deps.format === 'csv')
    throw new UsageError('A plan is printed as text, or as JSON with --json (or --format ndjson).');
  const { file, desired, names } = await readChecked(deps, spec);
  const client = await deps.client();
  const current = new Map<AutomationType, Automation[]>();
  for (const t of file.types) current.set(t.type, await allAutomations(deps, client, t.type));
  return makePlan(file.file, desired, current, names, prune);
}

const MARK = { create: '+', update: '~', delete: '-', unchanged: '=' } as const;

const show = (v: unknown) => (v === null || v === undefined ? '(none)' : JSON.stringify(v));

/** A step as lines: `+ deal "Deal won" (change: stage:to=won)`, then each changed field. */
export function stepLines(deps: Deps, s: Step): string[] {
  const c = deps.io.out;
  const paint =
    s.action === 'create'
      ? c.green
      : s.action === 'delete'
        ? c.red
        : s.action === 'update'
          ? c.yellow
          : c.dim;
  const head = `${MARK[s.action]} ${s.type} "${s.name}"`;
  switch (s.action) {
    case 'create':
      return [paint(`${head} (${triggerSummary(s.body)})`)];
    case 'update':
      return [
        paint(head),
        ...s.changes.map((f) => `    ${f.field}: ${show(f.from)} → ${show(f.to)}`),
      ];
    default:
      return [paint(head)];
  }
}

/** The plan's steps as JSON objects. */
export function stepObject(s: Step): Record<string, unknown> {
  return s;
}

export function printPlan(deps: Deps, plan: Plan): void {
  const shown = plan.steps.filter((s) => s.action !== 'unchanged');
  if (deps.format === 'json') deps.io.println(JSON.stringify(shown.map(stepObject), null, 2));
  else if (deps.format === 'ndjson')
    for (const s of shown) deps.io.println(JSON.stringify(stepObject(s)));
  else if (shown.length > 0) deps.io.println(shown.flatMap((s) => stepLines(deps, s)).join('\n'));
  if (plan.kept.length > 0)
    deps.io.info(
      `Not in ${plan.file}, left as they are (--prune deletes them): ${plan.kept.join(', ')}.`,
    );
}
