// The plan: what it takes to make a workspace's definitions match a schema file. Pure:
// the file and the workspace's definitions in, steps out (nothing is sent here).
//
// - A definition of the file is matched with the workspace's by object type and slug
//   (and list, when several lists have the slug). No match: create. A match that differs:
//   update. The same: unchanged.
// - Options are matched by slug within their definition: a new value for a slug is an
//   update, never a delete and a create. Their order is the file's order; sort_index
//   values are changed only when the workspace's order differs (or to place new options).
// - What the workspace has and the file does not is deleted only with `prune`, and only
//   for the object types the file names; otherwise it is reported as kept. Shared default
//   definitions are never deleted or changed.
// - What the API cannot do (change a definition's type or role, change a shared default)
//   is a problem: the plan cannot be applied until the file or the workspace changes.
import {
  isSharedDefault,
  listScope,
  orderedOptions,
  type PropertyDefinition,
  type PropertyOption,
} from '../api/props.ts';
import { UsageError } from '../errors.ts';
import type { Schema, SchemaOption, SchemaProperty } from './file.ts';

export type Action = 'create' | 'update' | 'delete' | 'unchanged';

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface OptionStep {
  action: 'create' | 'update' | 'delete';
  slug: string;
  current?: PropertyOption | undefined;
  desired?: SchemaOption | undefined;
  /** Create: every field set; update: the fields that change (sort_index included). */
  fields: FieldChange[];
}

export interface PropertyStep {
  action: Action;
  objectType: string;
  slug: string;
  current?: PropertyDefinition | undefined;
  desired?: SchemaProperty | undefined;
  /** Create: every field set; update: the definition's fields that change. */
  fields: FieldChange[];
  /** Option changes, in the order they are applied (deletes, updates, creates). */
  options: OptionStep[];
  /** Why this step cannot be applied. */
  problem?: string | undefined;
}

export interface Plan {
  file: string;
  prune: boolean;
  /** In the order they are applied: each object type of the file in turn, deletes last. */
  steps: PropertyStep[];
  /** In the workspace, not in the file, left alone (without prune). */
  kept: string[];
}

/** One change as `diff --json` and `apply --json` print it. */
export interface Change {
  action: Action;
  object_type: string;
  property: string;
  /** The option's slug, for option changes; null for the definition itself. */
  option: string | null;
  changes: FieldChange[];
}

const DEFINITION_FIELDS = ['name', 'required', 'icon', 'enabled', 'list_id'] as const;
const OPTION_FIELDS = ['value', 'color_scheme', 'description', 'icon', 'option_group'] as const;

function currentField(d: PropertyDefinition, field: (typeof DEFINITION_FIELDS)[number]): unknown {
  switch (field) {
    case 'name':
      return d.name ?? null;
    case 'required':
      return d.required ?? false;
    case 'icon':
      return d.icon ?? null;
    case 'enabled':
      return d.enabled ?? true;
    case 'list_id':
      return listScope(d);
  }
}

function optionList(o: PropertyOption): string | null {
  return o.list_id ?? o.crm_id ?? null;
}

/** The list of a file option: its own, or its definition's. */
function desiredOptionList(o: SchemaOption, p: SchemaProperty): string | null {
  return o.list_id === undefined ? p.list_id : o.list_id;
}

/**
 * sort_index values that make the workspace show `desired` (option slugs) in that order.
 * Existing options keep theirs when they are already in order (new ones go between their
 * neighbours); otherwise every option is numbered 0, 1, 2… by position. Only the values
 * that change (and every new option's) are returned.
 */
export function placeOptions(
  desired: readonly string[],
  current: readonly PropertyOption[],
): Map<string, number> {
  const existing = new Map(current.map((o) => [o.slug, o.sort_index ?? null]));
  const out = new Map<string, number>();
  const kept = desired.filter((s) => existing.has(s)).map((s) => existing.get(s) ?? null);
  const inOrder = kept.every((v, i) => v !== null && (i === 0 || v > (kept[i - 1] as number)));
  if (inOrder) {
    let prev: number | undefined;
    for (const [k, slug] of desired.entries()) {
      const have = existing.get(slug);
      if (have !== undefined && have !== null) {
        prev = have;
        continue;
      }
      const nextSlug = desired.slice(k + 1).find((s) => existing.has(s));
      const next = nextSlug === undefined ? undefined : (existing.get(nextSlug) as number);
      const value =
        prev === undefined
          ? next === undefined
            ? k
            : next - 1
          : next === undefined
            ? prev + 1
            : (prev + next) / 2;
      out.set(slug, value);
      prev = value;
    }
    return out;
  }
  for (const [k, slug] of desired.entries()) if (existing.get(slug) !== k) out.set(slug, k);
  return out;
}

