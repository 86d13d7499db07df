// Automation operations (`/v2/prism/{teamId}/{automationObjectType}/triggered_automations`)
// and the resource's control endpoints (runs, contact views): request in, reply out, over
// the models. API bodies have passed the contract at the door (kinds, action items, shapes,
// formats); the model checks them against the property definitions.

import type { ActionItem, Changeset, StateFilter } from '../../../automation-engine/types.ts';
import { isPlainObject, isUuid } from '../../../util/guards.ts';
import { fieldProblem, objectBody } from '../../control.ts';
import { fingerprintOf, readCursor, writeCursor } from '../../cursor.ts';
import { notFound } from '../../errors.ts';
import { queryValue, requireTypeIn, teamOf } from '../../request.ts';
import type { PathContext, Reply, RequestContext } from '../../resource.ts';
import { contactViewsOf } from './contact-views.ts';
import { AUTOMATION_OBJECT_TYPES, automationsOf, isAutomationObjectType } from './model.ts';
import { automationBody, etagOf, runBody } from './present.ts';
import { runnerOf } from './runner.ts';
import { runsOf } from './runs.ts';
import type { AutomationFields, ContactView, RunStatus, StoredAutomation } from './types.ts';

/** Path check of every automation route: the object type must be one of the nine of api.md. */
export const requireAutomationObjectType = requireTypeIn(
  'automationObjectType',
  AUTOMATION_OBJECT_TYPES,
  'triggered automations',
);

/** POST …/triggered_automations → 201 with etag */
export function createAutomation(ctx: RequestContext): Reply {
  const automation = automationsOf(ctx.store).create(
    ctx.store,
    teamOf(ctx),
    typeOf(ctx),
    fieldsOf(ctx.body),
  );
  return answer(201, automation);
}

/** GET …/triggered_automations?list_id=&kind=&cursor=&page=&limit= */
export function listAutomations(ctx: RequestContext): Reply {
  const listId = queryValue(ctx, 'list_id');
  const kind = queryValue(ctx, 'kind');
  const all = automationsOf(ctx.store)
    .list(teamOf(ctx), typeOf(ctx), listId)
    .filter((a) => kind === undefined || a.kind === kind);
  const fingerprint = fingerprintOf({
    type: typeOf(ctx),
    kind: kind ?? null,
    list_id: listId ?? null,
  });
  const cursor = queryValue(ctx, 'cursor');
  let offset = 0;
  let limit = Number(queryValue(ctx, 'limit') ?? 50);
  if (cursor !== undefined) {
    ({ o: offset, l: limit } = readCursor(cursor, fingerprint, {
      field: 'query.cursor',
      // A cursor never holds a page of 0 (see below).
      position: { o: { min: 0 }, l: { min: 1, max: 50 } },
      listing: 'listing',
      differs: 'a different kind or list_id',
    }));
  } else offset = (Number(queryValue(ctx, 'page') ?? 1) - 1) * limit;
  const data = all.slice(offset, offset + limit).map(automationBody);
  const hasMore = all.length > offset + limit;
  // A page of 0 moves nowhere: its cursor reads the first page of the default size instead.
  const next = limit === 0 ? { o: offset, l: 50 } : { o: offset + limit, l: limit };
  return {
    status: 200,
    body: {
      data,
      has_more: hasMore,
      next_cursor: hasMore ? writeCursor(next, fingerprint) : null,
    },
  };
}

/** GET …/triggered_automations/{automationId} → 200 with etag */
export function getAutomation(ctx: RequestContext): Reply {
  return answer(200, automationsOf(ctx.store).get(teamOf(ctx), typeOf(ctx), idOf(ctx)));
}

/** PUT …/triggered_automations/{automationId} → 200: the whole automation replaced */
export function replaceAutomation(ctx: RequestContext): Reply {
  const automation = automationsOf(ctx.store).replace(
    ctx.store,
    teamOf(ctx),
    typeOf(ctx),
    idOf(ctx),
    fieldsOf(ctx.body),
  );
  return answer(200, automation);
}

/** DELETE …/triggered_automations/{automationId} → 204; its waiting runs are cancelled */
export function deleteAutomation(ctx: RequestContext): Reply {
  const automation = automationsOf(ctx.store).remove(teamOf(ctx), typeOf(ctx), idOf(ctx));
  runsOf(ctx.store).cancelFor(automation.id);
  return { status: 204 };
}

// ---------------------------------------------------------------- control: runs

const RUN_STATUSES: readonly RunStatus[] = [
  'running',
  'waiting',
  'completed',
  'failed',
  'cancelled',
];
const RUN_FILTERS = ['automation_id', 'record_id', 'object_type', 'status', 'after', 'limit'];
const MAX_RUNS_PAGE = 1000;

