import { objectType } from '../../../api/object-types.ts';
import { deleteOption } from '../../../api/props.ts';
import type { Deps } from '../../../factory.ts';
import { resolveDefinition } from '../../../schema/definitions.ts';
import {
  changeDefinitions,
  confirmForGood,
  printJsonResult,
  requireSelect,
  resolveOption,
  withOption,
} from '../shared.ts';

export interface OptionsRemoveOptions {
  objectType: string;
  /** Slug or id of the select property. */
  property: string;
  /** Slug or id of the option. */
  option: string;
}

export async function run(opts: OptionsRemoveOptions, deps: Deps): Promise<void> {
  const type = objectType(opts.objectType, 'property');
  const prop = await resolveDefinition(deps, type, opts.property, { notFound: true });
  requireSelect(type, prop);
  const { def, option } = await resolveOption(deps, type, prop, opts.option);
  const label = `option "${option.value ?? option.slug}" (${option.slug}) of ${type} property "${def.slug}"`;
  await confirmForGood(deps, 'Remove', label);
  const client = await deps.client();
  await changeDefinitions(
    deps,
    type,
    () => deleteOption(client, type, def, option.id, deps.signal),
    (defs) => withOption(defs, def.id, option, true),
  );
  deps.io.success(`Removed the ${label}.`);
  printJsonResult(deps, {
    removed: { object_type: type, property: def.slug, id: option.id, slug: option.slug },
  });
}
