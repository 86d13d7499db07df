// Views: saved display configurations (selected properties, filter, sort, grouping) of an
// object type, kept in the store's `views` slice in creation order. The model checks every
// property a view names against the definitions its object type shows on the view's list.

import { randomUUID } from 'node:crypto';
import {
  ViewObjectType as ViewObjectTypeEnum,
  ViewType as ViewTypeEnum,
} from '../../../generated/enums.ts';
import { isPlainObject } from '../../../util/guards.ts';
import { invalidRequest, notFound } from '../../errors.ts';
import { oneOf } from '../../object-types.ts';
import { defineSlice, type SliceContext, SnapshotError, type Store } from '../../store.ts';
import { TypedTeamSlice } from '../../team-slice.ts';
import { stableId } from '../properties/catalogue.ts';
import { type PropertyLeaving, propertyLeaving } from '../properties/events.ts';
import { type PropertiesModel, propertiesOf } from '../properties/model.ts';
import { conflict, describeDefinition } from '../properties/rules.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import { checkPaths, pathsOf, resolvePath } from './paths.ts';
import { checkViewQuery } from './records.ts';
import type { View, ViewFields } from './types.ts';

/** The object types of the view endpoints (api.md, "Object types"). */
export const VIEW_OBJECT_TYPES = ViewObjectTypeEnum;

export type ViewObjectType = (typeof VIEW_OBJECT_TYPES)[number];

export const isViewObjectType = oneOf(VIEW_OBJECT_TYPES);

export const VIEW_TYPES = ViewTypeEnum;

/** Pinned records a view may hold. */
export const MAX_PINNED = 1_000;

/** The user every view of the sandbox is saved by (the sandbox has one user, its API key). */
export const SANDBOX_USER_ID = stableId('user', 'sandbox');

/** The settable fields and their values on a new view. */
const SETTABLE: Required<Omit<ViewFields, 'name' | 'view_type'>> = {
  aggregation_prop_def_id: null,
  aggregation_type: null,
  column_layout: null,
  combinator: 'AND',
  filter: [],
  group_by: null,
  group_hidden_option_ids: null,
  group_hide_empty: null,
  group_sort: null,
  icon: null,
  list_id: null,
  select: [],
  sort: [],
  sort_order: null,
};

/** Every field a request may set. */
export const VIEW_FIELDS = ['name', 'view_type', ...Object.keys(SETTABLE)] as (keyof ViewFields)[];

export class ViewsModel extends TypedTeamSlice<View> {
  constructor(ctx: SliceContext) {
    super(ctx, {
      base: 'store.slices.views',
      what: 'views',
      parse: parseView,
      noun: 'view',
      path: 'views',
    });
  }

  create(
    store: Store,
    teamId: string,
    objectType: string,
    fields: ViewFields & { name: string; view_type: string },
  ): View {
    const at = this.ctx.clock.iso();
    const view: View = {
      id: randomUUID(),
      object_type: objectType,
      name: fields.name,
      view_type: fields.view_type,
      ...structuredClone(SETTABLE),
      record_order: [],
      created_at: at,
      updated_at: at,
      team_id: teamId,
      user_id: SANDBOX_USER_ID,
    };
    assign(view, fields);
    check(store, view);
    this.add(view);
    this.ctx.changed();
    return view;
  }

  /** Set the given fields; select, filter and sort are replaced wholesale. */
  update(store: Store, teamId: string, objectType: string, id: string, fields: ViewFields): View {
    const view = this.get(teamId, objectType, id);
    const next = structuredClone(view);
    assign(next, fields);
    check(store, next);
    Object.assign(view, next, { updated_at: this.ctx.clock.iso() });
    this.ctx.changed();
    return view;
  }