function createFields(p: SchemaProperty): FieldChange[] {
  const fields: FieldChange[] = [
    { field: 'name', from: null, to: p.name },
    { field: 'type', from: null, to: p.type },
    { field: 'required', from: null, to: p.required },
  ];
  if (p.icon !== null) fields.push({ field: 'icon', from: null, to: p.icon });
  if (!p.enabled) fields.push({ field: 'enabled', from: null, to: false });
  if (p.list_id !== null) fields.push({ field: 'list_id', from: null, to: p.list_id });
  if (p.role_id !== undefined) fields.push({ field: 'role_id', from: null, to: p.role_id });
  return fields;
}

function optionCreateFields(o: SchemaOption, p: SchemaProperty, sortIndex: number): FieldChange[] {
  const fields: FieldChange[] = [{ field: 'value', from: null, to: o.value }];
  for (const f of OPTION_FIELDS.slice(1))
    if (o[f] !== null) fields.push({ field: f, from: null, to: o[f] });
  const list = desiredOptionList(o, p);
  if (list !== p.list_id) fields.push({ field: 'list_id', from: null, to: list });
  fields.push({ field: 'sort_index', from: null, to: sortIndex });
  return fields;
}

function optionSteps(
  p: SchemaProperty,
  current: PropertyDefinition | undefined,
  prune: boolean,
  kept: string[],
  label: string,
): OptionStep[] {
  if (p.options === undefined) return [];
  const have = current ? orderedOptions(current) : [];
  const bySlug = new Map(have.map((o) => [o.slug, o]));
  const wanted = new Set(p.options.map((o) => o.slug));
  const places = placeOptions(
    p.options.map((o) => o.slug),
    have,
  );
  const deletes: OptionStep[] = [];
  const updates: OptionStep[] = [];
  const creates: OptionStep[] = [];
  for (const o of have) {
    if (wanted.has(o.slug)) continue;
    if (prune) deletes.push({ action: 'delete', slug: o.slug, current: o, fields: [] });
    else kept.push(`${label} option ${o.slug}`);
  }
  for (const o of p.options) {
    const c = bySlug.get(o.slug);
    const place = places.get(o.slug);
    if (c === undefined) {
      creates.push({
        action: 'create',
        slug: o.slug,
        desired: o,
        fields: optionCreateFields(o, p, place ?? 0),
      });
      continue;
    }
    const fields: FieldChange[] = [];
    for (const f of OPTION_FIELDS) {
      const from = c[f] ?? null;
      if (from !== o[f]) fields.push({ field: f, from, to: o[f] });
    }
    const list = desiredOptionList(o, p);
    if (optionList(c) !== list) fields.push({ field: 'list_id', from: optionList(c), to: list });
    if (place !== undefined)
      fields.push({ field: 'sort_index', from: c.sort_index ?? null, to: place });
    if (fields.length > 0)
      updates.push({ action: 'update', slug: o.slug, current: c, desired: o, fields });
  }
  return [...deletes, ...updates, ...creates];
}

function compare(
  objectType: string,
  p: SchemaProperty,
  c: PropertyDefinition,
  prune: boolean,
  kept: string[],
): PropertyStep {
  const label = `${objectType}.${p.slug}`;
  const fields: FieldChange[] = [];
  for (const f of DEFINITION_FIELDS) {
    const from = currentField(c, f);
    if (from !== p[f]) fields.push({ field: f, from, to: p[f] });
  }
  // A shared default's options are not the file's to keep or delete.
  const options = optionSteps(
    p,
    c,
    prune && !isSharedDefault(c),
    isSharedDefault(c) ? [] : kept,
    label,
  );
  const step: PropertyStep = {
    action: fields.length > 0 || options.length > 0 ? 'update' : 'unchanged',
    objectType,
    slug: p.slug,
    current: c,
    desired: p,
    fields,
    options,
  };
  if (c.type !== p.type) {
    step.action = 'update';
    step.problem = `its type cannot change (${c.type} in the workspace, ${p.type} in the file): delete the property first (\`ws props delete ${objectType} ${p.slug}\`), or give the file's definition another slug`;
  } else if (p.role_id !== undefined && p.role_id !== (c.role_id ?? null)) {
    step.action = 'update';
    step.problem = `its role_id cannot be changed through the API (${c.role_id ?? 'none'} in the workspace, ${p.role_id} in the file): leave role_id out of the file, or recreate the property`;
  } else if (step.action === 'update' && isSharedDefault(c)) {
    step.problem = `it is a shared default definition of every workspace and cannot be changed; remove it from the file, or use a property of your own (another slug)`;
  }
  return step;
}

