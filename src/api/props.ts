// Typed calls for the property endpoints: definitions and the options of select
// definitions. Listing answers are maps keyed by object type, then definition id; these
// calls flatten them into arrays in a stable order (by slug; options by sort_index).
import { ApiError, WsError } from '../errors.ts';
import { PropertyType as PropertyTypeEnum } from '../generated/enums.ts';
import type { ApiClient } from './client.ts';
import type { AnswerOf, QueryOf, Schemas } from './types.ts';

export type PropertyDefinition = Schemas['PropertyDefinition'];
export type PropertyOption = Schemas['PropertyOption'];
export type PropertyType = Schemas['PropertyType'];
export type PropertyCreate = Schemas['PropertyCreate'];
export type PropertyPatch = Schemas['PropertyPatch'];
export type OptionCreate = Schemas['OptionCreate'];
export type OptionPatch = Schemas['OptionPatch'];
export type OptionInline = Schemas['OptionInline'];

/** Every storage type, in the order the contract lists them. */
export const PROPERTY_TYPE_NAMES = PropertyTypeEnum;

/** Types whose definitions carry options. */
export function hasOptions(type: string): boolean {
  return type === 'select_str' || type === 'multiselect_str';
}

/** A definition shared by every workspace (team_id and list scope null): it cannot be changed. */
export function isSharedDefault(d: PropertyDefinition): boolean {
  return (d.team_id ?? null) === null && (d.list_id ?? d.crm_id ?? null) === null;
}

/** The list scope of a definition (list_id, or the older crm_id). */
export function listScope(d: PropertyDefinition): string | null {
  return d.list_id ?? d.crm_id ?? null;
}

export interface ListQuery {
  listId?: string | undefined;
  term?: string | undefined;
  signal?: AbortSignal | undefined;
}

type PropertyMap = AnswerOf<'listProperties', 200>;

