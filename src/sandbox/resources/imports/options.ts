// The import option `create_missing_options`: a select or multiselect value of a row that
// names no option of its property creates that option (its display value is the written
// text, its slug derived from it), so that the row can then be written. Options are created
// only for a row whose sole problems are unknown options, and never on a locked shared
// definition: such a row fails as it would without the option.

import { isPlainObject, isUuid } from '../../../util/guards.ts';
import { SandboxError } from '../../errors.ts';
import { propertiesOf } from '../properties/model.ts';
import { definitionIn, findOption, type Scope } from '../properties/scope.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import type { RecordInput } from '../records/values.ts';

/** A value that names no option: where it was written, its definition and its text. */
interface Missing {
  scope: Scope;
  def: PropertyDefinition;
  value: string;
}

/**
 * After `refusal` of the write `input` in `workspace`: create the options it lacked. True
 * when the write may be tried again (every problem was an unknown option, now created).
 */
export function createMissingOptions(
  workspace: Scope,
  input: RecordInput,
  refusal: SandboxError,
): boolean {
  const problems = refusal.errors ?? [];
  if (problems.length === 0 || problems.some((p) => p.code !== 'unknown_option')) return false;
  const missing = missingOptions(workspace, input);
  if (missing.length === 0 || missing.some((m) => m.def.locked)) return false;
  const properties = propertiesOf(workspace.store);
  for (const { scope, def, value } of missing) {
    // An earlier value of the same row may have created it (two spellings of one value).
    if (findOption(scope, def, value) !== undefined) continue;
    try {
      properties.createOption(workspace.teamId, workspace.type, def.id, def.type, {
        value: value.trim(),
      });
    } catch (err) {
      if (err instanceof SandboxError) return false;
      throw err;
    }
  }
  return true;
}

/** The select values of `input` that name no option, in the workspace and on each list. */
function missingOptions(workspace: Scope, input: RecordInput): Missing[] {
  const out: Missing[] = [];
  const scan = (scope: Scope, values: unknown) => {
    if (!isPlainObject(values)) return;
    for (const [slug, raw] of Object.entries(values)) {
      const def = definitionIn(scope, slug);
      if (def?.options === undefined) continue;
      for (const item of Array.isArray(raw) ? raw : [raw]) {
        if (typeof item !== 'string' || item.trim() === '') continue;
        if (findOption(scope, def, item) === undefined) out.push({ scope, def, value: item });
      }
    }
  };
  scan(workspace, input.default);
  if (isPlainObject(input.list)) {
    for (const [listId, values] of Object.entries(input.list)) {
      if (isUuid(listId)) scan({ ...workspace, listId }, values);
    }
  }
  return out;
}
