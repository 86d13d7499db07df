// The records of a view: its select, filter, sort and combinator run through the record
// query engine (records/query.ts), the same code as the record list and query endpoints, so
// a view shows exactly what the equivalent query returns and pages the same way, except
// that its pinned records (`record_order`) that the query selects come first, in their order.

import { isObjectType } from '../../object-types.ts';
import type { Store } from '../../store.ts';
import { type PageResult, type QuerySpec, runQuery } from '../records/query.ts';
import type { View } from './types.ts';

export interface PageRequest {
  cursor?: string;
  limit?: number;
  page?: number;
}

/** The query a view stands for: an empty select means every property. */
function specOf(view: View): QuerySpec {
  return {
    select: view.select.length === 0 ? undefined : view.select,
    filter: view.filter,
    combinator: view.combinator,
    sort: view.sort,
    list_id: view.list_id,
  };
}

/**
 * A page of the view's records. Problems of the paging parameters name `query.cursor`,
 * `query.limit`, `query.page`; problems of the view itself (an option deleted since it was
 * saved, say) name `view.<path>`. Views of a type without records (comment) have none: their
 * page is always empty.
 */
export function viewRecords(store: Store, view: View, page: PageRequest): PageResult {
  if (!isObjectType(view.object_type)) return { data: [], has_more: false, next_cursor: null };
  const spec: QuerySpec = { ...specOf(view), pinned: view.record_order, ...page };
  return runQuery(store, view.team_id, view.object_type, spec, {
    field: (path) => (/^(cursor|limit|page)$/.test(path) ? `query.${path}` : `view.${path}`),
  });
}

/**
 * Check a view as the query engine reads it (operators, operand types, option values), with
 * problems named by their place in a request body (`body.filter[0].stage.in`): throws 400.
 */
export function checkViewQuery(store: Store, view: View): void {
  if (!isObjectType(view.object_type)) return;
  runQuery(
    store,
    view.team_id,
    view.object_type,
    { ...specOf(view), limit: 1 },
    {
      field: (path) => `body.${path}`,
    },
  );
}
