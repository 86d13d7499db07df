// Property definitions: the shared defaults of every object type (defaults.ts, the same in
// every sandbox, never stored) and the team's own definitions, kept in the store's
// `properties` slice. The model owns every rule about them: unique names and slugs within
// their scope, slugs derived from names, options only on select types, roles that suit the
// type, list scoping (with the deprecated crm_id mirroring list_id), and locked defaults.
//
// Record writes call visible() / bySlug() for every write: those answer from a cache per
// (team, object type, list) that is dropped on every change of definitions, so their cost
// never grows with the number of records.

import { randomUUID } from 'node:crypto';
import { isPlainObject, isUuid } from '../../../util/guards.ts';
import { invalidRequest, notFound, SandboxError } from '../../errors.ts';
import {
  defineSlice,
  type Slice,
  type SliceContext,
  SnapshotError,
  type Store,
} from '../../store.ts';
import {
  canonicalRole,
  freeSlug,
  hasOptions,
  isPropertyObjectType,
  isPropertyType,
  PROPERTY_OBJECT_TYPES,
  type PropertyType,
  roleById,
  rolesFor,
  SLUG_PATTERN,
  slugify,
} from './catalogue.ts';
import { DEFAULT_DEFINITIONS } from './defaults.ts';

export interface PropertyOption {
  id: string;
  slug: string;
  /** Display value. */
  value: string | null;
  color_scheme: string | null;
  description: string | null;
  icon: string | null;
  option_group: string | null;
  sort_index: number | null;
  /** null: the option shows on every list the definition shows on. */
  list_id: string | null;
  /** Deprecated mirror of list_id. */
  crm_id: string | null;
}

export interface PropertyDefinition {
  id: string;
  object_type: string;
  slug: string;
  type: PropertyType;
  /** Only value: 'app_stage' (the pipeline stage definition). */
  alias: string | null;
  /** Deprecated mirror of list_id. */
  crm_id: string | null;
  /** null: workspace-global (or a shared default). */
  list_id: string | null;
  locked: boolean;
  name: string | null;
  native: boolean;
  /** Present (possibly empty) exactly on select_str and multiselect_str definitions. */
  options?: PropertyOption[];
  required: boolean;
  role_id: string | null;
  /** null on shared defaults. */
  team_id: string | null;
  icon: string | null;
  /** A display setting: a disabled definition still validates and keeps its values. */
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface NewOption {
  value: string;
  slug?: string;
  color_scheme?: string | null;
  description?: string | null;
  icon?: string | null;
  option_group?: string | null;
  sort_index?: number | null;
  list_id?: string | null;
}

export interface NewDefinition {
  name: string;
  type: PropertyType;
  slug?: string;
  icon?: string | null;
  /** Omitted or null: workspace-global. */
  list_id?: string | null;
  options?: NewOption[];
  required?: boolean;
  role_id?: string;
}

export interface DefinitionChanges {
  name?: string;
  icon?: string | null;
  enabled?: boolean;
  required?: boolean;
  /** Moves the definition to another list (null: workspace-global). */
  list_id?: string | null;
}

/** The fields of an option that create and patch bodies set (besides list_id). */
export const OPTION_FIELDS = [
  'value',
  'slug',
  'color_scheme',
  'description',
  'icon',
  'option_group',
  'sort_index',
] as const;

export type OptionChanges = Partial<Omit<PropertyOption, 'id' | 'crm_id'>> & { value?: string };

/** A cached answer of visible(). */
interface Visible {
  list: readonly PropertyDefinition[];
  bySlug: ReadonlyMap<string, PropertyDefinition>;
}

/** The options of a definition shown on a list, by what findOption() matches (first wins). */
interface OptionTable {
  /** By slug and by id. */
  exact: Map<string, PropertyOption>;
  /** By display value, trimmed and lower-cased. */
  byValue: Map<string, PropertyOption>;
  /** By slug, lower-cased. */
  bySlug: Map<string, PropertyOption>;
}

const NO_DEFINITIONS: readonly PropertyDefinition[] = [];

export function conflict(message: string, details?: Record<string, unknown>): SandboxError {
  return new SandboxError(409, 'conflict', message, undefined, details ? { details } : {});
}

function fieldError(field: string, code: string, message: string): SandboxError {
  return invalidRequest(message, [{ field, message, code }]);
}

function sameName(a: string | null, b: string): boolean {
  return a !== null && a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();
}

/** `'Deal size' (slug deal_size, id …)`: how messages name a definition. */
export function describeDefinition(def: PropertyDefinition): string {
  return `'${def.name ?? def.slug}' (slug ${def.slug}, id ${def.id})`;
}

export class PropertiesModel implements Slice {
  /** Team definitions by team, then object type, in creation order. */
  private teams = new Map<string, Map<string, PropertyDefinition[]>>();
  /** Answers of visible() by team, object type and list id (null: the workspace). */
  private cache = new Map<string, Map<string, Map<string | null, Visible>>>();
  /** Option tables by definition and list id (null: the workspace), built on first use. */
  private optionTables = new Map<PropertyDefinition, Map<string | null, OptionTable>>();
  private readonly ctx: SliceContext;

