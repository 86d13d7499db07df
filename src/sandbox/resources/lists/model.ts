// Lists: named collections of records of one object type, made from a template, kept in
// the store's `lists` slice in creation order per team. A template makes the list's stage
// property (a select of the list with alias app_stage: the properties model) and its views
// (a board by stage and a grid: the views model); records join a list through `list` in a
// write, as before lists could be made. Lists are configuration (a handful per team): the
// slice is journaled whole.

import { randomUUID } from 'node:crypto';
import { isPlainObject } from '../../../util/guards.ts';
import { invalidRequest, notFound, SandboxError } from '../../errors.ts';
import { isObjectType, OBJECT_TYPES } from '../../object-types.ts';
import { defineSlice, type SliceContext, SnapshotError, type Store } from '../../store.ts';
import { TeamSlice } from '../../team-slice.ts';
import { propertiesOf } from '../properties/model.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import { viewsOf } from '../views/model.ts';
import { LIST_TEMPLATES, PRIMARY_COLUMNS, TEMPLATES, type TemplateId } from './templates.ts';
import type { NewList, StoredList } from './types.ts';

export class ListsModel extends TeamSlice<StoredList> {
  constructor(ctx: SliceContext) {
    super(ctx, { base: 'store.slices.lists', what: 'lists', parse: parseList });
  }

  /** The team's lists, in creation order. */
  list(teamId: string): readonly StoredList[] {
    return this.itemsOf(teamId);
  }

  /** The list, or 404. */
  get(teamId: string, id: string): StoredList {
    const found = this.list(teamId).find((l) => l.id === id);
    if (found === undefined) {
      throw notFound(`No list has the id ${id}. List them with GET /v2/prism/${teamId}/lists.`);
    }
    return found;
  }

  /**
   * A list from its template: the list, its stage property and its views. The request is
   * checked first (400 naming the field), so nothing is made on a refusal.
   */
  create(store: Store, teamId: string, input: NewList): StoredList {
    const template = TEMPLATES[input.template_id];
    const objectType = objectTypeOf(input);
    const name = (input.name ?? template.title).trim();
    if (name === '') {
      throw invalidRequest('body.name: name must not be blank.', [
        { field: 'body.name', code: 'empty', message: 'name must not be blank.' },
      ]);
    }
    const at = this.ctx.clock.iso();
    const list: StoredList = {
      id: randomUUID(),
      name,
      template_id: input.template_id,
      object_type: objectType,
      core: false,
      stage_property_id: null,
      team_id: teamId,
      created_at: at,
      updated_at: at,
    };
    const stage = createStage(store, list, template.stageName, template.stages);
    list.stage_property_id = stage.id;
    const primary = PRIMARY_COLUMNS[objectType] ?? [];
    const views = viewsOf(store);
    views.create(store, teamId, objectType, {
      name: 'Pipeline',
      view_type: 'kanban',
      list_id: list.id,
      select: [...primary, stage.slug],
      group_by: stage.slug,
    });
    views.create(store, teamId, objectType, {
      name: `All ${name}`,
      view_type: 'grid',
      list_id: list.id,
      select: [...primary, stage.slug],
    });
    this.add(list);
    this.ctx.changed();
    return list;
  }
}

/** The object type of a new list: the template's, or (custom) the request's. */
function objectTypeOf(input: NewList): string {
  const template = TEMPLATES[input.template_id];
  const given = input.object_type;
  if (template.objectType === undefined) {
    if (given === undefined) {
      const message = `object_type is required with template_id custom: one of ${OBJECT_TYPES.join(', ')}.`;
      throw invalidRequest(`body.object_type: ${message}`, [
        { field: 'body.object_type', code: 'required', message },
      ]);
    }
    return given;
  }
  if (given !== undefined && given !== template.objectType) {
    const message = `a ${input.template_id} list holds ${template.objectType} records, not ${given}; leave object_type out, or use template_id custom.`;
    throw invalidRequest(`body.object_type: ${message}`, [
      { field: 'body.object_type', code: 'mismatch', message },
    ]);
  }
  return template.objectType;
}

/**
 * The list's stage: a select of the list with alias app_stage. Its name is the template's,
 * unless the object type already shows a property of that name on every list (a
 * workspace-wide one): then the list's name is added, then a number.
 */
function createStage(
  store: Store,
  list: StoredList,
  stageName: string,
  stages: readonly (readonly [string, string])[],
): PropertyDefinition {
  const props = propertiesOf(store);
  const names = [stageName, `${stageName} (${list.name})`];
  for (let n = 2; n <= 20; n++) names.push(`${stageName} ${n}`);
  for (const name of names) {
    try {
      return props.create(list.team_id, list.object_type, {
        name,
        type: 'select_str',
        list_id: list.id,
        alias: 'app_stage',
        options: stages.map(([value, color_scheme]) => ({ value, color_scheme })),
      });
    } catch (err) {
      if (!(err instanceof SandboxError && err.status === 409)) throw err;
    }
  }
  throw new SandboxError(
    409,
    'conflict',
    `The ${list.object_type} properties already use every name a stage of this list could take ('${stageName}', '${stageName} 2', …): rename one and create the list again.`,
  );
}

function parseList(item: unknown, at: string): StoredList {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  for (const field of ['id', 'name', 'team_id', 'created_at', 'updated_at'] as const) {
    if (typeof item[field] !== 'string')
      throw new SnapshotError(`${at}.${field}`, 'must be a string');
  }
  if (!(LIST_TEMPLATES as readonly unknown[]).includes(item['template_id'])) {
    throw new SnapshotError(`${at}.template_id`, `must be one of ${LIST_TEMPLATES.join(', ')}`);
  }
  if (typeof item['object_type'] !== 'string' || !isObjectType(item['object_type'])) {
    throw new SnapshotError(`${at}.object_type`, `must be one of ${OBJECT_TYPES.join(', ')}`);
  }
  const stage = item['stage_property_id'];
  if (stage !== null && typeof stage !== 'string') {
    throw new SnapshotError(`${at}.stage_property_id`, 'must be a string or null');
  }
  return {
    id: item['id'] as string,
    name: item['name'] as string,
    template_id: item['template_id'] as TemplateId,
    object_type: item['object_type'],
    core: false,
    stage_property_id: stage as string | null,
    team_id: item['team_id'] as string,
    created_at: item['created_at'] as string,
    updated_at: item['updated_at'] as string,
  };
}

export const listsSlice = defineSlice('lists', (ctx) => new ListsModel(ctx));

/** The lists model of `store`. */
export function listsOf(store: Store): ListsModel {
  return store.slice(listsSlice);
}
