// `ws automations export [TYPE…]`: the automations of some or all object types as an
// automations file (YAML, or JSON), webhooks and contact views by name, ready for
// `ws automations diff` and `apply` in this workspace or another.
import { promises as fs } from 'node:fs';
import type { Automation } from '../../api/automations.ts';
import { AUTOMATION_TYPES, type AutomationType } from '../../api/object-types.ts';
import { automationFileObject, formatAutomationFile } from '../../automation-code/file.ts';
import { UsageError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { allAutomations, automationType, namesFor } from './shared.ts';

export interface ExportOptions {
  /** Object types to export; every type that has automations when empty. */
  types: string[];
  output: string | undefined;
}

function fileFormat(opts: ExportOptions, deps: Deps): 'yaml' | 'json' {
  if (deps.fields) throw new UsageError('--fields does not apply to `ws automations export`.');
  const explicit = deps.flags.json ? 'json' : deps.flags.format;
  if (explicit !== undefined && explicit !== 'json')
    throw new UsageError(
      `ws automations export writes YAML, or JSON with --format json; not ${explicit}.`,
    );
  if (explicit === 'json' || opts.output?.toLowerCase().endsWith('.json')) return 'json';
  return 'yaml';
}

export async function run(opts: ExportOptions, deps: Deps): Promise<void> {
  const format = fileFormat(opts, deps);
  const named = [...new Set(opts.types.map(automationType))];
  const client = await deps.client();
  const byType = new Map<AutomationType, Automation[]>();
  for (const type of named.length > 0 ? named : AUTOMATION_TYPES) {
    const list = await allAutomations(deps, client, type);
    if (list.length > 0 || named.length > 0) byType.set(type, list);
  }
  const names = await namesFor(deps, [...byType.values()].flat());
  const text = await formatAutomationFile(automationFileObject(byType, names), format);
  const count = [...byType.values()].reduce((n, l) => n + l.length, 0);
  const what = `${count} automation${count === 1 ? '' : 's'} of ${byType.size} object type${byType.size === 1 ? '' : 's'}`;
  if (opts.output === undefined || opts.output === '-') {
    deps.io.write(text);
    deps.io.info(`Exported ${what}.`);
    return;
  }
  try {
    await fs.writeFile(opts.output, text);
  } catch (err) {
    throw new WsError(`Cannot write ${opts.output}: ${(err as Error).message}`);
  }
  deps.io.success(`Exported ${what} to ${opts.output}.`);
}
