// Contact views for the recipients of email and LinkedIn steps. An email or LinkedIn action
// names a contact view (`recipient_view_id`, api.md) whose filter is read again at each
// send step; the API serves no contact views (they are made in the product), so the sandbox
// keeps stand-ins that a test or a user defines with `PUT /__sandbox/contact_views/{id}`
// (a filter, a combinator and a list, as a view has), in the `contact_views` slice.

import { isPlainObject } from '../../../util/guards.ts';
import { notFound } from '../../errors.ts';
import { defineSlice, SliceModel, SnapshotError, type Store, snapshotItems } from '../../store.ts';
import type { Scope } from '../properties/scope.ts';
import { type Combinator, compileFilter, type FilterEntry } from '../records/filter.ts';
import { recordsOf } from '../records/model.ts';
import type { StoredRecord } from '../records/types.ts';
import type { ContactView } from './types.ts';

export interface ContactViewFields {
  name: string;
  filter: ContactView['filter'];
  combinator: Combinator;
  list_id: string | null;
}

export class ContactViewsModel extends SliceModel {
  private views = new Map<string, ContactView>();

  list(teamId: string): ContactView[] {
    return [...this.views.values()].filter((v) => v.team_id === teamId);
  }

  find(teamId: string, id: string): ContactView | undefined {
    const view = this.views.get(id);
    return view?.team_id === teamId ? view : undefined;
  }

  /** Create or replace the view `id` (its filter checked as a record query's); true when new. */
  put(
    store: Store,
    teamId: string,
    id: string,
    fields: ContactViewFields,
  ): { view: ContactView; created: boolean } {
    matcher(store, teamId, fields, (path) => `body.${path}`);
    const before = this.find(teamId, id);
    const at = this.ctx.clock.iso();
    const view: ContactView = {
      id,
      team_id: teamId,
      ...structuredClone(fields),
      created_at: before?.created_at ?? at,
      updated_at: at,
    };
    this.views.set(id, view);
    this.ctx.changed();
    return { view, created: before === undefined };
  }

  remove(teamId: string, id: string): void {
    if (this.find(teamId, id) === undefined) throw notFound(`No contact view has the id ${id}.`);
    this.views.delete(id);
    this.ctx.changed();
  }

  reset(): void {
    this.views = new Map();
  }

  isEmpty(): boolean {
    return this.views.size === 0;
  }

  toJSON(): ContactView[] {
    return [...this.views.values()];
  }

  load(data: unknown): void {
    const views = new Map<string, ContactView>();
    for (const [item, at] of snapshotItems(data, 'store.slices.contact_views', 'contact views')) {
      if (
        !isPlainObject(item) ||
        typeof item['id'] !== 'string' ||
        typeof item['team_id'] !== 'string' ||
        !Array.isArray(item['filter'])
      ) {
        throw new SnapshotError(at, 'must be a contact view { id, team_id, filter, … }');
      }
      views.set(item['id'], item as unknown as ContactView);
    }
    this.views = views;
  }
}

/** The active contacts a view shows now (members of its list when it has one), in creation order. */
export function recipientsOf(store: Store, view: ContactView): Readonly<StoredRecord>[] {
  const keep = matcher(
    store,
    view.team_id,
    view,
    (path) => `filter of contact view ${view.id}: ${path}`,
  );
  const out: Readonly<StoredRecord>[] = [];
  for (const record of recordsOf(store).records('contact')) {
    if (view.list_id !== null && record.lists[view.list_id] === undefined) continue;
    if (keep === undefined || keep(record)) out.push(record);
  }
  return out;
}

function matcher(
  store: Store,
  teamId: string,
  view: Pick<ContactViewFields, 'filter' | 'combinator' | 'list_id'>,
  name: (path: string) => string,
) {
  const scope: Scope = { store, teamId, type: 'contact', listId: view.list_id };
  return compileFilter(scope, view.filter as readonly FilterEntry[], view.combinator, name);
}

export const contactViewsSlice = defineSlice('contact_views', (ctx) => new ContactViewsModel(ctx));

export function contactViewsOf(store: Store): ContactViewsModel {
  return store.slice(contactViewsSlice);
}