/** GET /__sandbox/automation_runs?automation_id=&record_id=&object_type=&status=&after=&limit= */
export function listRuns(ctx: RequestContext): Reply {
  for (const name of Object.keys(ctx.query)) {
    if (!RUN_FILTERS.includes(name)) {
      throw fieldProblem(
        `query.${name}`,
        `Unknown query parameter '${name}'; known: ${RUN_FILTERS.join(', ')}.`,
        'unknown_field',
      );
    }
  }
  const status = queryValue(ctx, 'status');
  if (status !== undefined && !RUN_STATUSES.includes(status as RunStatus)) {
    throw fieldProblem('query.status', `status must be one of ${RUN_STATUSES.join(', ')}.`, 'enum');
  }
  const objectType = queryValue(ctx, 'object_type');
  if (objectType !== undefined && !isAutomationObjectType(objectType)) {
    throw fieldProblem(
      'query.object_type',
      `object_type must be one of ${AUTOMATION_OBJECT_TYPES.join(', ')}.`,
      'enum',
    );
  }
  const after = integerParam(ctx, 'after', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = integerParam(ctx, 'limit', 1, MAX_RUNS_PAGE) ?? 100;
  const automationId = queryValue(ctx, 'automation_id');
  const recordId = queryValue(ctx, 'record_id');
  // Runs that fell due are resumed first, so the list is never behind the clock.
  runnerOf(ctx.store).wake();
  const matching = runsOf(ctx.store)
    .list(ctx.teamId)
    .filter(
      (run) =>
        run.sequence > after &&
        (automationId === undefined || run.automation.id === automationId) &&
        (recordId === undefined || run.trigger.record_id === recordId) &&
        (objectType === undefined || run.trigger.object_type === objectType) &&
        (status === undefined || run.status === status),
    );
  const page = matching.slice(0, limit);
  return {
    status: 200,
    body: {
      data: page.map((run) => runBody(ctx.store, run)),
      has_more: matching.length > limit,
      next_after: page.length === 0 ? after : page[page.length - 1]!.sequence,
    },
  };
}

/** GET /__sandbox/automation_runs/{runId} */
export function getRun(ctx: RequestContext): Reply {
  runnerOf(ctx.store).wake();
  const id = ctx.params['runId']!;
  const run = runsOf(ctx.store).get(ctx.teamId, id);
  if (run === undefined) {
    throw notFound(
      `No automation run has the id ${id} (finished runs are kept: the latest 10,000).`,
    );
  }
  return { status: 200, body: runBody(ctx.store, run) };
}

// ---------------------------------------------------------------- control: contact views

const VIEW_FIELDS = ['name', 'filter', 'combinator', 'list_id'];

/** PUT /__sandbox/contact_views/{viewId} → 201 (new) or 200 (replaced) */
export function putContactView(ctx: RequestContext): Reply {
  const id = viewIdOf(ctx);
  const body = objectBody(ctx, VIEW_FIELDS);
  const name = body['name'] ?? 'Contact view';
  if (typeof name !== 'string') throw fieldProblem('body.name', 'name must be a string.', 'type');
  const filter = body['filter'] ?? [];
  if (!Array.isArray(filter) || !filter.every(isPlainObject)) {
    throw fieldProblem(
      'body.filter',
      'filter must be an array of { slug: { operator: value } }, as a view or a record query has.',
      'type',
    );
  }
  const combinator = body['combinator'] ?? 'AND';
  if (combinator !== 'AND' && combinator !== 'OR') {
    throw fieldProblem('body.combinator', 'combinator must be AND or OR.', 'enum');
  }
  const listId = body['list_id'] ?? null;
  if (listId !== null && (typeof listId !== 'string' || !isUuid(listId))) {
    throw fieldProblem('body.list_id', 'list_id must be a list id (a UUID) or null.', 'format');
  }
  const { view, created } = contactViewsOf(ctx.store).put(ctx.store, ctx.teamId, id, {
    name,
    filter: filter as Record<string, Record<string, unknown>>[],
    combinator,
    list_id: listId,
  });
  return { status: created ? 201 : 200, body: viewBody(view) };
}

/** GET /__sandbox/contact_views */
export function listContactViews(ctx: RequestContext): Reply {
  return {
    status: 200,
    body: { data: contactViewsOf(ctx.store).list(ctx.teamId).map(viewBody) },
  };
}

/** DELETE /__sandbox/contact_views/{viewId} → 204 */
export function deleteContactView(ctx: RequestContext): Reply {
  contactViewsOf(ctx.store).remove(ctx.teamId, viewIdOf(ctx));
  return { status: 204 };
}

// ---------------------------------------------------------------- helpers

/** The automation fields of a create or replace body (defaults filled; read-only fields ignored). */
function fieldsOf(raw: unknown): AutomationFields {
  const body = raw as Record<string, unknown>;
  const lifecycle = body['kind'] === 'lifecycle';
  const flag = (name: 'on_create' | 'on_delete'): boolean | null => {
    const value = body[name];
    if (lifecycle) return value === true;
    return value === true ? true : null;
  };
  const group = <T extends Changeset | StateFilter>(value: unknown): T | null =>
    isPlainObject(value)
      ? ({ combinator: value['combinator'] ?? 'AND', filter: value['filter'] ?? [] } as T)
      : null;
  return {
    kind: lifecycle ? 'lifecycle' : 'update',
    name: body['name'] as string,
    actions: (body['actions'] ?? []) as ActionItem[],
    changeset: lifecycle ? null : group<Changeset>(body['changeset']),
    state: group<StateFilter>(body['state']),
    enabled: body['enabled'] !== false,
    on_create: flag('on_create'),
    on_delete: flag('on_delete'),
    list_id: (body['list_id'] as string | null | undefined) ?? null,
  };
}

function answer(status: number, automation: StoredAutomation): Reply {
  return { status, body: automationBody(automation), headers: { etag: etagOf(automation) } };
}

function typeOf(ctx: PathContext): string {
  return ctx.params['automationObjectType']!;
}

function idOf(ctx: PathContext): string {
  return ctx.params['automationId']!;
}

function viewIdOf(ctx: RequestContext): string {
  const id = ctx.params['viewId']!;
  if (!isUuid(id)) {
    throw fieldProblem('path.viewId', `The contact view id must be a UUID, got '${id}'.`, 'format');
  }
  return id;
}

function viewBody(view: ContactView) {
  const { team_id: _team, ...body } = view;
  return { ...body, object_type: 'contact' };
}

function integerParam(
  ctx: RequestContext,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const text = queryValue(ctx, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw fieldProblem(
      `query.${name}`,
      `${name} must be an integer from ${min} to ${max}, got '${text}'.`,
      'type',
    );
  }
  return value;
}
