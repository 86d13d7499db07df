// Property paths of views: `stage`, or a dot-path through reference properties such as
// `organization.industry` (api.md: "dot-paths allowed for references"). A path is checked
// against the definitions its object type shows on the view's list; each further segment
// against the referenced object type's definitions.

import type { FieldError } from '../../errors.ts';
import { isPropertyObjectType, isReferenceType } from '../properties/catalogue.ts';
import type { PropertiesModel } from '../properties/model.ts';
import type { PropertyDefinition } from '../properties/types.ts';

/** The object type a reference type points at: `ref_organization` → `organization`. */
export function referencedType(type: string): string {
  return type.replace(/^(multi)?ref_/, '');
}

export type Resolved =
  | { ok: true; definitions: PropertyDefinition[] }
  | { ok: false; code: string; message: string };

/** Most slugs in a dot-path (deal → contact.organization.name is 3). */
export const MAX_PATH_STEPS = 4;

/**
 * The definitions along `path`: the first slug among what the object type shows on the
 * list, each next one among the workspace definitions of the type the previous reference
 * points at. Every step but the last must be a reference to an object type with
 * properties (the same rule as record queries, which run the view).
 */
export function resolvePath(
  props: PropertiesModel,
  teamId: string,
  objectType: string,
  listId: string | null,
  path: string,
): Resolved {
  const segments = path.split('.');
  if (segments.some((s) => s === '') || segments.length > MAX_PATH_STEPS) {
    return {
      ok: false,
      code: 'invalid_path',
      message: `'${path}' is not a property slug or a dot-path of at most ${MAX_PATH_STEPS} slugs (like organization.name).`,
    };
  }
  const definitions: PropertyDefinition[] = [];
  let type = objectType;
  let scope = listId;
  for (const [i, segment] of segments.entries()) {
    const def = props.bySlug(teamId, type, segment, scope);
    if (def === undefined) {
      const known = props
        .visible(teamId, type, scope)
        .map((d) => d.slug)
        .join(', ');
      const where = scope === null ? '' : ` on list ${scope}`;
      return {
        ok: false,
        code: 'unknown_property',
        message: `'${path}': ${type} has no property '${segment}'${where}. Known properties: ${known || '(none)'}.`,
      };
    }
    definitions.push(def);
    if (i === segments.length - 1) break;
    const target = referencedType(def.type);
    if (!isReferenceType(def.type) || !isPropertyObjectType(target)) {
      const why = isReferenceType(def.type)
        ? `it references ${target} records, which have no properties here`
        : `it has type ${def.type}; dot-paths only follow ref_ and multiref_ properties`;
      return {
        ok: false,
        code: 'invalid_path',
        message: `'${path}' cannot follow '${segment}' of ${type}: ${why}.`,
      };
    }
    type = target;
    scope = null;
  }
  return { ok: true, definitions };
}

/** The parts of a view that name properties. */
export interface PropertyPaths {
  select?: readonly string[] | null;
  filter?: readonly Record<string, unknown>[] | null;
  sort?: readonly Record<string, unknown>[] | null;
  group_by?: string | null;
}

/** Each path of a view with the field it sits at in a request body. */
export function* pathsOf(view: PropertyPaths): Generator<[field: string, path: string]> {
  for (const [i, path] of (view.select ?? []).entries()) yield [`body.select[${i}]`, path];
  for (const part of ['filter', 'sort'] as const) {
    for (const [i, entry] of (view[part] ?? []).entries()) {
      for (const path of Object.keys(entry)) yield [`body.${part}[${i}].${path}`, path];
    }
  }
  if (view.group_by !== undefined && view.group_by !== null) yield ['body.group_by', view.group_by];
}

/** Field errors for every path of `view` that does not resolve. */
export function checkPaths(
  props: PropertiesModel,
  teamId: string,
  objectType: string,
  listId: string | null,
  view: PropertyPaths,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, path] of pathsOf(view)) {
    const resolved = resolvePath(props, teamId, objectType, listId, path);
    if (!resolved.ok) errors.push({ field, message: resolved.message, code: resolved.code });
    else if (field === 'body.group_by' && resolved.definitions.length !== 1) {
      errors.push({
        field,
        message: `'${path}': group_by takes a property of the ${objectType} itself, not a dot-path.`,
        code: 'not_allowed',
      });
    }
  }
  return errors;
}
