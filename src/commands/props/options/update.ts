import { objectType } from '../../../api/object-types.ts';
import { type OptionPatch, updateOption } from '../../../api/props.ts';
import { UsageError } from '../../../errors.ts';
import type { Deps } from '../../../factory.ts';
import { renderObject } from '../../../output/render.ts';
import { resolveDefinition } from '../../../schema/definitions.ts';
import {
  changeDefinitions,
  hintOnConflict,
  type OptionFields,
  optionColumns,
  optionFields,
  requireSelect,
  resolveOption,
  withOption,
} from '../shared.ts';

export interface OptionsUpdateOptions extends OptionFields {
  objectType: string;
  /** Slug or id of the select property. */
  property: string;
  /** Slug or id of the option. */
  option: string;
  value?: string | undefined;
  slug?: string | undefined;
  /** --enable / --disable. */
  enabled?: boolean | undefined;
  /** --list-id (null: --no-list-id, every list). */
  listId?: string | null | undefined;
}

export async function run(opts: OptionsUpdateOptions, deps: Deps): Promise<void> {
  const type = objectType(opts.objectType, 'property');
  if (opts.value !== undefined && opts.value.trim() === '')
    throw new UsageError('--value cannot be empty.');
  const changes = {
    ...(opts.value !== undefined ? { value: opts.value } : {}),
    ...(opts.slug !== undefined ? { slug: opts.slug } : {}),
    ...optionFields(opts),
    ...(opts.enabled !== undefined ? { enabled: opts.enabled } : {}),
    ...(opts.listId !== undefined ? { list_id: opts.listId } : {}),
  };
  if (Object.keys(changes).length === 0) {
    throw new UsageError(
      'Nothing to update.',
      'Pass at least one of --value, --slug, --color-scheme, --description, --icon, --group, --sort-index, --enable, --disable, --list-id (--no-color-scheme and the like clear a field).',
    );
  }
  const prop = await resolveDefinition(deps, type, opts.property, { notFound: true });
  requireSelect(type, prop);
  const { def, option } = await resolveOption(deps, type, prop, opts.option);
  const body: OptionPatch = { type: def.type, ...changes };
  const client = await deps.client();
  const updated = await changeDefinitions(
    deps,
    type,
    () =>
      updateOption(client, type, def.id, option.id, body, deps.signal).catch(
        hintOnConflict(`See its options with \`ws props options list ${type} ${def.slug}\`.`),
      ),
    (defs, changed) => withOption(defs, def.id, changed),
  );
  deps.io.success(
    `Updated option "${updated.value}" (${updated.slug}) of ${type} property "${def.slug}".`,
  );
  await renderObject(deps.io, updated, optionColumns, { format: deps.format, fields: deps.fields });
}