  constructor(ctx: SliceContext) {
    this.ctx = ctx;
  }

  // ---------------------------------------------------------------- reads

  /** The shared default definitions of an object type (frozen). */
  defaults(objectType: string): readonly PropertyDefinition[] {
    return DEFAULT_DEFINITIONS.get(objectType) ?? NO_DEFINITIONS;
  }

  /**
   * Definitions a record of this type sees: shared defaults, the team's workspace-global
   * ones, and (with listId) that list's own. Cached; treat the answer as read-only.
   */
  visible(
    teamId: string,
    objectType: string,
    listId?: string | null,
  ): readonly PropertyDefinition[] {
    return this.view(teamId, objectType, listId ?? null).list;
  }

  /** The visible definition with this slug. */
  bySlug(
    teamId: string,
    objectType: string,
    slug: string,
    listId?: string | null,
  ): PropertyDefinition | undefined {
    return this.visibleBySlug(teamId, objectType, listId).get(slug);
  }

  /** The visible definitions by slug. Cached; read-only. */
  visibleBySlug(
    teamId: string,
    objectType: string,
    listId?: string | null,
  ): ReadonlyMap<string, PropertyDefinition> {
    return this.view(teamId, objectType, listId ?? null).bySlug;
  }

  /** Every definition of the type: defaults, workspace-global ones and every list's own. */
  all(teamId: string, objectType: string): PropertyDefinition[] {
    return [...this.defaults(objectType), ...this.own(teamId, objectType)];
  }

  /** A definition of this team and object type (a shared default or the team's own). */
  get(teamId: string, objectType: string, id: string): PropertyDefinition | undefined {
    return (
      this.defaults(objectType).find((d) => d.id === id) ??
      this.own(teamId, objectType).find((d) => d.id === id)
    );
  }

  /**
   * The options of `def` shown on a list: with listId undefined all of them; with null the
   * ones that show on every list; with a list id those plus that list's own.
   */
  optionsOn(def: PropertyDefinition, listId?: string | null): readonly PropertyOption[] {
    const options = def.options ?? [];
    if (listId === undefined) return options;
    // Most options show on every list: then the definition's own array is the answer.
    for (const option of options) {
      if (option.list_id !== null && option.list_id !== listId) {
        return options.filter((o) => o.list_id === null || o.list_id === listId);
      }
    }
    return options;
  }

  /**
   * The option a written or filtered select value names among those shown on `listId`: its
   * slug, its id, or (when neither matches) its display value or slug compared
   * case-insensitively.
   */
  findOption(
    def: PropertyDefinition,
    listId: string | null,
    input: string,
  ): PropertyOption | undefined {
    let tables = this.optionTables.get(def);
    if (tables === undefined) {
      tables = new Map();
      this.optionTables.set(def, tables);
    }
    let table = tables.get(listId);
    if (table === undefined) {
      table = optionTable(this.optionsOn(def, listId));
      tables.set(listId, table);
    }
    const exact = table.exact.get(input);
    if (exact !== undefined) return exact;
    const folded = input.trim().toLowerCase();
    return table.byValue.get(folded) ?? table.bySlug.get(folded);
  }