  /**
   * Pin a record (its existence is the caller's to check): at the end of `record_order`; a
   * record pinned already keeps its place. 409 past MAX_PINNED.
   */
  pin(teamId: string, objectType: string, id: string, recordId: string): View {
    const view = this.get(teamId, objectType, id);
    if (view.record_order.includes(recordId)) return view;
    if (view.record_order.length >= MAX_PINNED) {
      throw conflict(
        `The view '${view.name}' has ${MAX_PINNED} pinned records, the most a view holds: unpin one first (DELETE /v2/prism/${teamId}/${objectType}/views/${view.id}/records/{objectId}).`,
        { view_id: view.id, pinned: view.record_order.length },
      );
    }
    return this.setOrder(view, [...view.record_order, recordId]);
  }

  /** Unpin a record: 404 when it is not pinned. */
  unpin(teamId: string, objectType: string, id: string, recordId: string): View {
    const view = this.get(teamId, objectType, id);
    if (!view.record_order.includes(recordId)) {
      throw notFound(
        `The record ${recordId} is not pinned in the view '${view.name}' (${view.id}).`,
      );
    }
    return this.setOrder(
      view,
      view.record_order.filter((r) => r !== recordId),
    );
  }

  /**
   * Reorder the pinned records: `ids` first, in that order, then the pinned ones not named in
   * theirs. An id that is not pinned is 400 (`body.object_ids[i]`).
   */
  reorder(teamId: string, objectType: string, id: string, ids: readonly string[]): View {
    const view = this.get(teamId, objectType, id);
    const errors = ids.flatMap((recordId, i) =>
      view.record_order.includes(recordId)
        ? []
        : [
            {
              field: `body.object_ids[${i}]`,
              code: 'not_pinned',
              message: `${recordId} is not pinned in this view: pin it first (POST /v2/prism/${teamId}/${objectType}/views/${view.id}/records/${recordId}).`,
            },
          ],
    );
    if (errors.length > 0) {
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more: see errors)` : '';
      throw invalidRequest(`${errors[0]!.field}: ${errors[0]!.message}${more}`, errors);
    }
    const named = new Set(ids);
    return this.setOrder(view, [...ids, ...view.record_order.filter((r) => !named.has(r))]);
  }

  private setOrder(view: View, order: string[]): View {
    view.record_order = order;
    view.updated_at = this.ctx.clock.iso();
    this.ctx.changed();
    return view;
  }

  remove(teamId: string, objectType: string, id: string): void {
    this.drop(this.get(teamId, objectType, id));
    this.ctx.changed();
  }

  /**
   * A definition that a view uses cannot be deleted, nor moved to a list where a view using
   * it would no longer see it (moving to the whole workspace hides it from no view): 409
   * naming the views. Asked by the properties model before the change (propertyLeaving).
   */
  refuseLeaving(props: PropertiesModel, leaving: PropertyLeaving): void {
    const { definition: def, to } = leaving;
    if (to === null) return;
    const users = this.using(props, leaving.teamId, def).filter(
      (view) => to === undefined || view.list_id !== to,
    );
    if (users.length === 0) return;
    const named = users.map((v) => `'${v.name}' (${v.object_type}, id ${v.id})`).join(', ');
    const what = to === undefined ? 'be deleted' : `move to list ${to}`;
    throw conflict(
      `The ${def.object_type} property ${describeDefinition(def)} cannot ${what}: ${users.length === 1 ? 'the view' : 'the views'} ${named} ${users.length === 1 ? 'uses' : 'use'} it. Remove it from ${users.length === 1 ? 'that view' : 'those views'} first.`,
      { views: users.map((v) => v.id) },
    );
  }

  /** The team's views (of any object type) that name the definition `def`. */
  using(props: PropertiesModel, teamId: string, def: PropertyDefinition): View[] {
    return this.itemsOf(teamId).filter(
      (view) =>
        view.aggregation_prop_def_id === def.id ||
        [...pathsOf(view)].some(([, path]) => {
          const resolved = resolvePath(props, teamId, view.object_type, view.list_id, path);
          return resolved.ok && resolved.definitions.includes(def);
        }),
    );
  }
}

function assign(view: View, fields: ViewFields): void {
  for (const field of VIEW_FIELDS) {
    const value = fields[field];
    if (value !== undefined)
      (view as unknown as Record<string, unknown>)[field] = structuredClone(value);
  }
}

/**
 * 400 with a field error for a blank name and for every property the view names that its
 * type does not show;
 * then the view is read as the record query engine will run it (operators, operands).
 */
function check(store: Store, view: View): void {
  const props = propertiesOf(store);
  const errors = checkPaths(props, view.team_id, view.object_type, view.list_id, view);
  if (view.name.trim() === '') {
    errors.unshift({ field: 'body.name', code: 'empty', message: 'name must not be blank.' });
  }
  const agg = view.aggregation_prop_def_id;
  if (
    agg !== null &&
    !props.visible(view.team_id, view.object_type, view.list_id).some((d) => d.id === agg)
  ) {
    errors.push({
      field: 'body.aggregation_prop_def_id',
      code: 'unknown_property',
      message: `No ${view.object_type} property${view.list_id === null ? '' : ` on list ${view.list_id}`} has the id ${agg}.`,
    });
  }
  if (errors.length > 0) {
    const [first] = errors;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more: see errors)` : '';
    throw invalidRequest(`${first!.field}: ${first!.message}${more}`, errors);
  }
  checkViewQuery(store, view);
}

