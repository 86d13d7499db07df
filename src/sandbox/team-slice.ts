// A slice of configuration kept per team in creation order (lists, views, automations: a
// handful per team), journaled whole as one array of its items.

import { entryOf } from '../util/maps.ts';
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
