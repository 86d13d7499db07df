import { objectType } from '../../api/object-types.ts';
import { type PropertyPatch, updateProperty } from '../../api/props.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { resolveDefinition } from '../../schema/definitions.ts';
import { changeDefinitions, propertyColumns, propertyRow, withDefinition } from './shared.ts';

export interface UpdateOptions {
  objectType: string;
  /** Slug or id. */
  property: string;
  name?: string | undefined;
  /** A new icon; null clears it. */
  icon?: string | null | undefined;
  required?: boolean | undefined;
  enabled?: boolean | undefined;
  /** Move to this list; null makes it workspace-global. */
  listId?: string | null | undefined;
}

/**
 * The patch body: each flag given becomes its field; `type` comes from the existing
 * definition (the API needs it to find the table; a type never changes).
 */
export function patchBody(type: PropertyPatch['type'], opts: UpdateOptions): PropertyPatch {
  const body: PropertyPatch = { type };
  if (opts.name !== undefined) body.name = opts.name;
  if (opts.icon !== undefined) body.icon = opts.icon;
  if (opts.required !== undefined) body.required = opts.required;
  if (opts.enabled !== undefined) body.enabled = opts.enabled;
  if (opts.listId !== undefined) body.list_id = opts.listId;
  return body;
}

export async function run(opts: UpdateOptions, deps: Deps): Promise<void> {
  const type = objectType(opts.objectType, 'property');
  if (opts.name !== undefined && opts.name.trim() === '')
    throw new UsageError('--name cannot be empty.');
  const probe = patchBody('str', opts);
  if (Object.keys(probe).length === 1) {
    throw new UsageError(
      'Nothing to update.',
      'Pass at least one of --name, --icon/--no-icon, --required/--no-required, --enable/--disable, --list-id/--no-list-id.',
    );
  }
  const def = await resolveDefinition(deps, type, opts.property, { notFound: true });
  const client = await deps.client();
  const updated = await changeDefinitions(
    deps,
    type,
    () => updateProperty(client, type, def.id, patchBody(def.type, opts), deps.signal),
    withDefinition,
  );
  deps.io.success(`Updated ${type} property "${updated.name ?? updated.slug}" (${updated.slug}).`);
  await renderObject(deps.io, propertyRow(type, updated), propertyColumns({ detail: true }), {
    format: deps.format,
    fields: deps.fields,
  });
}