function parseView(item: unknown, at: string): View {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  const expect = (field: string, ok: boolean, what: string) => {
    if (!ok) throw new SnapshotError(`${at}.${field}`, `must be ${what}`);
  };
  const str = (field: string) => typeof item[field] === 'string';
  const strOrNull = (field: string) => item[field] === null || str(field);
  for (const field of [
    'id',
    'object_type',
    'name',
    'view_type',
    'created_at',
    'updated_at',
    'team_id',
    'user_id',
  ]) {
    expect(field, str(field), 'a string');
  }
  expect(
    'object_type',
    isViewObjectType(item['object_type'] as string),
    `one of ${VIEW_OBJECT_TYPES.join(', ')}`,
  );
  for (const field of [
    'aggregation_prop_def_id',
    'aggregation_type',
    'group_by',
    'group_sort',
    'icon',
    'list_id',
  ]) {
    expect(field, strOrNull(field), 'a string or null');
  }
  expect('combinator', item['combinator'] === 'AND' || item['combinator'] === 'OR', 'AND or OR');
  expect(
    'select',
    Array.isArray(item['select']) && item['select'].every((s) => typeof s === 'string'),
    'an array of strings',
  );
  for (const field of ['filter', 'sort']) {
    expect(
      field,
      Array.isArray(item[field]) && (item[field] as unknown[]).every(isPlainObject),
      'an array of objects',
    );
  }
  expect(
    'column_layout',
    item['column_layout'] === null || isPlainObject(item['column_layout']),
    'an object or null',
  );
  expect(
    'group_hide_empty',
    item['group_hide_empty'] === null || typeof item['group_hide_empty'] === 'boolean',
    'a boolean or null',
  );
  expect(
    'sort_order',
    item['sort_order'] === null || typeof item['sort_order'] === 'number',
    'a number or null',
  );
  // Files written before pins have none.
  const order = item['record_order'] ?? [];
  expect(
    'record_order',
    Array.isArray(order) && order.every((id) => typeof id === 'string'),
    'an array of record ids',
  );
  const view = {} as Record<string, unknown>;
  for (const field of [
    'id',
    'object_type',
    ...VIEW_FIELDS,
    'created_at',
    'updated_at',
    'team_id',
    'user_id',
  ]) {
    view[field] = item[field] ?? null;
  }
  view['record_order'] = [...(order as string[])];
  return view as unknown as View;
}

export const viewsSlice = defineSlice('views', (ctx) => new ViewsModel(ctx));

/** What views react to: a definition leaving (deleted, or moved to another list). */
export function subscribeViews(store: Store): void {
  store.events.on(propertyLeaving, (leaving) => {
    viewsOf(store).refuseLeaving(propertiesOf(store), leaving);
  });
}

/** The views model of `store`. */
export function viewsOf(store: Store): ViewsModel {
  return store.slice(viewsSlice);
}
