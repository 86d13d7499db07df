// Property definition and option operations: request in, reply out, over the properties
// model. The request has passed the contract at the door (types, enums, formats), so the
// handlers only read it; the model applies the rules.

import { invalidRequest } from '../../errors.ts';
import { listScope, queryFlag, queryValue, requireTypeIn, teamOf } from '../../request.ts';
import type { Reply, RequestContext } from '../../resource.ts';
import { PROPERTY_OBJECT_TYPES, type PropertyType } from './catalogue.ts';
import { type PropertiesModel, propertiesOf } from './model.ts';
import { describeDefinition } from './rules.ts';
import {
  type DefinitionChanges,
  type NewDefinition,
  type NewOption,
  OPTION_FIELDS,
  type OptionChanges,
  type PropertyDefinition,
} from './types.ts';

/** Path check of the per-type property routes: the object type must be a known one. */
export const requirePropertyObjectType = requireTypeIn(
  'objectType',
  PROPERTY_OBJECT_TYPES,
  'properties',
);

type Body = Record<string, unknown>;

/** GET /v2/prism/{teamId}/properties */
export function listAllProperties(ctx: RequestContext): Reply {
  return { status: 200, body: listing(ctx, PROPERTY_OBJECT_TYPES) };
}

/** GET /v2/prism/{teamId}/{objectType}/properties */
export function listProperties(ctx: RequestContext): Reply {
  return { status: 200, body: listing(ctx, [objectTypeOf(ctx)]) };
}

/**
 * The listing answer: per object type, definitions keyed by id. `list_id` narrows to what
 * that list shows; `term` matches names and slugs (case-insensitive); options only with
 * `include_options=true`; `autofill` is accepted and changes nothing.
 */
function listing(ctx: RequestContext, types: readonly string[]) {
  const model = propertiesOf(ctx.store);
  const teamId = teamOf(ctx);
  const listId = queryValue(ctx, 'list_id');
  const term = queryValue(ctx, 'term')?.trim().toLowerCase() ?? '';
  const includeOptions = queryFlag(ctx, 'include_options');
  const out: Record<string, Record<string, unknown>> = {};
  for (const type of types) {
    const defs =
      listId === undefined ? model.all(teamId, type) : model.visible(teamId, type, listId);
    const byId: Record<string, unknown> = {};
    for (const def of defs) {
      if (term !== '' && !matches(def, term)) continue;
      byId[def.id] = wire(model, def, includeOptions ? (listId ?? undefined) : null);
    }
    out[type] = byId;
  }
  return out;
}

function matches(def: PropertyDefinition, term: string): boolean {
  return (def.name ?? '').toLowerCase().includes(term) || def.slug.includes(term);
}

/**
 * A definition as answered. `options`: null leaves them out; otherwise the options shown
 * on that list (undefined: all of them).
 */
function wire(
  model: PropertiesModel,
  def: PropertyDefinition,
  options: string | null | undefined,
): Record<string, unknown> {
  const { options: _all, ...rest } = def;
  if (options === null || def.options === undefined) return rest;
  return { ...rest, options: model.optionsOn(def, options) };
}

/** POST /v2/prism/{teamId}/{objectType}/properties → 201 */
export function createProperty(ctx: RequestContext): Reply {
  const body = ctx.body as Body;
  const input = fromBody<NewDefinition>(
    body,
    { name: body['name'] as string, type: body['type'] as PropertyType },
    ['slug', 'icon', 'required', 'role_id', 'options'],
  );
  const model = propertiesOf(ctx.store);
  const def = model.create(teamOf(ctx), objectTypeOf(ctx), input);
  return { status: 201, body: wire(model, def, undefined) };
}

/** PATCH /v2/prism/{teamId}/{objectType}/properties/{propertyId} → 200 */
export function updateProperty(ctx: RequestContext): Reply {
  const body = ctx.body as Body;
  const changes = fromBody<DefinitionChanges>(body, {}, ['name', 'icon', 'enabled', 'required']);
  const model = propertiesOf(ctx.store);
  const id = ctx.params['propertyId']!;
  const def = model.update(teamOf(ctx), objectTypeOf(ctx), id, body['type'] as string, changes);
  return { status: 200, body: wire(model, def, undefined) };
}

/** DELETE /v2/prism/{teamId}/{objectType}/properties/{propertyId}?type=&list_id= → 204 */
export function deleteProperty(ctx: RequestContext): Reply {
  const model = propertiesOf(ctx.store);
  const teamId = teamOf(ctx);
  const objectType = objectTypeOf(ctx);
  const id = ctx.params['propertyId']!;
  const type = queryValue(ctx, 'type')!;
  const def = model.editable(teamId, objectType, id, type, 'query.type');
  const listId = queryValue(ctx, 'list_id');
  if (listId !== undefined && listId !== def.list_id) {
    const message = `The ${objectType} property ${describeDefinition(def)} ${def.list_id === null ? 'is workspace-global' : `belongs to list ${def.list_id}`}, not to list ${listId}; send its list_id or leave list_id out.`;
    throw invalidRequest(message, [{ field: 'query.list_id', message, code: 'mismatch' }]);
  }
  model.remove(teamId, objectType, id, type);
  return { status: 204 };
}

/** POST .../properties/{propertyId}/options → 201 */
export function createPropertyOption(ctx: RequestContext): Reply {
  const body = ctx.body as Body;
  const input = fromBody<NewOption>(body, { value: body['value'] as string }, OPTION_FIELDS);
  const option = propertiesOf(ctx.store).createOption(
    teamOf(ctx),
    objectTypeOf(ctx),
    ctx.params['propertyId']!,
    body['type'] as string,
    input,
  );
  return { status: 201, body: option };
}

/** PATCH .../properties/{propertyId}/options/{optionId} → 200 */
export function updatePropertyOption(ctx: RequestContext): Reply {
  const body = ctx.body as Body;
  const changes = fromBody<OptionChanges>(body, {}, OPTION_FIELDS);
  const option = propertiesOf(ctx.store).updateOption(
    teamOf(ctx),
    objectTypeOf(ctx),
    ctx.params['propertyId']!,
    ctx.params['optionId']!,
    body['type'] as string,
    changes,
  );
  return { status: 200, body: option };
}

/** DELETE .../properties/{propertyId}/options/{optionId}?type=&list_id= → 204 */
export function deletePropertyOption(ctx: RequestContext): Reply {
  propertiesOf(ctx.store).removeOption(
    teamOf(ctx),
    objectTypeOf(ctx),
    ctx.params['propertyId']!,
    ctx.params['optionId']!,
    queryValue(ctx, 'type'),
    queryValue(ctx, 'list_id'),
  );
  return { status: 204 };
}

// ---------------------------------------------------------------- helpers

/** Copy the fields of `body` that are present into `target`. */
/** `target` with the `fields` the body sets, and the list it names (list_id, or crm_id). */
function fromBody<T extends { list_id?: string | null }>(
  body: Body,
  target: T,
  fields: readonly string[],
): T {
  for (const field of fields) {
    if (body[field] !== undefined) (target as Record<string, unknown>)[field] = body[field];
  }
  const listId = listScope(body);
  if (listId !== undefined) target.list_id = listId;
  return target;
}

function objectTypeOf(ctx: RequestContext): string {
  return ctx.params['objectType']!;
}
