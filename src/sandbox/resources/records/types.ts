// What a record is: the stored shape (the wire's Record plus timestamps, soft delete and
// version), what a create puts in, and what a patch changes. The records model keeps them;
// its events (events.ts) carry them.

/** Property values keyed by property slug. */
export type Values = Record<string, unknown>;

export interface StoredRecord {
  id: string;
  /** Property values of the record itself (the wire's `default`). */
  default: Values;
  /**
   * Memberships in lists, keyed by list id, each with the record's list-scoped values (the
   * wire's `list`). `count?list_id=` counts the members of that list.
   */
  lists: Record<string, Values>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** 1 at creation, +1 on every change; the base of etags. */
  version: number;
}

export interface NewRecord {
  /** Default: a random UUID. */
  id?: string;
  default?: Values;
  lists?: Record<string, Values>;
  /** Creation time (ISO-8601); default: the sandbox clock. */
  at?: string;
}

export interface RecordChanges {
  /** Values to set, by slug (other slugs keep their values); null clears a value. */
  default?: Values;
  /**
   * List-scoped values to set, by list id then slug (null clears a value); a new list id
   * adds a membership, a null in place of the values removes the membership.
   */
  lists?: Record<string, Values | null>;
}