function byOrder(a: PropertyOption, b: PropertyOption): number {
  const x = a.sort_index ?? Number.POSITIVE_INFINITY;
  const y = b.sort_index ?? Number.POSITIVE_INFINITY;
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Options in display order: by sort_index (none last), then as the API gave them. */
export function orderedOptions(d: PropertyDefinition): PropertyOption[] {
  return [...(d.options ?? [])].sort(byOrder);
}

/** Definitions in slug order. */
export function bySlug(a: { slug: string }, b: { slug: string }): number {
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

function flatten(map: PropertyMap | undefined, objectType: string): PropertyDefinition[] {
  const defs = Object.values(map?.[objectType] ?? {}).map((d) =>
    d.options ? { ...d, options: orderedOptions(d) } : d,
  );
  return defs.sort(bySlug);
}

function listQuery(q: ListQuery): QueryOf<'listProperties'> {
  return {
    include_options: true,
    ...(q.listId !== undefined ? { list_id: q.listId } : {}),
    ...(q.term !== undefined ? { term: q.term } : {}),
  };
}

/** GET /v2/prism/{teamId}/{objectType}/properties (with options). */
export async function listProperties(
  client: ApiClient,
  objectType: string,
  q: ListQuery = {},
): Promise<PropertyDefinition[]> {
  const res = await client.request<PropertyMap>({
    method: 'GET',
    path: ['v2', 'prism', client.teamId, objectType, 'properties'],
    query: listQuery(q),
    signal: q.signal,
  });
  return flatten(res.body, objectType);
}

/** GET /v2/prism/{teamId}/properties (with options): definitions of every object type. */
export async function listAllProperties(
  client: ApiClient,
  q: ListQuery = {},
): Promise<Map<string, PropertyDefinition[]>> {
  const res = await client.request<AnswerOf<'listAllProperties', 200>>({
    method: 'GET',
    path: ['v2', 'prism', client.teamId, 'properties'],
    query: listQuery(q) satisfies QueryOf<'listAllProperties'>,
    signal: q.signal,
  });
  const out = new Map<string, PropertyDefinition[]>();
  for (const type of Object.keys(res.body ?? {}).sort()) out.set(type, flatten(res.body, type));
  return out;
}

/** POST /v2/prism/{teamId}/{objectType}/properties. */
export async function createProperty(
  client: ApiClient,
  objectType: string,
  body: PropertyCreate,
  signal?: AbortSignal,
): Promise<PropertyDefinition> {
  const res = await client.request<AnswerOf<'createProperty', 201>>({
    method: 'POST',
    path: ['v2', 'prism', client.teamId, objectType, 'properties'],
    body,
    signal,
  });
  return res.body;
}

/** PATCH /v2/prism/{teamId}/{objectType}/properties/{propertyId}. */
export async function updateProperty(
  client: ApiClient,
  objectType: string,
  propertyId: string,
  body: PropertyPatch,
  signal?: AbortSignal,
): Promise<PropertyDefinition> {
  const res = await client.request<AnswerOf<'updateProperty', 200>>({
    method: 'PATCH',
    path: ['v2', 'prism', client.teamId, objectType, 'properties', propertyId],
    body,
    signal,
  });
  return res.body;
}

/** DELETE /v2/prism/{teamId}/{objectType}/properties/{propertyId}. */
export async function deleteProperty(
  client: ApiClient,
  objectType: string,
  def: Pick<PropertyDefinition, 'id' | 'type'> & { list_id?: string | null },
  signal?: AbortSignal,
): Promise<void> {
  await client.request({
    method: 'DELETE',
    path: ['v2', 'prism', client.teamId, objectType, 'properties', def.id],
    query: {
      type: def.type,
      list_id: def.list_id ?? undefined,
    } satisfies QueryOf<'deleteProperty'>,
    signal,
  });
}

/** POST /v2/prism/{teamId}/{objectType}/properties/{propertyId}/options. */
export async function createOption(
  client: ApiClient,
  objectType: string,
  propertyId: string,
  body: OptionCreate,
  signal?: AbortSignal,
): Promise<PropertyOption> {
  const res = await client.request<AnswerOf<'createPropertyOption', 201>>({
    method: 'POST',
    path: ['v2', 'prism', client.teamId, objectType, 'properties', propertyId, 'options'],
    body,
    signal,
  });
  return res.body;
}

/** PATCH /v2/prism/{teamId}/{objectType}/properties/{propertyId}/options/{optionId}. */
export async function updateOption(
  client: ApiClient,
  objectType: string,
  propertyId: string,
  optionId: string,
  body: OptionPatch,
  signal?: AbortSignal,
): Promise<PropertyOption> {
  const res = await client.request<AnswerOf<'updatePropertyOption', 200>>({
    method: 'PATCH',
    path: ['v2', 'prism', client.teamId, objectType, 'properties', propertyId, 'options', optionId],
    body,
    signal,
  });
  return res.body;
}

/** DELETE /v2/prism/{teamId}/{objectType}/properties/{propertyId}/options/{optionId}. */
export async function deleteOption(
  client: ApiClient,
  objectType: string,
  def: Pick<PropertyDefinition, 'id' | 'type'>,
  optionId: string,
  signal?: AbortSignal,
): Promise<void> {
  await client.request({
    method: 'DELETE',
    path: ['v2', 'prism', client.teamId, objectType, 'properties', def.id, 'options', optionId],
    query: { type: def.type } satisfies QueryOf<'deletePropertyOption'>,
    signal,
  });
}

/**
 * The same error with a prefix to its message and (or) a hint, keeping its status, code,
 * request id and exit code; errors that are not ws's own pass through unchanged.
 */
export function annotateError(err: unknown, opts: { prefix?: string; hint?: string }): unknown {
  const message = (m: string) => (opts.prefix ? `${opts.prefix}${m}` : m);
  if (err instanceof ApiError) {
    return new ApiError({
      status: err.status,
      ...(err.apiCode !== undefined ? { code: err.apiCode } : {}),
      message: message(err.message),
      ...(err.requestId !== undefined ? { requestId: err.requestId } : {}),
      errors: err.errors,
      details: err.details,
      method: err.method,
      url: err.url,
      ...((opts.hint ?? err.hint) !== undefined ? { hint: opts.hint ?? err.hint } : {}),
      exitCode: err.exitCode,
    });
  }
  if (err instanceof WsError) {
    return new WsError(message(err.message), {
      exitCode: err.exitCode,
      code: err.code,
      hint: opts.hint ?? err.hint,
      cause: err,
    });
  }
  return err;
}