  /**
   * The option of a select definition that a written value names, by slug or by id, among
   * the options shown on `listId` (null: the options of every list).
   */
  resolveOption(
    def: PropertyDefinition,
    value: string,
    listId: string | null = null,
  ): PropertyOption | undefined {
    return this.optionsOn(def, listId).find((o) => o.slug === value || o.id === value);
  }

  // ---------------------------------------------------------------- definitions

  create(teamId: string, objectType: string, input: NewDefinition): PropertyDefinition {
    const listId = input.list_id ?? null;
    const name = input.name.trim();
    if (name === '') throw fieldError('body.name', 'empty', 'name must not be blank.');
    const scope = this.scope(teamId, objectType, listId);
    this.checkName(scope, objectType, name, 'body.name');

    let slug: string;
    if (input.slug !== undefined) {
      checkSlug(input.slug, 'body.slug', 'property');
      const taken = scope.find((d) => d.slug === input.slug);
      if (taken !== undefined) {
        throw conflict(
          `The slug '${input.slug}' is already used by the ${objectType} property ${describeDefinition(taken)}. Choose another slug, or leave slug out to derive one from the name.`,
          { existing: summary(taken) },
        );
      }
      slug = input.slug;
    } else {
      const base = slugify(name, 'property');
      slug = freeSlug(base === 'id' ? 'id_2' : base, (s) => scope.some((d) => d.slug === s));
    }

    const role = this.role(input.type, input.role_id);
    if (input.options !== undefined && input.options.length > 0 && !hasOptions(input.type)) {
      throw fieldError(
        'body.options',
        'not_allowed',
        `options are only allowed on select_str and multiselect_str properties; a ${input.type} property takes none. Leave options out, or use type select_str or multiselect_str.`,
      );
    }

    const at = this.ctx.clock.iso();
    const def: PropertyDefinition = {
      id: randomUUID(),
      object_type: objectType,
      slug,
      name,
      type: input.type,
      alias: null,
      icon: input.icon ?? null,
      enabled: true,
      required: input.required ?? false,
      locked: false,
      native: false,
      role_id: role,
      team_id: teamId,
      list_id: listId,
      crm_id: listId,
      created_at: at,
      updated_at: at,
    };
    if (hasOptions(input.type)) {
      def.options = [];
      for (const [i, option] of (input.options ?? []).entries()) {
        addOption(def, option, `body.options[${i}]`);
      }
    }
    this.ownList(teamId, objectType).push(def);
    this.changed();
    return def;
  }

  update(
    teamId: string,
    objectType: string,
    id: string,
    type: string,
    changes: DefinitionChanges,
  ): PropertyDefinition {
    const def = this.editable(teamId, objectType, id, type, 'body.type');
    const listId = changes.list_id === undefined ? def.list_id : changes.list_id;
    const name = changes.name === undefined ? def.name : changes.name.trim();
    if (name === '') throw fieldError('body.name', 'empty', 'name must not be blank.');
    if (listId !== def.list_id || (name !== null && name !== def.name)) {
      const scope = this.scope(teamId, objectType, listId).filter((d) => d.id !== def.id);
      if (name !== null) this.checkName(scope, objectType, name, 'body.name');
      const taken = scope.find((d) => d.slug === def.slug);
      if (taken !== undefined) {
        throw conflict(
          `The ${objectType} property ${describeDefinition(def)} cannot move to ${listId === null ? 'the whole workspace' : `list ${listId}`}: its slug is used there by ${describeDefinition(taken)}.`,
          { existing: summary(taken) },
        );
      }
    }
    if (name !== null) def.name = name;
    if (changes.icon !== undefined) def.icon = changes.icon;
    if (changes.enabled !== undefined) def.enabled = changes.enabled;
    if (changes.required !== undefined) def.required = changes.required;
    if (listId !== def.list_id) {
      // Options that followed the definition's list follow it to the new one.
      for (const option of def.options ?? []) {
        if (option.list_id === def.list_id) setList(option, listId);
      }
      setList(def, listId);
    }
    def.updated_at = this.ctx.clock.iso();
    this.changed();
    return def;
  }

