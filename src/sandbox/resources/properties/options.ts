// Options of select definitions (select_str, multiselect_str): the rules of their values
// and slugs (unique within the definition, ignoring case for values), the list an option
// shows on (a list-scoped definition's options stay on its list), their order (sort_index),
// and the tables that find the option a written or filtered value names.

import { randomUUID } from 'node:crypto';
import {
  lookUpOption,
  type OptionTable,
  optionTable,
  optionsShownOn as shownOn,
} from '../../../filter/options.ts';
import { notFound } from '../../errors.ts';
import { freeSlug, slugify } from './catalogue.ts';
import { checkSlug, conflict, describeDefinition, fieldError, sameName, setList } from './rules.ts';
import {
  type NewOption,
  OPTION_FIELDS,
  type OptionChanges,
  type PropertyDefinition,
  type PropertyOption,
} from './types.ts';

/**
 * The options of `def` shown on a list: with listId undefined all of them; with null the
 * ones that show on every list; with a list id those plus that list's own.
 */
export function optionsShownOn(
  def: PropertyDefinition,
  listId?: string | null,
): readonly PropertyOption[] {
  return shownOn(def.options ?? [], listId);
}

/** The look-up table of options and the look-up itself are shared (src/filter/options.ts). */
export { lookUpOption, type OptionTable, optionTable };

/** Add a new option to `def` (400/409 naming fields under `at`); options stay sorted. */
export function addOption(def: PropertyDefinition, input: NewOption, at: string): PropertyOption {
  const options = def.options ?? [];
  const value = input.value.trim();
  checkOptionValue(def, options, value, `${at}.value`);
  let slug: string;
  if (input.slug !== undefined) {
    checkOptionSlug(def, options, input.slug, `${at}.slug`);
    slug = input.slug;
  } else {
    slug = freeSlug(slugify(value, 'option'), (s) => options.some((o) => o.slug === s));
  }
  const listId = optionListId(def, input.list_id, `${at}.list_id`);
  const last = options.reduce<number>((max, o) => Math.max(max, o.sort_index ?? -1), -1);
  const option: PropertyOption = {
    id: randomUUID(),
    slug,
    value,
    color_scheme: input.color_scheme ?? null,
    description: input.description ?? null,
    icon: input.icon ?? null,
    option_group: input.option_group ?? null,
    sort_index: input.sort_index === undefined ? last + 1 : input.sort_index,
    enabled: input.enabled ?? true,
    list_id: listId,
    crm_id: listId,
  };
  options.push(option);
  def.options = options;
  sortOptions(def);
  return option;
}

/** Set the given fields of an option of `def` (checked first: nothing changes on a 400/409). */
export function changeOption(
  def: PropertyDefinition,
  option: PropertyOption,
  changes: OptionChanges,
): void {
  const others = (def.options ?? []).filter((o) => o !== option);
  if (changes.value !== undefined) checkOptionValue(def, others, changes.value, 'body.value');
  if (changes.slug !== undefined) checkOptionSlug(def, others, changes.slug, 'body.slug');
  const listId =
    changes.list_id === undefined ? option.list_id : optionListId(def, changes.list_id);
  for (const field of OPTION_FIELDS) {
    const value = field === 'value' ? changes.value?.trim() : changes[field];
    if (value !== undefined) (option as unknown as Record<string, unknown>)[field] = value;
  }
  setList(option, listId);
  sortOptions(def);
}

/** The option of `def` with `optionId`, or 404. */
export function requireOption(def: PropertyDefinition, optionId: string): PropertyOption {
  const option = def.options?.find((o) => o.id === optionId);
  if (option === undefined) {
    throw notFound(
      `The property ${describeDefinition(def)} has no option with the id ${optionId}.`,
    );
  }
  return option;
}

/** 400 when a request names a list (`query.list_id`) that is not the option's. */
export function checkOptionOnList(option: PropertyOption, listId: string | undefined): void {
  if (listId === undefined || listId === option.list_id) return;
  const where =
    option.list_id === null ? 'shows on every list' : `belongs to list ${option.list_id}`;
  throw fieldError(
    'query.list_id',
    'mismatch',
    `The option '${option.value}' (slug ${option.slug}, id ${option.id}) ${where}, not to list ${listId}; send its list_id or leave list_id out.`,
  );
}

function checkOptionValue(
  def: PropertyDefinition,
  others: readonly PropertyOption[],
  value: string,
  field: string,
): void {
  if (value.trim() === '') throw fieldError(field, 'empty', 'value must not be blank.');
  const taken = others.find((o) => sameName(o.value, value.trim()));
  if (taken !== undefined) {
    throw conflict(
      `The property ${describeDefinition(def)} already has an option '${taken.value}' (slug ${taken.slug}, id ${taken.id}). Option values are unique within a property.`,
      { existing: { id: taken.id, slug: taken.slug, value: taken.value }, field },
    );
  }
}

function checkOptionSlug(
  def: PropertyDefinition,
  others: readonly PropertyOption[],
  slug: string,
  field: string,
): void {
  checkSlug(slug, field, 'option');
  const taken = others.find((o) => o.slug === slug);
  if (taken !== undefined) {
    throw conflict(
      `The option slug '${slug}' is already used by option '${taken.value}' (id ${taken.id}) of the property ${describeDefinition(def)}. Choose another slug, or leave slug out to derive one from the value.`,
      { existing: { id: taken.id, slug: taken.slug, value: taken.value }, field },
    );
  }
}

/** The list of a new or moved option: a list-scoped definition's options stay on its list. */
function optionListId(
  def: PropertyDefinition,
  listId: string | null | undefined,
  field = 'body.list_id',
): string | null {
  if (def.list_id === null) return listId ?? null;
  if (listId !== undefined && listId !== null && listId !== def.list_id) {
    throw fieldError(
      field,
      'mismatch',
      `The property ${describeDefinition(def)} belongs to list ${def.list_id}; its options can only be on that list. Leave list_id out or send ${def.list_id}.`,
    );
  }
  return def.list_id;
}

/** Options by sort_index (those without one last), ties in creation order. */
function sortOptions(def: PropertyDefinition): void {
  def.options?.sort((a, b) => (a.sort_index ?? Infinity) - (b.sort_index ?? Infinity) || 0);
}
