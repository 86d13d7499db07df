// Property definitions: the shared defaults of every object type (defaults.ts, the same in
// every sandbox, never stored) and the team's own definitions, kept in the store's
// `properties` slice. The model owns the rules of definitions: unique names and slugs within
// their scope, slugs derived from names, options only on select types (their own rules in
// options.ts), roles that suit the type, list scoping (with the deprecated crm_id mirroring
// list_id), and locked defaults. The shapes are in types.ts, the data file's checks in
// snapshot.ts.
//
// Record writes call visible() / bySlug() for every write: those answer from a cache per
// (team, object type, list) that is dropped on every change of definitions, so their cost
// never grows with the number of records.

import { randomUUID } from 'node:crypto';
import { entryOf } from '../../../util/maps.ts';
import { notFound } from '../../errors.ts';
import { defineSlice, SliceModel, SnapshotError, type Store, snapshotItems } from '../../store.ts';
import {
  canonicalRole,
  freeSlug,
  hasOptions,
  type PropertyType,
  roleById,
  rolesFor,
  slugify,
} from './catalogue.ts';
import { DEFAULT_DEFINITIONS, isDefaultId } from './defaults.ts';
import { type PropertyEvent, propertyEvents, propertyLeaving } from './events.ts';
import {
  addOption,
  changeOption,
  checkOptionOnList,
  lookUpOption,
  type OptionTable,
  optionsShownOn,
  optionTable,
  requireOption,
} from './options.ts';
import {
  checkSlug,
  conflict,
  describeDefinition,
  fieldError,
  sameName,
  setList,
  summary,
} from './rules.ts';
import { parseDefinition } from './snapshot.ts';
import type {
  DefinitionChanges,
  NewDefinition,
  NewOption,
  OptionChanges,
  PropertyDefinition,
  PropertyOption,
} from './types.ts';

/** A cached answer of visible(). */
interface Visible {
  list: readonly PropertyDefinition[];
  bySlug: ReadonlyMap<string, PropertyDefinition>;
}

const NO_DEFINITIONS: readonly PropertyDefinition[] = [];

export class PropertiesModel extends SliceModel {
  /** Team definitions by team, then object type, in creation order. */
  private teams = new Map<string, Map<string, PropertyDefinition[]>>();
  /** Answers of visible() by team, object type and list id (null: the workspace). */
  private cache = new Map<string, Map<string, Map<string | null, Visible>>>();
  /** Option tables by definition and list id (null: the workspace), built on first use. */
  private optionTables = new Map<
    PropertyDefinition,
    Map<string | null, OptionTable<PropertyOption>>
  >();

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
    return optionsShownOn(def, listId);
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
    const tables = entryOf(this.optionTables, def, () => new Map());
    const table = entryOf(tables, listId, () => optionTable(this.optionsOn(def, listId)));
    return lookUpOption(table, input);
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
      alias: input.alias ?? null,
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
    this.announce(() => ({
      type: 'property.created',
      teamId,
      objectType,
      before: null,
      after: structuredClone(def),
    }));
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
    if (changes.list_id !== undefined && changes.list_id !== def.list_id) {
      const leaving = { teamId, objectType, definition: def, to: changes.list_id };
      this.ctx.events.check(propertyLeaving, leaving);
    }
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
    const before = this.copyIfListened(def);
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
    this.announce(() => ({
      type: 'property.updated',
      teamId,
      objectType,
      before: before!,
      after: structuredClone(def),
    }));
    return def;
  }

  remove(teamId: string, objectType: string, id: string, type: string): PropertyDefinition {
    const def = this.editable(teamId, objectType, id, type, 'query.type');
    this.ctx.events.check(propertyLeaving, { teamId, objectType, definition: def, to: undefined });
    const list = this.ownList(teamId, objectType);
    list.splice(list.indexOf(def), 1);
    this.changed();
    this.announce(() => ({
      type: 'property.deleted',
      teamId,
      objectType,
      before: structuredClone(def),
      after: null,
    }));
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
    this.announce(() => ({
      type: 'option.created',
      teamId,
      objectType,
      property: structuredClone(def),
      before: null,
      after: structuredClone(option),
    }));
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
    const before = this.copyIfListened(option);
    changeOption(def, option, changes);
    def.updated_at = this.ctx.clock.iso();
    this.changed();
    this.announce(() => ({
      type: 'option.updated',
      teamId,
      objectType,
      property: structuredClone(def),
      before: before!,
      after: structuredClone(option),
    }));
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
    checkOptionOnList(option, listId);
    def.options = (def.options ?? []).filter((o) => o !== option);
    def.updated_at = this.ctx.clock.iso();
    this.changed();
    this.announce(() => ({
      type: 'option.deleted',
      teamId,
      objectType,
      property: structuredClone(def),
      before: structuredClone(option),
      after: null,
    }));
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
    const teams = new Map<string, Map<string, PropertyDefinition[]>>();
    const ids = new Set<string>();
    for (const [item, at] of snapshotItems(data, 'store.slices.properties', 'definitions')) {
      const def = parseDefinition(item, at);
      for (const id of [def.id, ...(def.options ?? []).map((o) => o.id)]) {
        if (ids.has(id) || isDefaultId(id)) throw new SnapshotError(at, `duplicate id ${id}`);
        ids.add(id);
      }
      entryOf(
        entryOf(teams, def.team_id!, () => new Map()),
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
    return entryOf(
      entryOf(this.teams, teamId, () => new Map()),
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
    const types = entryOf(this.cache, teamId, () => new Map());
    entryOf(types, objectType, () => new Map()).set(listId, view);
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

  /** A copy of `value` as it is now, when someone listens to property events. */
  private copyIfListened<T>(value: T): T | undefined {
    return this.ctx.events.listening(propertyEvents) ? structuredClone(value) : undefined;
  }

  /** Emit the event `make` builds, when someone listens (copies cost nothing otherwise). */
  private announce(make: () => PropertyEvent): void {
    if (this.ctx.events.listening(propertyEvents)) this.ctx.events.emit(propertyEvents, make());
  }

  private changed(notify = true): void {
    this.cache.clear();
    this.optionTables.clear();
    if (notify) this.ctx.changed();
  }
}

export const propertiesSlice = defineSlice('properties', (ctx) => new PropertiesModel(ctx));

/** The properties model of `store`. */
export function propertiesOf(store: Store): PropertiesModel {
  return store.slice(propertiesSlice);
}
