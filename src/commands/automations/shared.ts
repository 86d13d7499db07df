// What the automations verbs share: the object type, every automation of a type, finding
// one by id or name, the names an automation's ids are shown with, compiling a draft against
// the workspace (or refusing it with every problem), and the columns automations are shown in.

import {
  type Automation,
  type AutomationKind,
  getAutomation,
  listAutomations,
} from '../../api/automations.ts';
import type { ApiClient } from '../../api/client.ts';
import { type AutomationType, objectType } from '../../api/object-types.ts';
import { paginate } from '../../api/paginate.ts';
import { compileDraft, type Draft, problemsError } from '../../automations-as-code/draft.ts';
import {
  addNeeds,
  emptyNeeds,
  type Lookups,
  loadLookups,
} from '../../automations-as-code/lookups.ts';
import {
  actionLines,
  actionsSummary,
  type Names,
  NO_NAMES,
  triggerLines,
  triggerSummary,
  whereLines,
} from '../../automations-as-code/render.ts';
import { ApiError, NotFoundError, UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { renderObject } from '../../output/render.ts';
import { isUuid } from '../../util/guards.ts';
import { didYouMean } from '../../util/suggest.ts';
import { givenIdOrName, namedIn } from '../common/by-name.ts';

export const TYPES_HELP =
  'TYPE is one of the object types automations are kept for (singular or plural): deal, contact, organization, …';

export function automationType(input: string): AutomationType {
  return objectType(input, 'automation') as AutomationType;
}

/** Every automation of a type (all pages), optionally of one kind or list. */
export async function allAutomations(
  deps: Deps,
  client: ApiClient,
  type: AutomationType,
  filter: { kind?: AutomationKind | undefined; listId?: string | undefined } = {},
): Promise<Automation[]> {
  const out: Automation[] = [];
  const pages = paginate(
    (cursor, limit) =>
      listAutomations(client, type, { ...filter, cursor, limit, signal: deps.signal }),
    { all: true },
  );
  for await (const page of pages) out.push(...page.rows);
  return out;
}

/**
 * The automation a user named: an id, or a name (exact, then ignoring case) among the
 * automations of the type. A name that several have is a usage error listing them.
 */
export async function resolveAutomation(
  deps: Deps,
  client: ApiClient,
  type: AutomationType,
  idOrName: string,
): Promise<Automation> {
  const given = givenIdOrName(idOrName, 'An automation');
  if (isUuid(given)) {
    return getOne(client, type, given, deps.signal);
  }
  const all = await allAutomations(deps, client, type);
  const matches = namedIn(all, given);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new UsageError(
      `${matches.length} ${type} automations are named "${given}":\n${matches.map((a) => `  ${a.id}  ${a.name}  (${triggerSummary(a)})`).join('\n')}`,
      'Name the one you mean by its id.',
    );
  }
  const names = all.map((a) => a.name);
  const near = didYouMean(given, names);
  throw new NotFoundError(
    `No ${type} automation has the id or name "${given}".`,
    near ??
      (names.length > 0
        ? `List them with \`ws automations list ${type}\`.`
        : `There are no ${type} automations; create one with \`ws automations create ${type} --name NAME …\`.`),
  );
}

/** The arguments that name one automation: its object type, and its id or name. */
export interface AutomationRef {
  type: string;
  /** An automation id, or its name. */
  automation: string;
}

/** The automation a verb's TYPE and AUTOMATION name, with its type and the client that read it. */
export async function namedAutomation(
  deps: Deps,
  ref: AutomationRef,
): Promise<{ type: AutomationType; client: ApiClient; automation: Automation }> {
  const type = automationType(ref.type);
  const client = await deps.client();
  return { type, client, automation: await resolveAutomation(deps, client, type, ref.automation) };
}

