import { objectType } from '../../../api/object-types.ts';
import type { Deps } from '../../../factory.ts';
import { renderRows } from '../../../output/render.ts';
import { fetchDefinitions, findDefinition } from '../../../schema/definitions.ts';
import { optionColumns, requireSelect } from '../shared.ts';

export interface OptionsListOptions {
  objectType: string;
  /** Slug or id of the select property. */
  property: string;
}

/** The options of a select property, in their order (fresh from the API). */
export async function run(opts: OptionsListOptions, deps: Deps): Promise<void> {
  const type = objectType(opts.objectType, 'property');
  const def = findDefinition(await fetchDefinitions(deps, type), opts.property, type, {
    notFound: true,
  });
  requireSelect(type, def);
  await renderRows(deps.io, def.options ?? [], optionColumns, {
    format: deps.format,
    fields: deps.fields,
    emptyMessage: `The ${type} property "${def.slug}" has no options yet; add one with \`ws props options add ${type} ${def.slug} VALUE\`.`,
  });
}
