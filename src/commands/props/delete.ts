// ws props delete: delete a property definition, after asking; a property that records still
// hold values for is refused by the API (409 property_in_use), and the error says how to find
// those records.

import { objectType } from '../../api/object-types.ts';
import { annotateError, deleteProperty, type PropertyDefinition } from '../../api/props.ts';
import { ApiError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { resolveDefinition } from '../../schema/definitions.ts';
import { changeDefinitions, confirmForGood, printJsonResult } from './shared.ts';

export interface DeleteOptions {
  objectType: string;
  /** Slug or id. */
  property: string;
}

export async function run(opts: DeleteOptions, deps: Deps): Promise<void> {
  const type = objectType(opts.objectType, 'property');
  const def = await resolveDefinition(deps, type, opts.property, { notFound: true });
  const label = `${type} property "${def.name ?? def.slug}" (${def.slug})`;
  await confirmForGood(deps, 'Delete', label);
  const client = await deps.client();
  await changeDefinitions(
    deps,
    type,
    () =>
      deleteProperty(client, type, def, deps.signal).catch((err: unknown) => {
        throw inUse(err, type, def);
      }),
    (defs) => defs.filter((d) => d.id !== def.id),
  );
  deps.io.success(`Deleted the ${label}.`);
  printJsonResult(deps, { deleted: { object_type: type, id: def.id, slug: def.slug } });
}

/** The API's 409 property_in_use, with what to do about it; other errors pass unchanged. */
function inUse(err: unknown, type: string, def: PropertyDefinition): unknown {
  if (!(err instanceof ApiError) || err.apiCode !== 'property_in_use') return err;
  const list = def.list_id ? ` --list-id ${def.list_id}` : '';
  const where = `--where ${def.slug}:is_not_null${list}`;
  return annotateError(err, {
    hint: `Records still hold values for "${def.slug}", and the API keeps a property while they do. Count them with \`ws records count ${type} ${where}\`, list them with \`ws records list ${type} ${where}\`, clear or change those values, then delete the property again.`,
  });
}