  remove(teamId: string, objectType: string, id: string, type: string): PropertyDefinition {
    const def = this.editable(teamId, objectType, id, type, 'query.type');
    const list = this.ownList(teamId, objectType);
    list.splice(list.indexOf(def), 1);
    this.changed();
    return def;
  }

  /**
   * A team definition that may be changed: 404 when there is none, 400 when `type` (when
   * given) is not its type, 409 when it is a locked shared default.
   */
  editable(
    teamId: string,
    objectType: string,
    id: string,
    type: string | undefined,
    typeField: string,
  ): PropertyDefinition {
    const def = this.get(teamId, objectType, id);
    if (def === undefined) {
      throw notFound(
        `No ${objectType} property has the id ${id}. List them with GET /v2/prism/${teamId}/${objectType}/properties.`,
      );
    }
    if (type !== undefined && def.type !== type) {
      throw fieldError(
        typeField,
        'mismatch',
        `The ${objectType} property ${describeDefinition(def)} has type ${def.type}, not ${type}; send type ${def.type} (the type of a definition cannot change).`,
      );
    }
    if (def.locked) {
      throw conflict(
        `The ${objectType} property ${describeDefinition(def)} is a shared default definition: it is locked and cannot be changed or deleted, nor can its options. Create a property of your own instead.`,
        { locked: true, property_id: def.id },
      );
    }
    return def;
  }

  // ---------------------------------------------------------------- options

  createOption(
    teamId: string,
    objectType: string,
    propertyId: string,
    type: string,
    input: NewOption,
  ): PropertyOption {
    const def = this.selectDefinition(teamId, objectType, propertyId, type, 'body.type');
    const option = addOption(def, input, 'body');
    def.updated_at = this.ctx.clock.iso();
    this.changed();
    return option;
  }

  updateOption(
    teamId: string,
    objectType: string,
    propertyId: string,
    optionId: string,
    type: string,
    changes: OptionChanges,
  ): PropertyOption {
    const def = this.selectDefinition(teamId, objectType, propertyId, type, 'body.type');
    const option = requireOption(def, optionId);
    const others = (def.options ?? []).filter((o) => o !== option);
    if (changes.value !== undefined) checkOptionValue(def, others, changes.value, 'body.value');
    if (changes.slug !== undefined) checkOptionSlug(def, others, changes.slug, 'body.slug');
    const listId =
      changes.list_id === undefined ? option.list_id : optionList(def, changes.list_id);
    for (const field of OPTION_FIELDS) {
      const value = field === 'value' ? changes.value?.trim() : changes[field];
      if (value !== undefined) (option as unknown as Record<string, unknown>)[field] = value;
    }
    setList(option, listId);
    sortOptions(def);
    def.updated_at = this.ctx.clock.iso();
    this.changed();
    return option;
  }

  removeOption(
    teamId: string,
    objectType: string,
    propertyId: string,
    optionId: string,
    type: string | undefined,
    listId?: string,
  ): PropertyOption {
    const def = this.selectDefinition(teamId, objectType, propertyId, type, 'query.type');
    const option = requireOption(def, optionId);
    if (listId !== undefined && listId !== option.list_id) {
      const where =
        option.list_id === null ? 'shows on every list' : `belongs to list ${option.list_id}`;
      throw fieldError(
        'query.list_id',
        'mismatch',
        `The option '${option.value}' (slug ${option.slug}, id ${option.id}) ${where}, not to list ${listId}; send its list_id or leave list_id out.`,
      );
    }
    def.options = (def.options ?? []).filter((o) => o !== option);
    def.updated_at = this.ctx.clock.iso();
    this.changed();
    return option;
  }