function match(
  own: readonly PropertyDefinition[],
  p: SchemaProperty,
): PropertyDefinition | undefined {
  const same = own.filter((d) => d.slug === p.slug);
  return same.find((d) => listScope(d) === p.list_id) ?? (same.length === 1 ? same[0] : undefined);
}

/**
 * The plan for `schema` against the workspace's definitions (every object type, options
 * included). An object type the workspace does not have is a usage error naming its line.
 */
export function makePlan(
  schema: Schema,
  workspace: ReadonlyMap<string, readonly PropertyDefinition[]>,
  opts: { prune: boolean },
): Plan {
  const unknown = schema.objectTypes.filter((t) => !workspace.has(t.type));
  if (unknown.length > 0) {
    throw new UsageError(
      unknown
        .map((t) => `${t.at}: the workspace has no object type "${t.type}" for properties.`)
        .join('\n'),
      `Object types: ${[...workspace.keys()].join(', ')} (singular or plural).`,
    );
  }
  const plan: Plan = { file: schema.file, prune: opts.prune, steps: [], kept: [] };
  const deletes: PropertyStep[] = [];
  for (const t of schema.objectTypes) {
    const defs = workspace.get(t.type) ?? [];
    const matched = new Set<PropertyDefinition>();
    for (const p of t.properties) {
      const c = match(defs, p);
      if (c === undefined) {
        plan.steps.push({
          action: 'create',
          objectType: t.type,
          slug: p.slug,
          desired: p,
          fields: createFields(p),
          options: optionSteps(p, undefined, opts.prune, plan.kept, `${t.type}.${p.slug}`),
        });
        continue;
      }
      matched.add(c);
      plan.steps.push(compare(t.type, p, c, opts.prune, plan.kept));
    }
    for (const d of defs) {
      if (matched.has(d) || isSharedDefault(d)) continue;
      if (opts.prune)
        deletes.push({
          action: 'delete',
          objectType: t.type,
          slug: d.slug,
          current: d,
          fields: [],
          options: [],
        });
      else plan.kept.push(`${t.type}.${d.slug}`);
    }
  }
  plan.steps.push(...deletes);
  return plan;
}

/** Whether applying the plan would change anything. */
export function hasChanges(plan: Plan): boolean {
  return plan.steps.some((s) => s.action !== 'unchanged');
}

export function problems(plan: Plan): string[] {
  return plan.steps
    .filter((s) => s.problem !== undefined)
    .map((s) => `${s.desired?.at ?? plan.file}: ${s.objectType}.${s.slug}: ${s.problem}`);
}

/** The plan as a flat list of changes: definitions, then their options. */
export function changesOf(plan: Plan): Change[] {
  const out: Change[] = [];
  for (const s of plan.steps) out.push(...stepChanges(s));
  return out;
}

/** The change of the definition itself: none for an update that only touches options. */
export function propertyChange(s: PropertyStep): Change | undefined {
  if (s.action === 'update' && s.fields.length === 0 && s.options.length > 0) return undefined;
  return {
    action: s.action,
    object_type: s.objectType,
    property: s.slug,
    option: null,
    changes: s.fields,
  };
}

export function optionChange(s: PropertyStep, o: OptionStep): Change {
  return {
    action: o.action,
    object_type: s.objectType,
    property: s.slug,
    option: o.slug,
    changes: o.fields,
  };
}

/** The changes of one step: the definition's (when it has any, or is unchanged) and each option's. */
export function stepChanges(s: PropertyStep): Change[] {
  const own = propertyChange(s);
  return [...(own ? [own] : []), ...s.options.map((o) => optionChange(s, o))];
}

/** Counts of definitions to create, update, delete, leave unchanged, and that cannot be applied. */
export function summary(plan: Plan): Record<Action | 'problem', number> {
  const counts = { create: 0, update: 0, delete: 0, unchanged: 0, problem: 0 };
  for (const s of plan.steps) counts[s.problem === undefined ? s.action : 'problem']++;
  return counts;
}
