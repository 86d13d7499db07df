// `ws automations create TYPE …`: an automation from flags (or one from a file), checked
// against the workspace before it is sent.
import { createAutomation } from '../../api/automations.ts';
import type { Draft } from '../../automations-as-code/draft.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { readInput } from '../common/input.ts';
import { type DraftFlags, draftOf } from './draft-flags.ts';
import { automationType, compileFlags, printAutomation } from './shared.ts';

export interface CreateOptions extends DraftFlags {
  type: string;
  /** One automation as a file holds it; flags given too override its fields. */
  file: string | undefined;
}

/** Whether any flag that writes the automation was given. */
export function givesFields(o: DraftFlags): boolean {
  return (
    o.name !== undefined ||
    o.onChange.length > 0 ||
    o.any !== undefined ||
    o.onUpdate ||
    o.onCreate !== undefined ||
    o.onDelete !== undefined ||
    o.where.length > 0 ||
    o.or !== undefined ||
    o.clearWhere ||
    o.actions !== undefined ||
    o.listId !== undefined ||
    o.enabled !== undefined
  );
}

/** The draft of --file, with the draft of the flags on top (a flag wins over the file). */
export async function draftFrom(
  deps: Deps,
  opts: { file: string | undefined } & DraftFlags,
): Promise<Draft> {
  const flags = await draftOf(deps, opts);
  if (opts.file === undefined) return flags;
  const input = await readInput(opts.file, deps, '--file');
  const { parseAutomationDraft } = await import('../../automations-as-code/file.ts');
  const fromFile = await parseAutomationDraft(input.text, input.path ?? 'stdin');
  const merged: Record<string, unknown> = { ...fromFile };
  for (const [k, v] of Object.entries(flags)) if (v !== undefined && k !== 'source') merged[k] = v;
  return merged as unknown as Draft;
}

export async function run(opts: CreateOptions, deps: Deps): Promise<void> {
  const type = automationType(opts.type);
  if (opts.file === undefined && opts.name === undefined) {
    throw new UsageError(
      'An automation needs a name: --name NAME.',
      `e.g. ws automations create ${type} --name "Deal won" --on-change stage:to=won --webhook "Deal alerts"`,
    );
  }
  const draft = await draftFrom(deps, opts);
  const body = await compileFlags(deps, draft, type);
  const client = await deps.client();
  const created = await createAutomation(client, type, body, { signal: deps.signal });
  deps.io.success(`Created ${type} automation "${created.name}" (${created.id}).`);
  await printAutomation(deps, created);
}
