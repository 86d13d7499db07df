// A slice of configuration kept per team in creation order (lists, views, automations: a
// handful per team), journaled whole as one array of its items; views and automations also
// belong to an object type (TypedTeamSlice).

import { entryOf } from '../util/maps.ts';
import { notFound } from './errors.ts';
import { parseByTeam, type SliceContext, SliceModel } from './store.ts';

/** How the slice's saved state is read: where it stands, what its items are, how one is parsed. */
export interface TeamReading<T> {
  /** `store.slices.<name>`. */
  readonly base: string;
  /** What the items are called in its messages (`views`). */
  readonly what: string;
  readonly parse: (item: unknown, at: string) => T;
}

export abstract class TeamSlice<T extends { id: string; team_id: string }> extends SliceModel {
  /** Items by team, in creation order. */
  private teams = new Map<string, T[]>();
  private readonly reading: TeamReading<T>;

  constructor(ctx: SliceContext, reading: TeamReading<T>) {
    super(ctx);
    this.reading = reading;
  }

  /** The team's items, in creation order. */
  protected itemsOf(teamId: string): T[] {
    return this.teams.get(teamId) ?? [];
  }

  /** Keep a new item, last of its team's. */
  protected add(item: T): void {
    entryOf(this.teams, item.team_id, () => []).push(item);
  }

  /** Forget an item this slice keeps. */
  protected drop(item: T): void {
    const items = this.itemsOf(item.team_id);
    items.splice(items.indexOf(item), 1);
  }

  reset(): void {
    this.teams = new Map();
  }

  isEmpty(): boolean {
    for (const items of this.teams.values()) if (items.length > 0) return false;
    return true;
  }

  toJSON(): T[] {
    return [...this.teams.values()].flat();
  }

  load(data: unknown): void {
    const { base, what, parse } = this.reading;
    this.teams = parseByTeam(data, base, what, parse);
  }
}

/** The reading of a slice whose items belong to an object type, with how a 404 names them. */
export interface TypedReading<T> extends TeamReading<T> {
  /** What an item is called (`view`). */
  readonly noun: string;
  /** The path below the object type that lists them (`views`). */
  readonly path: string;
}

/** An item of an object type, and of a list or of none (null). */
interface TypedItem {
  readonly id: string;
  readonly team_id: string;
  readonly object_type: string;
  readonly list_id: string | null;
}

/** Items per team and object type (views, automations): listed by type and list, found by id. */
export abstract class TypedTeamSlice<T extends TypedItem> extends TeamSlice<T> {
  private readonly naming: TypedReading<T>;

  constructor(ctx: SliceContext, reading: TypedReading<T>) {
    super(ctx, reading);
    this.naming = reading;
  }

  /** The team's items of an object type, in creation order; with listId, that list's only. */
  list(teamId: string, objectType: string, listId?: string): T[] {
    return this.itemsOf(teamId).filter(
      (i) => i.object_type === objectType && (listId === undefined || i.list_id === listId),
    );
  }

  /** The item, or 404. */
  get(teamId: string, objectType: string, id: string): T {
    const found = this.itemsOf(teamId).find((i) => i.id === id && i.object_type === objectType);
    if (found === undefined) {
      const { noun, path } = this.naming;
      throw notFound(
        `No ${objectType} ${noun} has the id ${id}. List them with GET /v2/prism/${teamId}/${objectType}/${path}.`,
      );
    }
    return found;
  }
}
