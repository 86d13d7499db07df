// The property definitions a record operation works with: which slugs a record of a type
// carries (in the workspace, or on a list), where a dot path leads, which record type a
// reference points at, and which option a select value names. Records, grants and imports
// read definitions through it. Everything comes from the properties model; nothing here
// keeps state.

import { optionList as describeOptions, isMultiValuedType } from '../../../filter/compare.ts';
import { optionRankIn } from '../../../filter/options.ts';
import { invalidRequest } from '../../errors.ts';
import { isObjectType, type ObjectType } from '../../object-types.ts';
import type { Store } from '../../store.ts';
import { propertiesOf } from './model.ts';
import type { PropertyDefinition, PropertyOption } from './types.ts';

/** Where definitions are looked up: a team's object type, in the workspace or on a list. */
export interface Scope {
  readonly store: Store;
  readonly teamId: string;
  readonly type: ObjectType;
  /** null: the workspace (shared defaults and the team's workspace-global definitions). */
  readonly listId: string | null;
}

/** The definitions visible in a scope (the properties model's cached array). */
export function definitionsIn(scope: Scope): readonly PropertyDefinition[] {
  return propertiesOf(scope.store).visible(scope.teamId, scope.type, scope.listId);
}

export function definitionIn(scope: Scope, slug: string): PropertyDefinition | undefined {
  return propertiesOf(scope.store).bySlug(scope.teamId, scope.type, slug, scope.listId);
}

/** The definitions visible in a scope by slug (the properties model's cached map). */
export function definitionsBySlug(scope: Scope): ReadonlyMap<string, PropertyDefinition> {
  return propertiesOf(scope.store).visibleBySlug(scope.teamId, scope.type, scope.listId);
}

/** The workspace scope of another object type of the same team. */
export function scopeOf(scope: Scope, type: ObjectType): Scope {
  return { store: scope.store, teamId: scope.teamId, type, listId: null };
}

export function isReference(def: PropertyDefinition): boolean {
  return def.type.startsWith('ref_') || def.type.startsWith('multiref_');
}

/** Types whose values are arrays: multi_str, multiselect_str and every multiref_*. */
export function isMultiValued(def: PropertyDefinition): boolean {
  return isMultiValuedType(def.type);
}

/** The record type a reference points at, when the sandbox keeps records of that type. */
export function referenceTarget(def: PropertyDefinition): ObjectType | undefined {
  if (!isReference(def)) return undefined;
  const target = def.type.replace(/^(multi)?ref_/, '');
  return isObjectType(target) ? target : undefined;
}

/** The options a value of `def` may name in a scope (all, or those shown on the list). */
export function optionsIn(scope: Scope, def: PropertyDefinition): readonly PropertyOption[] {
  return propertiesOf(scope.store).optionsOn(def, scope.listId);
}

/**
 * The option a written or filtered select value names: its slug, its id, or (when neither
 * matches) its display value or slug compared case-insensitively.
 */
export function findOption(
  scope: Scope,
  def: PropertyDefinition,
  input: string,
): PropertyOption | undefined {
  return propertiesOf(scope.store).findOption(def, scope.listId, input);
}

/** `lead, qualified, won`: the option slugs, for messages. */
export function optionList(scope: Scope, def: PropertyDefinition): string {
  return describeOptions(optionsIn(scope, def));
}

/** The position of an option in the definition's display order (unknown slugs last). */
export function optionRank(def: PropertyDefinition, slug: string): number {
  return optionRankIn(def.options ?? [], slug);
}

/** One step of a resolved path: the definition, and the scope it was found in. */
export interface PathStep {
  readonly def: PropertyDefinition;
  readonly scope: Scope;
}

/** Longest dot path followed (e.g. deal.contact.organization.name is 4 steps). */
export const MAX_PATH_STEPS = 4;

/**
 * Resolve a slug or a dot path (`organization.name`) against the definitions of `scope`:
 * every step but the last must be a reference to a record type the sandbox keeps. Throws
 * a 400 naming `field` when the path leads nowhere.
 */
export function resolvePath(scope: Scope, path: string, field: string): PathStep[] {
  const parts = path.split('.');
  if (parts.some((p) => p === '') || parts.length > MAX_PATH_STEPS) {
    throw fieldProblem(
      field,
      'invalid_path',
      `'${path}' is not a property slug or a dot path of at most ${MAX_PATH_STEPS} slugs (like organization.name).`,
    );
  }
  const steps: PathStep[] = [];
  let here = scope;
  for (const [i, slug] of parts.entries()) {
    const def = definitionIn(here, slug);
    if (def === undefined) throw unknownProperty(here, slug, field);
    steps.push({ def, scope: here });
    if (i === parts.length - 1) break;
    const target = referenceTarget(def);
    if (target === undefined) {
      const why = isReference(def)
        ? `it references ${def.type.replace(/^(multi)?ref_/, '')} records, which the API does not serve`
        : `it has type ${def.type}; dot paths only follow ref_ and multiref_ properties`;
      throw fieldProblem(
        field,
        'invalid_path',
        `'${path}' cannot follow '${slug}' of ${here.type}: ${why}.`,
      );
    }
    here = scopeOf(here, target);
  }
  return steps;
}

/** 400 for a slug no visible definition has, listing the known ones. */
export function unknownProperty(scope: Scope, slug: string, field: string) {
  const known = definitionsIn(scope).map((d) => d.slug);
  const where = scope.listId === null ? '' : ` on list ${scope.listId}`;
  return fieldProblem(
    field,
    'unknown_property',
    `${scope.type} has no property '${slug}'${where}. Known properties: ${known.join(', ') || '(none)'}. GET /v2/prism/${scope.teamId}/${scope.type}/properties lists them.`,
  );
}

/** A 400 invalid_request with one field error whose message is the answer's message. */
export function fieldProblem(field: string, code: string, message: string) {
  return invalidRequest(`${field}: ${message}`, [{ field, code, message }]);
}