async function getOne(
  client: ApiClient,
  type: AutomationType,
  id: string,
  signal: AbortSignal | undefined,
): Promise<Automation> {
  try {
    return await getAutomation(client, type, id, { signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.code !== 'operation_unavailable') {
      throw new NotFoundError(
        `No ${type} automation has the id ${id}.`,
        `List them with \`ws automations list ${type}\`.`,
      );
    }
    throw err;
  }
}

/** The names the ids of `automations` are shown with (webhooks, contact views, properties). */
export async function namesFor(deps: Deps, automations: readonly Automation[]): Promise<Names> {
  const needs = emptyNeeds();
  for (const a of automations) {
    const kinds = (a.actions ?? []).map((x) => x.type);
    if (kinds.includes('webhook')) needs.webhooks = true;
    if (kinds.includes('email') || kinds.includes('linkedin')) needs.contacts = true;
  }
  if (!needs.webhooks && !needs.contacts) return NO_NAMES;
  try {
    return await loadLookups(deps, needs, false);
  } catch (err) {
    // Names only dress the output: without them, ids are shown.
    if (err instanceof ApiError || err instanceof UsageError) return NO_NAMES;
    throw err;
  }
}

/** Read what `drafts` need from the workspace (definitions, webhooks, contact views). */
export async function lookupsFor(
  deps: Deps,
  drafts: readonly { draft: Draft; type: string; base?: Automation | undefined }[],
  fresh: boolean,
): Promise<Lookups> {
  const needs = emptyNeeds();
  for (const d of drafts) addNeeds(needs, d.draft, d.type, d.base);
  return loadLookups(deps, needs, fresh);
}

/**
 * The body a draft of flags describes, compiled against the workspace; every problem is one
 * usage error (exit 2) before anything is written. Notes (what could not be checked) warn.
 */
export async function compileFlags(
  deps: Deps,
  draft: Draft,
  type: AutomationType,
  base?: Automation,
): Promise<ReturnType<typeof compileDraft>['body']> {
  const lookups = await lookupsFor(deps, [{ draft, type, base }], false);
  let compiled = compileDraft(draft, type, lookups, base);
  if (compiled.problems.length > 0 && lookups.fromCache) {
    // A slug unknown to cached definitions may be newer than the cache: read afresh once.
    compiled = compileDraft(
      draft,
      type,
      await lookupsFor(deps, [{ draft, type, base }], true),
      base,
    );
  }
  if (compiled.problems.length > 0) throw problemsError(compiled.problems);
  for (const note of compiled.notes) deps.io.warn(note);
  return compiled.body;
}

const yesNo = (v: unknown) => (v === false ? 'no' : 'yes');

/** Columns of `get` (and create/update): the conditions and actions one line each. */
export function automationColumns(names: Names): Column<Automation>[] {
  return [
    { key: 'id' },
    { key: 'name' },
    { key: 'object_type' },
    { key: 'kind' },
    { key: 'enabled', text: yesNo },
    { key: 'list_id', text: (v) => (v == null ? '' : String(v)) },
    {
      key: 'when',
      get: (a) => [...triggerLines(a), ...whereLines(a)],
      text: (v) => (v as string[]).join('\n'),
    },
    {
      key: 'then',
      get: (a) => actionLines(a, names),
      text: (v) => (v as string[]).join('\n'),
    },
    { key: 'created_at' },
    { key: 'updated_at' },
  ];
}

/** Columns of `list`: one line per automation (`names()`: the names known when a row is shown). */
export function automationListColumns(names: () => Names = () => NO_NAMES): Column<Automation>[] {
  return [
    { key: 'id', id: true },
    { key: 'name' },
    { key: 'kind' },
    { key: 'enabled', text: yesNo },
    { key: 'when', get: (a) => triggerSummary(a) },
    { key: 'then', get: (a) => actionsSummary(a, names()) },
    { key: 'list_id', default: false, text: (v) => (v == null ? '' : String(v)) },
    { key: 'object_type', default: false },
    { key: 'created_at', default: false },
    { key: 'updated_at' },
  ];
}

/** Print one automation: key/value lines on a terminal or piped, the API's object with --json. */
export async function printAutomation(deps: Deps, a: Automation): Promise<void> {
  const names =
    deps.format === 'json' || deps.format === 'ndjson' ? NO_NAMES : await namesFor(deps, [a]);
  await renderObject(deps.io, a, automationColumns(names), {
    format: deps.format,
    fields: deps.fields,
  });
}
