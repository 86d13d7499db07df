import { objectType } from '../../api/object-types.ts';
import { deleteProperty } from '../../api/props.ts';
import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { resolveDefinition } from '../../schema/definitions.ts';
import { changeDefinitions, printJsonResult } from './shared.ts';

export interface DeleteOptions {
  objectType: string;
  /** Slug or id. */
  property: string;
}

export async function run(opts: DeleteOptions, deps: Deps): Promise<void> {
  const type = objectType(opts.objectType, 'property');
  const def = await resolveDefinition(deps, type, opts.property, { notFound: true });
  const label = `${type} property "${def.name ?? def.slug}" (${def.slug})`;
  await confirmOrRefuse(
    deps.io,
    deps.prompter,
    `Delete the ${label}? This cannot be undone.`,
    `Not deleting the ${label} without confirmation.`,
  );
  const client = await deps.client();
  await changeDefinitions(
    deps,
    type,
    () => deleteProperty(client, type, def, deps.signal),
    (defs) => defs.filter((d) => d.id !== def.id),
  );
  deps.io.success(`Deleted the ${label}.`);
  printJsonResult(deps, { deleted: { object_type: type, id: def.id, slug: def.slug } });
}
