// `ws automations enable|disable TYPE AUTOMATION`: the automation written back whole with
// `enabled` changed (the API has no partial update of an automation).
import { type Automation, type AutomationWrite, replaceAutomation } from '../../api/automations.ts';
import type { Deps } from '../../factory.ts';
import { type AutomationRef, namedAutomation, printAutomation } from './shared.ts';

export interface EnableOptions extends AutomationRef {
  enabled: boolean;
}

/** The fields of an automation that a PUT writes. */
export function writeOf(a: Automation): AutomationWrite {
  return {
    kind: a.kind,
    name: a.name,
    enabled: a.enabled ?? true,
    list_id: a.list_id ?? null,
    changeset: a.changeset ?? null,
    state: a.state ?? null,
    on_create: a.on_create ?? null,
    on_delete: a.on_delete ?? null,
    actions: a.actions ?? [],
  };
}

export async function run(opts: EnableOptions, deps: Deps): Promise<void> {
  const { type, client, automation: a } = await namedAutomation(deps, opts);
  const word = opts.enabled ? 'enabled' : 'disabled';
  if ((a.enabled ?? true) === opts.enabled) {
    deps.io.info(`${type} automation "${a.name}" (${a.id}) is ${word} already.`);
    await printAutomation(deps, a);
    return;
  }
  const updated = await replaceAutomation(
    client,
    type,
    a.id,
    { ...writeOf(a), enabled: opts.enabled },
    { signal: deps.signal },
  );
  deps.io.success(
    `${word[0]!.toUpperCase()}${word.slice(1)} ${type} automation "${updated.name}" (${updated.id}).`,
  );
  await printAutomation(deps, updated);
}