  // ---------------------------------------------------------------- slice

  reset(): void {
    this.teams = new Map();
    this.changed(false);
  }

  isEmpty(): boolean {
    for (const types of this.teams.values()) {
      for (const defs of types.values()) if (defs.length > 0) return false;
    }
    return true;
  }

  /** The team definitions, in creation order (shared defaults are never stored). */
  toJSON(): PropertyDefinition[] {
    const out: PropertyDefinition[] = [];
    for (const types of this.teams.values()) {
      for (const defs of types.values()) out.push(...defs);
    }
    return out;
  }

  load(data: unknown): void {
    const base = 'store.slices.properties';
    if (!Array.isArray(data)) throw new SnapshotError(base, 'must be an array of definitions');
    const teams = new Map<string, Map<string, PropertyDefinition[]>>();
    const ids = new Set<string>();
    for (const [i, item] of data.entries()) {
      const def = parseDefinition(item, `${base}[${i}]`);
      for (const id of [def.id, ...(def.options ?? []).map((o) => o.id)]) {
        if (ids.has(id) || isDefaultId(id)) {
          throw new SnapshotError(`${base}[${i}]`, `duplicate id ${id}`);
        }
        ids.add(id);
      }
      entry(
        entry(teams, def.team_id!, () => new Map()),
        def.object_type,
        () => [],
      ).push(def);
    }
    this.teams = teams;
    this.cache.clear();
    this.optionTables.clear();
  }

  // ---------------------------------------------------------------- internals

  private own(teamId: string, objectType: string): readonly PropertyDefinition[] {
    return this.teams.get(teamId)?.get(objectType) ?? NO_DEFINITIONS;
  }

  private ownList(teamId: string, objectType: string): PropertyDefinition[] {
    return entry(
      entry(this.teams, teamId, () => new Map()),
      objectType,
      () => [],
    );
  }

  private view(teamId: string, objectType: string, listId: string | null): Visible {
    const found = this.cache.get(teamId)?.get(objectType)?.get(listId);
    if (found !== undefined) return found;
    const list = [
      ...this.defaults(objectType),
      ...this.own(teamId, objectType).filter((d) => d.list_id === null || d.list_id === listId),
    ];
    const view = { list, bySlug: new Map(list.map((d) => [d.slug, d])) };
    const types = entry(this.cache, teamId, () => new Map());
    entry(types, objectType, () => new Map()).set(listId, view);
    return view;
  }

  /**
   * The definitions a definition scoped to `listId` is seen with, among which its name and
   * slug must be unique: for a list, what that list shows; for a workspace-global one,
   * every definition of the type (it shows on every list).
   */
  private scope(teamId: string, objectType: string, listId: string | null): PropertyDefinition[] {
    return listId === null
      ? this.all(teamId, objectType)
      : [...this.view(teamId, objectType, listId).list];
  }

  private checkName(
    scope: readonly PropertyDefinition[],
    objectType: string,
    name: string,
    field: string,
  ): void {
    const taken = scope.find((d) => sameName(d.name, name));
    if (taken === undefined) return;
    const where = taken.list_id === null ? '' : ` on list ${taken.list_id}`;
    throw conflict(
      `A ${objectType} property named '${name}' already exists${where}: ${describeDefinition(taken)}. Use that property, or choose another name.`,
      { existing: summary(taken), field },
    );
  }

  private role(type: PropertyType, roleId: string | undefined): string {
    if (roleId === undefined) return canonicalRole(type).id;
    const role = roleById(roleId);
    const suitable = rolesFor(type)
      .map((r) => `${r.slug} (${r.id})`)
      .join(', ');
    if (role === undefined) {
      throw fieldError(
        'body.role_id',
        'unknown',
        `No role has the id ${roleId}. Roles for type ${type}: ${suitable}; leave role_id out for the default.`,
      );
    }
    if (!role.types.includes(type)) {
      throw fieldError(
        'body.role_id',
        'mismatch',
        `The role ${role.slug} (${role.id}) does not suit type ${type}. Roles for type ${type}: ${suitable}.`,
      );
    }
    return role.id;
  }

