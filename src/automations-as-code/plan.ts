// Automations as code: an automations file read and checked whole against the workspace
// (every problem with its file, line and column, before anything is written), and the plan
// that makes the workspace match it: create what it adds, replace what differs, delete (with
// --prune) what it no longer has. An automation is known by its object type and name.
import {
  type Automation,
  type AutomationWrite,
  createAutomation,
  deleteAutomation,
  replaceAutomation,
} from '../api/automations.ts';
import type { ApiClient } from '../api/client.ts';
import type { AutomationType } from '../api/object-types.ts';
import { UsageError } from '../errors.ts';
import { type Compiled, compileDraft, type Problem, problemsError } from './draft.ts';
import type { AutomationFile } from './file.ts';
import type { Lookups } from './lookups.ts';
import { automationObject, type Names, NO_NAMES } from './render.ts';

export interface Desired {
  type: AutomationType;
  name: string;
  body: AutomationWrite;
}

/** Compile every automation of the file; every problem of every one is one usage error. */
export function compileFile(file: AutomationFile, lookups: Lookups): Desired[] {
  const problems: Problem[] = [];
  const out: Desired[] = [];
  for (const t of file.types) {
    for (const draft of t.drafts) {
      const compiled: Compiled = compileDraft(draft, t.type, lookups);
      problems.push(...compiled.problems);
      out.push({ type: t.type, name: compiled.body.name, body: compiled.body });
    }
  }
  if (problems.length > 0) {
    const sorted = [...problems].sort((a, b) => offset(a) - offset(b));
    throw problemsError(
      sorted,
      `${file.file} is not valid (${problems.length} problem${problems.length === 1 ? '' : 's'})`,
    );
  }
  return out;
}

function offset(p: Problem): number {
  return p.source.kind === 'file' ? p.source.offset : 0;
}

export type Step =
  | { action: 'create'; type: AutomationType; name: string; body: AutomationWrite }
  | {
      action: 'update';
      type: AutomationType;
      name: string;
      id: string;
      body: AutomationWrite;
      changes: { field: string; from: unknown; to: unknown }[];
    }
  | { action: 'delete'; type: AutomationType; name: string; id: string }
  | { action: 'unchanged'; type: AutomationType; name: string; id: string };

export interface Plan {
  file: string;
  steps: Step[];
  /** Automations the file does not have, left alone without --prune (`type "name"`). */
  kept: string[];
  prune: boolean;
}

/**
 * An automation in the file's form with ids as they are, so that two automations compare
 * equal when they would act the same (values compare as the flag language writes them).
 */
function comparable(
  a: Pick<Automation, keyof AutomationWrite> & { name: string },
): Record<string, unknown> {
  return automationObject(a as Automation, NO_NAMES);
}

/** The fields that differ, in the file's form with names (`names`) for ids. */
function differences(
  current: Automation,
  body: AutomationWrite,
  names: Names,
): { field: string; from: unknown; to: unknown }[] {
  const a = comparable(current);
  const b = comparable({ ...body, name: body.name });
  const shownA = automationObject(current, names);
  const shownB = automationObject({ ...current, ...body } as Automation, names);
  const out: { field: string; from: unknown; to: unknown }[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key]))
      out.push({ field: key, from: shownA[key] ?? null, to: shownB[key] ?? null });
  }
  return out;
}

/** The plan for `desired` against the automations of each type (`current`). */
export function makePlan(
  file: string,
  desired: readonly Desired[],
  current: ReadonlyMap<AutomationType, readonly Automation[]>,
  names: Names,
  prune: boolean,
): Plan {
  const steps: Step[] = [];
  const kept: string[] = [];
  const ambiguous: string[] = [];
  for (const [type, list] of current) {
    const wanted = desired.filter((d) => d.type === type);
    const byName = new Map<string, Automation[]>();
    for (const a of list) byName.set(a.name, [...(byName.get(a.name) ?? []), a]);
    for (const d of wanted) {
      const found = byName.get(d.name) ?? [];
      if (found.length > 1) {
        ambiguous.push(`${type} "${d.name}": ${found.map((a) => a.id).join(', ')}`);
        continue;
      }
      const a = found[0];
      if (a === undefined) {
        steps.push({ action: 'create', type, name: d.name, body: d.body });
        continue;
      }
      const changes = differences(a, d.body, names);
      steps.push(
        changes.length === 0
          ? { action: 'unchanged', type, name: d.name, id: a.id }
          : { action: 'update', type, name: d.name, id: a.id, body: d.body, changes },
      );
    }
    const names_ = new Set(wanted.map((d) => d.name));
    for (const a of list) {
      if (names_.has(a.name)) continue;
      if (prune) steps.push({ action: 'delete', type, name: a.name, id: a.id });
      else kept.push(`${type} "${a.name}"`);
    }
  }
  if (ambiguous.length > 0) {
    throw new UsageError(
      `Several automations of the workspace have a name the file gives, so ${file} cannot say which one it means:\n${ambiguous.map((l) => `  ${l}`).join('\n')}`,
      'Rename or delete all but one of them (`ws automations update TYPE ID --name …`), then try again.',
    );
  }
  return { file, steps, kept, prune };
}

export function hasChanges(plan: Plan): boolean {
  return plan.steps.some((s) => s.action !== 'unchanged');
}

export function tally(steps: readonly Step[]): Record<'create' | 'update' | 'delete', number> {
  const n = { create: 0, update: 0, delete: 0 };
  for (const s of steps) if (s.action !== 'unchanged') n[s.action]++;
  return n;
}

/** Carry out the plan's steps in order; `done` hears each as it is made. */
export async function applySteps(
  client: ApiClient,
  plan: Plan,
  done: (step: Step, id: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  for (const step of plan.steps) {
    switch (step.action) {
      case 'create': {
        const made = await createAutomation(client, step.type, step.body, { signal });
        done(step, made.id);
        break;
      }
      case 'update':
        await replaceAutomation(client, step.type, step.id, step.body, { signal });
        done(step, step.id);
        break;
      case 'delete':
        await deleteAutomation(client, step.type, step.id, { signal });
        done(step, step.id);
        break;
      case 'unchanged':
        break;
    }
  }
}
