// What the props verbs share: the columns of definitions and options, rows with their
// object type, and lookups of an option by slug or id.
import {
  annotateError,
  hasOptions,
  isSharedDefault,
  listScope,
  orderedOptions,
  type PropertyDefinition,
  type PropertyOption,
} from '../../api/props.ts';
import { ApiError, NotFoundError, UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { definitionsFor } from '../../schema/definitions.ts';
import { invalidateDefinitions, updateCachedDefinitions } from '../../schema/definitions-cache.ts';
import { isUuid } from '../../util/guards.ts';
import { closest, didYouMean } from '../../util/suggest.ts';

/** A definition as ws prints it: the API object with its object type first. */
export type PropertyRow = { object_type: string } & PropertyDefinition;

export function propertyRow(objectType: string, d: PropertyDefinition): PropertyRow {
  return { object_type: objectType, ...d };
}

/** default: a shared definition of every workspace; workspace: the team's own; list <id>: one list's. */
export function scopeOf(d: PropertyDefinition): string {
  if (isSharedDefault(d)) return 'default';
  const list = listScope(d);
  return list === null ? 'workspace' : `list ${list}`;
}

const yes = (v: unknown) => (v ? 'yes' : '');
const yesNo = (v: unknown) => (v ? 'yes' : 'no');

/**
 * Columns of `props list` and `props get`. The table shows object type (when several),
 * slug, name, type, required, scope and the number of options, or their values with
 * `--options`; every other field of the definition is available to --fields.
 */
export function propertyColumns(
  opts: { showType?: boolean; optionValues?: boolean; detail?: boolean } = {},
): Column<PropertyRow>[] {
  const detail = opts.detail ?? false;
  return [
    { key: 'object_type', header: 'OBJECT TYPE', default: opts.showType ?? false },
    { key: 'id', default: detail },
    { key: 'slug' },
    { key: 'name' },
    { key: 'type' },
    { key: 'required', text: detail ? yesNo : yes },
    { key: 'scope', get: scopeOf },
    {
      key: 'options',
      get: (d) => (hasOptions(d.type) ? (d.options?.length ?? 0) : null),
      align: 'right',
      default: !(opts.optionValues || detail),
    },
    {
      key: 'option_values',
      header: 'OPTIONS',
      get: (d) => (hasOptions(d.type) ? (d.options ?? []).map((o) => o.value ?? o.slug) : null),
      text: (v, d) =>
        Array.isArray(v)
          ? (d.options ?? [])
              .map((o) => (o.value === o.slug ? o.slug : `${o.value} (${o.slug})`))
              .join(', ')
          : '',
      default: (opts.optionValues ?? false) || detail,
    },
    { key: 'list_id', default: false },
    { key: 'icon', default: detail },
    { key: 'enabled', default: detail, text: (v) => (v === false ? 'no' : 'yes') },
    { key: 'native', default: detail, text: yesNo },
    { key: 'locked', default: detail, text: yesNo },
    { key: 'role_id', default: detail },
    { key: 'alias', default: false },
    { key: 'team_id', default: false },
  ];
}

export const optionColumns: Column<PropertyOption>[] = [
  { key: 'id', default: false },
  { key: 'slug' },
  { key: 'value' },
  { key: 'color_scheme', header: 'COLOR' },
  { key: 'option_group', header: 'GROUP' },
  { key: 'sort_index', header: 'ORDER', align: 'right' },
  { key: 'description' },
  { key: 'icon', default: false },
  { key: 'enabled', default: false },
  { key: 'list_id', default: false },
];

/** The definition must carry options, or the command makes no sense for it. */
export function requireSelect(objectType: string, d: PropertyDefinition): void {
  if (!hasOptions(d.type)) {
    throw new UsageError(
      `The ${objectType} property "${d.slug}" has type ${d.type}: only select_str and multiselect_str properties have options.`,
    );
  }
}

function lookupOption(d: PropertyDefinition, slugOrId: string): PropertyOption | undefined {
  const key = slugOrId.trim();
  const options = d.options ?? [];
  if (isUuid(key)) {
    const byId = options.find((o) => o.id.toLowerCase() === key.toLowerCase());
    if (byId) return byId;
  }
  return options.find((o) => o.slug === key);
}

/**
 * The option of `def` with this slug or id. Definitions may come from the cache, so a miss
 * looks once more at fresh definitions before it is reported (exit 4, with "did you mean").
 */
export async function resolveOption(
  deps: Deps,
  objectType: string,
  def: PropertyDefinition,
  slugOrId: string,
): Promise<{ def: PropertyDefinition; option: PropertyOption }> {
  const found = lookupOption(def, slugOrId);
  if (found) return { def, option: found };
  const fresh =
    (await definitionsFor(deps, objectType, { refresh: true })).find((d) => d.id === def.id) ?? def;
  const again = lookupOption(fresh, slugOrId);
  if (again) return { def: fresh, option: again };
  const slugs = (fresh.options ?? []).map((o) => o.slug);
  const near = closest(slugOrId, slugs);
  throw new NotFoundError(
    `The ${objectType} property "${fresh.slug}" has no option "${slugOrId}".${near.length > 0 ? ` Did you mean ${near.map((s) => `"${s}"`).join(', ')}?` : ''}`,
    slugs.length > 0
      ? `Its options: ${slugs.join(', ')}.`
      : `It has no options yet; add one with \`ws props options add ${objectType} ${fresh.slug} VALUE\`.`,
  );
}

/** Print a JSON document for verbs whose only output is a confirmation (delete, remove). */
export function printJsonResult(deps: Deps, value: unknown): void {
  if (deps.format === 'json') deps.io.println(JSON.stringify(value, null, 2));
  else if (deps.format === 'ndjson') deps.io.println(JSON.stringify(value));
}

/** The optional fields of an option, from flags; null clears a field (--no-color and the like). */
export interface OptionFields {
  color?: string | null | undefined;
  description?: string | null | undefined;
  icon?: string | null | undefined;
  group?: string | null | undefined;
  sortIndex?: number | null | undefined;
}

/**
 * The colours an option may have: those the service's own options use (the API publishes no
 * list). Any other (`rainbow`) would show as no colour, so --color-scheme refuses it.
 */
export const COLOR_SCHEMES = [
  'blue',
  'gray',
  'green',
  'orange',
  'pink',
  'purple',
  'red',
  'teal',
  'yellow',
] as const;

export function optionFields(f: OptionFields): Partial<
  Record<'color_scheme' | 'description' | 'icon' | 'option_group', string | null> & {
    sort_index: number | null;
  }
> {
  if (typeof f.color === 'string' && !(COLOR_SCHEMES as readonly string[]).includes(f.color)) {
    const near = didYouMean(f.color, COLOR_SCHEMES);
    throw new UsageError(
      `--color-scheme "${f.color}" is not a colour of the workspace's options.`,
      `${near ? `${near} ` : ''}Colours: ${COLOR_SCHEMES.join(', ')}.`,
    );
  }
  return {
    ...(f.color !== undefined ? { color_scheme: f.color } : {}),
    ...(f.description !== undefined ? { description: f.description } : {}),
    ...(f.icon !== undefined ? { icon: f.icon } : {}),
    ...(f.group !== undefined ? { option_group: f.group } : {}),
    ...(f.sortIndex !== undefined ? { sort_index: f.sortIndex } : {}),
  };
}

/** A 409 answer gets a hint saying where to look; other errors pass unchanged. */
export function hintOnConflict(hint: string): (err: unknown) => never {
  return (err) => {
    throw err instanceof ApiError && err.status === 409 ? annotateError(err, { hint }) : err;
  };
}

/**
 * Ask before deleting a property or removing an option, which cannot be undone: "Delete the
 * LABEL? This cannot be undone."; without --yes or a terminal, refused ("Not deleting the
 * LABEL without confirmation.").
 */
export function confirmForGood(
  deps: Deps,
  verb: 'Delete' | 'Remove',
  label: string,
): Promise<void> {
  const doing = verb === 'Delete' ? 'deleting' : 'removing';
  return confirmOrRefuse(
    deps.io,
    deps.prompter,
    `${verb} the ${label}? This cannot be undone.`,
    `Not ${doing} the ${label} without confirmation.`,
  );
}

/**
 * Make a change through the API and keep the cached definitions of the type in step with
 * its answer (`update`); when the call fails, the type's cached definitions are forgotten,
 * since what the API did is not known.
 */
export async function changeDefinitions<T>(
  deps: Deps,
  objectType: string,
  call: () => Promise<T>,
  update: (defs: PropertyDefinition[], result: T) => PropertyDefinition[],
): Promise<T> {
  let result: T;
  try {
    result = await call();
  } catch (err) {
    await invalidateDefinitions(deps, objectType);
    throw err;
  }
  await updateCachedDefinitions(deps, objectType, (defs) => update(defs, result));
  return result;
}

/** Replace (or add) one definition in a list. */
export function withDefinition(
  defs: PropertyDefinition[],
  def: PropertyDefinition,
): PropertyDefinition[] {
  return [...defs.filter((d) => d.id !== def.id), def];
}

/** Replace (or add, or with `remove` drop) one option of one definition in a list. */
export function withOption(
  defs: PropertyDefinition[],
  propertyId: string,
  option: PropertyOption,
  remove = false,
): PropertyDefinition[] {
  return defs.map((d) => {
    if (d.id !== propertyId) return d;
    const rest = (d.options ?? []).filter((o) => o.id !== option.id);
    return { ...d, options: orderedOptions({ ...d, options: remove ? rest : [...rest, option] }) };
  });
}