  /** An editable select definition (see editable()); 400 when its type has no options. */
  private selectDefinition(
    teamId: string,
    objectType: string,
    propertyId: string,
    type: string | undefined,
    typeField: string,
  ): PropertyDefinition {
    const def = this.editable(teamId, objectType, propertyId, type, typeField);
    if (def.options === undefined) {
      throw fieldError(
        'path.propertyId',
        'not_allowed',
        `The ${objectType} property ${describeDefinition(def)} has type ${def.type}: only select_str and multiselect_str properties have options.`,
      );
    }
    return def;
  }

  private changed(notify = true): void {
    this.cache.clear();
    this.optionTables.clear();
    if (notify) this.ctx.changed();
  }
}

/** The value of `key` in `map`, set to make() first when missing. */
function optionTable(options: readonly PropertyOption[]): OptionTable {
  const table: OptionTable = { exact: new Map(), byValue: new Map(), bySlug: new Map() };
  for (const option of options) {
    setFirst(table.exact, option.slug, option);
    setFirst(table.exact, option.id, option);
    if (option.value !== null) setFirst(table.byValue, option.value.trim().toLowerCase(), option);
    setFirst(table.bySlug, option.slug.toLowerCase(), option);
  }
  return table;
}

function setFirst<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (!map.has(key)) map.set(key, value);
}

function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** The fields of a definition that error details carry. */
function summary(def: PropertyDefinition): Record<string, unknown> {
  return { id: def.id, slug: def.slug, name: def.name, list_id: def.list_id };
}

function setList(target: { list_id: string | null; crm_id: string | null }, listId: string | null) {
  target.list_id = listId;
  target.crm_id = listId;
}

