import { objectType } from '../../../api/object-types.ts';
import { createOption, type OptionCreate } from '../../../api/props.ts';
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
  withOption,
} from '../shared.ts';

export interface OptionsAddOptions extends OptionFields {
  objectType: string;
  /** Slug or id of the select property. */
  property: string;
  value: string;
  slug?: string | undefined;
}

export async function run(opts: OptionsAddOptions, deps: Deps): Promise<void> {
  const type = objectType(opts.objectType, 'property');
  if (opts.value.trim() === '') throw new UsageError('The option value cannot be empty.');
  const def = await resolveDefinition(deps, type, opts.property, { notFound: true });
  requireSelect(type, def);
  const body: OptionCreate = {
    type: def.type,
    value: opts.value,
    ...(opts.slug !== undefined ? { slug: opts.slug } : {}),
    ...optionFields(opts),
  };
  const client = await deps.client();
  const option = await changeDefinitions(
    deps,
    type,
    () =>
      createOption(client, type, def.id, body, deps.signal).catch(
        hintOnConflict(`See its options with \`ws props options list ${type} ${def.slug}\`.`),
      ),
    (defs, created) => withOption(defs, def.id, created),
  );
  deps.io.success(
    `Added option "${option.value}" (${option.slug}) to ${type} property "${def.slug}".`,
  );
  await renderObject(deps.io, option, optionColumns, { format: deps.format, fields: deps.fields });
}
