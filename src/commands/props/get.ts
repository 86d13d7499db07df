import { objectType } from '../../api/object-types.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { fetchDefinitions, findDefinition } from '../../schema/definitions.ts';
import { propertyColumns, propertyRow } from './shared.ts';

export interface GetOptions {
  objectType: string;
  /** Slug or id. */
  property: string;
  listId?: string | undefined;
}

/** Reads fresh definitions (and refreshes the cache with them). */
export async function run(opts: GetOptions, deps: Deps): Promise<void> {
  const type = objectType(opts.objectType, 'property');
  const defs = await fetchDefinitions(deps, type, opts.listId);
  const def = findDefinition(defs, opts.property, type, { notFound: true });
  await renderObject(deps.io, propertyRow(type, def), propertyColumns({ detail: true }), {
    format: deps.format,
    fields: deps.fields,
  });
}