function checkSlug(slug: string, field: string, what: 'property' | 'option'): void {
  if (!SLUG_PATTERN.test(slug)) {
    throw fieldError(
      field,
      'pattern',
      `The ${what} slug '${slug}' is not valid: use 1 to 64 lower-case letters, digits and underscores, starting with a letter or digit.`,
    );
  }
  if (what === 'property' && slug === 'id') {
    throw fieldError(
      field,
      'reserved',
      "The slug 'id' is reserved for the record id; choose another.",
    );
  }
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
function optionList(
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

function addOption(def: PropertyDefinition, input: NewOption, at: string): PropertyOption {
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
  const listId = optionList(def, input.list_id, `${at}.list_id`);
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
    list_id: listId,
    crm_id: listId,
  };
  options.push(option);
  def.options = options;
  sortOptions(def);
  return option;
}

/** Options by sort_index (those without one last), ties in creation order. */
function sortOptions(def: PropertyDefinition): void {
  def.options?.sort((a, b) => (a.sort_index ?? Infinity) - (b.sort_index ?? Infinity) || 0);
}

function requireOption(def: PropertyDefinition, optionId: string): PropertyOption {
  const option = def.options?.find((o) => o.id === optionId);
  if (option === undefined) {
    throw notFound(
      `The property ${describeDefinition(def)} has no option with the id ${optionId}.`,
    );
  }
  return option;
}

const DEFAULT_IDS = new Set(
  [...DEFAULT_DEFINITIONS.values()].flatMap((defs) =>
    defs.flatMap((d) => [d.id, ...(d.options ?? []).map((o) => o.id)]),
  ),
);

function isDefaultId(id: string): boolean {
  return DEFAULT_IDS.has(id);
}

// ---------------------------------------------------------------- snapshot parsing

type Check = (value: unknown) => boolean;
const isString: Check = (v) => typeof v === 'string';
const orNull =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
const isBool: Check = (v) => typeof v === 'boolean';

function checkFields(
  row: Record<string, unknown>,
  at: string,
  fields: Record<string, [Check, string]>,
): void {
  for (const [field, [check, expected]] of Object.entries(fields)) {
    if (!check(row[field])) throw new SnapshotError(`${at}.${field}`, `must be ${expected}`);
  }
}

function checkMirror(item: Record<string, unknown>, at: string): void {
  if (item['crm_id'] !== item['list_id']) {
    throw new SnapshotError(`${at}.crm_id`, 'must equal list_id (its deprecated mirror)');
  }
}

function parseOption(item: unknown, at: string): PropertyOption {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  checkFields(item, at, {
    id: [isUuid, 'a UUID'],
    slug: [(v) => typeof v === 'string' && SLUG_PATTERN.test(v), 'a slug'],
    value: [orNull(isString), 'a string or null'],
    color_scheme: [orNull(isString), 'a string or null'],
    description: [orNull(isString), 'a string or null'],
    icon: [orNull(isString), 'a string or null'],
    option_group: [orNull(isString), 'a string or null'],
    sort_index: [orNull((v) => typeof v === 'number' && Number.isFinite(v)), 'a number or null'],
    list_id: [orNull(isUuid), 'a UUID or null'],
  });
  checkMirror(item, at);
  const o = item as unknown as PropertyOption;
  return {
    id: o.id,
    slug: o.slug,
    value: o.value,
    color_scheme: o.color_scheme,
    description: o.description,
    icon: o.icon,
    option_group: o.option_group,
    sort_index: o.sort_index,
    list_id: o.list_id,
    crm_id: o.list_id,
  };
}

function parseDefinition(item: unknown, at: string): PropertyDefinition {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  checkFields(item, at, {
    id: [isUuid, 'a UUID'],
    object_type: [
      (v) => typeof v === 'string' && isPropertyObjectType(v),
      `one of ${PROPERTY_OBJECT_TYPES.join(', ')}`,
    ],
    slug: [(v) => typeof v === 'string' && SLUG_PATTERN.test(v), 'a slug'],
    name: [isString, 'a string'],
    type: [(v) => typeof v === 'string' && isPropertyType(v), 'a property type'],
    alias: [orNull(isString), 'a string or null'],
    icon: [orNull(isString), 'a string or null'],
    enabled: [isBool, 'a boolean'],
    required: [isBool, 'a boolean'],
    locked: [(v) => v === false, 'false (only shared defaults are locked)'],
    native: [(v) => v === false, 'false (only shared defaults are native)'],
    role_id: [orNull((v) => typeof v === 'string' && roleById(v) !== undefined), 'a known role id'],
    team_id: [isUuid, 'a UUID'],
    list_id: [orNull(isUuid), 'a UUID or null'],
    created_at: [isString, 'an ISO-8601 string'],
    updated_at: [isString, 'an ISO-8601 string'],
  });
  checkMirror(item, at);
  const d = item as unknown as PropertyDefinition;
  const def: PropertyDefinition = {
    id: d.id,
    object_type: d.object_type,
    slug: d.slug,
    name: d.name,
    type: d.type,
    alias: d.alias,
    icon: d.icon,
    enabled: d.enabled,
    required: d.required,
    locked: false,
    native: false,
    role_id: d.role_id,
    team_id: d.team_id,
    list_id: d.list_id,
    crm_id: d.list_id,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
  if (hasOptions(def.type)) {
    if (!Array.isArray(item['options'])) {
      throw new SnapshotError(`${at}.options`, 'must be an array on select types');
    }
    def.options = item['options'].map((o, i) => parseOption(o, `${at}.options[${i}]`));
  } else if (item['options'] !== undefined) {
    throw new SnapshotError(`${at}.options`, `must be absent on type ${def.type}`);
  }
  return def;
}

export const propertiesSlice = defineSlice('properties', (ctx) => new PropertiesModel(ctx));

/** The properties model of `store`. */
export function propertiesOf(store: Store): PropertiesModel {
  return store.slice(propertiesSlice);
}
