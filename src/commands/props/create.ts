import { objectType } from '../../api/object-types.ts';
import {
  createProperty,
  hasOptions,
  listProperties,
  listScope,
  PROPERTY_TYPE_NAMES,
  type PropertyCreate,
  type PropertyDefinition,
  type PropertyType,
} from '../../api/props.ts';
import { UsageError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import type { Choice } from '../../prompt/prompter.ts';
import { learnDefaultRoles } from '../../schema/roles.ts';
import { closest } from '../../util/suggest.ts';
import {
  changeDefinitions,
  hintOnConflict,
  propertyColumns,
  propertyRow,
  withDefinition,
} from './shared.ts';

export interface CreateOptions {
  objectType: string;
  name?: string | undefined;
  type?: string | undefined;
  slug?: string | undefined;
  required: boolean;
  icon?: string | undefined;
  listId?: string | undefined;
  roleId?: string | undefined;
  /** Option values, in order (select types only). */
  options: string[];
}

const PLAIN: Record<string, string> = {
  num: 'a number',
  str: 'a short text',
  bool: 'yes or no',
  date: 'a date',
  text: 'a long text',
  byte: 'a file',
  select_str: 'one option of a list',
  multi_str: 'several short texts',
  multiselect_str: 'several options of a list',
  jsonb: 'a JSON document',
};

/** What values of a type are, in words, for the type prompt. */
export function describeType(type: string): string {
  if (PLAIN[type]) return PLAIN[type];
  const m = /^(multi)?ref_(.+)$/.exec(type);
  if (m)
    return m[1]
      ? `links to ${m[2]!.replace(/_/g, ' ')} records`
      : `a link to a ${m[2]!.replace(/_/g, ' ')} record`;
  return type;
}

/** A storage type given by a user, or a usage error listing them. */
export function propertyType(input: string, flag = '--type'): PropertyType {
  const t = input.trim().toLowerCase();
  if ((PROPERTY_TYPE_NAMES as readonly string[]).includes(t)) return t as PropertyType;
  const near = closest(t, PROPERTY_TYPE_NAMES);
  throw new UsageError(
    `${flag}: "${input}" is not a property type.${near.length > 0 ? ` Did you mean ${near.map((s) => `"${s}"`).join(', ')}?` : ''}`,
    `Types: ${PROPERTY_TYPE_NAMES.join(', ')}.`,
  );
}

async function askName(deps: Deps, type: string): Promise<string> {
  if (!deps.io.canPrompt())
    throw new UsageError(
      '--name is required.',
      `Give the new ${type} property a name: --name "Lead source".`,
    );
  return (
    await deps.prompter.input({
      message: `Name of the new ${type} property`,
      validate: (v) => (v.trim() !== '' ? true : 'The name cannot be empty.'),
    })
  ).trim();
}

async function askType(deps: Deps): Promise<PropertyType> {
  if (!deps.io.canPrompt())
    throw new UsageError('--type is required.', `Types: ${PROPERTY_TYPE_NAMES.join(', ')}.`);
  const choices: Choice<PropertyType>[] = PROPERTY_TYPE_NAMES.map((t) => ({
    name: t,
    value: t,
    description: describeType(t),
  }));
  return deps.prompter.select({ message: 'Type', choices, default: 'str' });
}

/** `Phone numbers` → `phone number`: the term that finds near-duplicates of a name. */
export function searchTerm(name: string): string {
  const t = name.trim().toLowerCase().replace(/\s+/g, ' ');
  return t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t;
}

function describe(d: PropertyDefinition): string {
  return `"${d.name ?? d.slug}" (${d.slug}, ${d.type}${d.list_id ? `, list ${d.list_id}` : ''})`;
}

/**
 * Look for definitions with a similar name (the API's guidance: search with `term` before
 * creating). On a terminal, ask whether to go on; otherwise warn and go on.
 */
async function checkNearDuplicates(
  deps: Deps,
  type: string,
  name: string,
  listId: string | undefined,
): Promise<void> {
  const client = await deps.client();
  const similar = await listProperties(client, type, {
    term: searchTerm(name),
    listId,
    signal: deps.signal,
  });
  // The same name where the new definition would show is the API's to refuse (409).
  const clash = (d: PropertyDefinition) =>
    (d.name ?? '').trim().toLowerCase() === name.toLowerCase() &&
    (listId === undefined || listScope(d) === null || listScope(d) === listId);
  if (similar.length === 0 || similar.some(clash)) return;
  const list = similar.slice(0, 5).map(describe).join(', ');
  const more = similar.length > 5 ? ` and ${similar.length - 5} more` : '';
  const what = `${similar.length === 1 ? 'A' : 'Some'} ${type} ${similar.length === 1 ? 'property has' : 'properties have'} a similar name: ${list}${more}.`;
  if (deps.io.canPrompt()) {
    const go = await deps.prompter.confirm({
      message: `${what} Create "${name}" anyway?`,
      default: false,
    });
    if (!go) throw new WsError('Cancelled: nothing was created.', { code: 'cancelled' });
    return;
  }
  deps.io.warn(`${what} Creating "${name}" anyway.`);
}

export async function run(opts: CreateOptions, deps: Deps): Promise<void> {
  const type = objectType(opts.objectType, 'property');
  const ptype = opts.type !== undefined ? propertyType(opts.type) : undefined;
  if (opts.name !== undefined && opts.name.trim() === '')
    throw new UsageError('--name cannot be empty.');
  const name = opts.name?.trim() ?? (await askName(deps, type));
  const chosen = ptype ?? (await askType(deps));
  if (opts.options.length > 0 && !hasOptions(chosen)) {
    throw new UsageError(
      `--option applies only to select_str and multiselect_str properties, not ${chosen}.`,
    );
  }

  await checkNearDuplicates(deps, type, name, opts.listId);

  const body: PropertyCreate = {
    name,
    type: chosen,
    ...(opts.slug !== undefined ? { slug: opts.slug } : {}),
    required: opts.required,
    ...(opts.icon !== undefined ? { icon: opts.icon } : {}),
    ...(opts.listId !== undefined ? { list_id: opts.listId } : {}),
    ...(opts.roleId !== undefined ? { role_id: opts.roleId } : {}),
    ...(opts.options.length > 0
      ? { options: opts.options.map((value, i) => ({ value, sort_index: i })) }
      : {}),
  };
  const client = await deps.client();
  const def = await changeDefinitions(
    deps,
    type,
    () =>
      createProperty(client, type, body, deps.signal).catch(
        hintOnConflict(
          `See what exists with \`ws props list ${type} --term "${searchTerm(name)}"\`; choose another name${opts.slug !== undefined ? ' or --slug' : ''}.`,
        ),
      ),
    withDefinition,
  );
  if (opts.roleId === undefined) await learnDefaultRoles(deps, [def]);
  deps.io.success(`Created ${type} property "${def.name ?? def.slug}" (${def.slug}).`);
  await renderObject(deps.io, propertyRow(type, def), propertyColumns({ detail: true }), {
    format: deps.format,
    fields: deps.fields,
  });
}
