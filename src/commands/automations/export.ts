// `ws automations export [TYPE…]`: the automations of some or all object types as an
// automations file (YAML, or JSON), webhooks and contact views by name, ready for
// `ws automations diff` and `apply` in this workspace or another.
import type { Automation } from '../../api/automations.ts';
import { AUTOMATION_TYPES, type AutomationType } from '../../api/object-types.ts';
import { automationFileObject, formatAutomationFile } from '../../automations-as-code/file.ts';
import { goneWebhooks } from '../../automations-as-code/render.ts';
import type { Deps } from '../../factory.ts';
import { plural } from '../../output/plural.ts';
import { exportFormat, writeExport } from '../common/export-file.ts';
import { allAutomations, automationType, namesFor } from './shared.ts';

export interface ExportOptions {
  /** Object types to export; every type that has automations when empty. */
  types: string[];
  output: string | undefined;
}

export async function run(opts: ExportOptions, deps: Deps): Promise<void> {
  const format = exportFormat('ws automations export', opts.output, deps);
  const named = [...new Set(opts.types.map(automationType))];
  const client = await deps.client();
  const byType = new Map<AutomationType, Automation[]>();
  for (const type of named.length > 0 ? named : AUTOMATION_TYPES) {
    const list = await allAutomations(deps, client, type);
    if (list.length > 0 || named.length > 0) byType.set(type, list);
  }
  const names = await namesFor(deps, [...byType.values()].flat());
  const text = await formatAutomationFile(automationFileObject(byType, names), format);
  // A step naming a deleted webhook is written with its id: say so, as the file will not
  // validate until it names a webhook that exists.
  for (const [type, list] of byType) {
    for (const a of list) {
      for (const id of goneWebhooks(a, names)) {
        deps.io.warn(
          `${type} automation "${a.name}" names webhook ${id}, which no longer exists: \`ws automations validate\` and \`apply\` refuse the file until that step names a webhook that exists (or is removed).`,
        );
      }
    }
  }
  const count = [...byType.values()].reduce((n, l) => n + l.length, 0);
  const what = `${plural(count, 'automation')} of ${plural(byType.size, 'object type')}`;
  await writeExport(deps, text, opts.output, what);
}
