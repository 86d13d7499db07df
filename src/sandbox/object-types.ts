// The object types of the record endpoints (api.md, "Object types"), as the contract lists
// them. Records keep one table per type; properties, views, grants and imports name a type
// in their paths and check it against this one list.

import { RecordObjectType } from '../generated/enums.ts';

export const OBJECT_TYPES = RecordObjectType;

export type ObjectType = (typeof OBJECT_TYPES)[number];

export function isObjectType(value: string): value is ObjectType {
  return (OBJECT_TYPES as readonly string[]).includes(value);
}
