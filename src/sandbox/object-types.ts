// The object types of the record endpoints (api.md's six, and `event` and `engagement`,
// which the official client reaches), as the contract lists them. Records keep one table per
// type; properties, views, grants and imports name a type in their paths and check it
// against this one list. Import and the batch operations serve every type but `event`.

import { BulkObjectType, RecordObjectType } from '../generated/enums.ts';

export const OBJECT_TYPES = RecordObjectType;

/** The record types with import, batch update and batch delete. */
export const BULK_TYPES = BulkObjectType;

export type ObjectType = (typeof OBJECT_TYPES)[number];

/** A check that a name is one of `names` (a contract enum); a name that is has their type. */
export function oneOf<T extends string>(names: readonly T[]): (value: string) => value is T {
  return (value): value is T => (names as readonly string[]).includes(value);
}

export const isObjectType = oneOf(OBJECT_TYPES);
