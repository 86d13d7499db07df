// Records as the API returns them. A record is `{ id, default, list? }`; a row of a list or
// query page is `{ id, properties }`. Reference values read back as `{ id, properties }`
// (and multi-references as arrays of them); `properties` holds the referenced record's
// values that a dot path selected (`organization.name`), else nothing. Select values are
// stored as option slugs and read back as such.

import { own } from '../../../util/guards.ts';
import {
  definitionsIn,
  isReference,
  referenceTarget,
  resolvePath,
  type Scope,
  scopeOf,
} from '../properties/scope.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import type { FieldNamer } from './filter.ts';
import { recordsOf } from './model.ts';
import type { StoredRecord, Values } from './types.ts';

/**
 * What a read selects: every value (with the definitions of the scope, looked up once per
 * request), or a tree of slugs (children follow references).
 */
export type Projection = AllValues | Selection;

interface AllValues {
  readonly all: ReadonlyMap<string, PropertyDefinition>;
}

type Selection = Map<string, SelectedNode>;

interface SelectedNode {
  def: PropertyDefinition;
  /** Slugs selected inside the referenced records (dot paths); undefined: none. */
  children: Selection | undefined;
}

/**
 * Compile a select list (slugs and dot paths; `id` is always returned and may be listed).
 * undefined selects every value. Throws 400 naming `name('select[i]')`.
 */
export function compileSelect(
  scope: Scope,
  select: readonly string[] | undefined,
  name: FieldNamer,
): Projection {
  if (select === undefined) return allValues(scope);
  const root: Selection = new Map();
  for (const [i, path] of select.entries()) {
    if (path === 'id') continue;
    const steps = resolvePath(scope, path, name(`select[${i}]`));
    let level = root;
    for (const [j, step] of steps.entries()) {
      let node = level.get(step.def.slug);
      if (node === undefined) {
        node = { def: step.def, children: undefined };
        level.set(step.def.slug, node);
      }
      if (j < steps.length - 1) {
        node.children ??= new Map();
        level = node.children;
      }
    }
  }
  return root;
}

/** Every value, read with the definitions of `scope`. */
export function allValues(scope: Scope): Projection {
  return { all: new Map(definitionsIn(scope).map((d) => [d.slug, d])) };
}

/** The values of a record a row shows: its workspace values, plus one list's when given. */
export function rowValues(record: Readonly<StoredRecord>, listId: string | null): Values {
  if (listId === null) return record.default;
  const listed = record.lists[listId];
  return listed === undefined ? record.default : { ...record.default, ...listed };
}

/** The `properties` of a row (or the `default` of a record) under a projection. */
export function project(scope: Scope, values: Values, projection: Projection): Values {
  const out: Values = {};
  if (!(projection instanceof Map)) {
    for (const [slug, value] of Object.entries(values)) {
      const def = projection.all.get(slug);
      out[slug] = def === undefined ? value : render(scope, def, value, undefined);
    }
    return out;
  }
  for (const [slug, node] of projection) {
    const value = own(values, slug) as Values[string] | undefined;
    out[slug] = value === undefined ? null : render(scope, node.def, value, node.children);
  }
  return out;
}

/** A stored value as read: references become `{ id, properties }`. */
function render(
  scope: Scope,
  def: PropertyDefinition,
  value: unknown,
  children: Selection | undefined,
): unknown {
  if (!isReference(def)) return value;
  const target = referenceTarget(def);
  const one = (id: unknown) => {
    if (typeof id !== 'string') return id;
    let properties: Values = {};
    if (target !== undefined && children !== undefined) {
      const record = recordsOf(scope.store).get(target, id);
      if (record !== undefined) {
        properties = project(scopeOf(scope, target), record.default, children);
      }
    }
    return { id, properties };
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

/** A record as create, get, patch, restore, duplicate and upsert return it. */
export function recordBody(
  scope: Scope,
  record: Readonly<StoredRecord>,
  projection: Projection = allValues(scope),
): { id: string; default: Values; list?: Record<string, Values> } {
  const body: { id: string; default: Values; list?: Record<string, Values> } = {
    id: record.id,
    default: project(scope, record.default, projection),
  };
  const lists = Object.entries(record.lists);
  if (lists.length > 0) {
    body.list = Object.fromEntries(
      lists.map(([listId, values]) => {
        const listScope = { ...scope, listId };
        return [listId, project(listScope, values, allValues(listScope))];
      }),
    );
  }
  return body;
}

/** The `etag` of a record: strong, from its version. */
export function etagOf(record: Readonly<StoredRecord>): string {
  return `"v${record.version}"`;
}
