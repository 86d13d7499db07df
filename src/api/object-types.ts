// Object types, as the API names them for each family of endpoints. Everywhere a
// command takes an object type, singular and plural both work (`contact`, `contacts`),
// and an unknown type is a usage error listing the known ones.
import { UsageError } from '../errors.ts';
import {
  AutomationObjectType,
  BulkObjectType,
  GrantObjectType,
  PropertyObjectType,
  RecordObjectType,
  ViewObjectType,
} from '../generated/enums.ts';

/** Record endpoints: api.md's six, and event and engagement. */
export const RECORD_TYPES = RecordObjectType;
/** The record types with import and batch update and delete (all but event). */
export const BULK_TYPES = BulkObjectType;
/** The object types with grants (message has no other route). */
export const GRANT_TYPES = GrantObjectType;
/** Property endpoints: these nine are documented; the service knows more. */
export const PROPERTY_TYPES = PropertyObjectType;
/** View endpoints. */
export const VIEW_TYPES = ViewObjectType;
/** Triggered automation endpoints. */
export const AUTOMATION_TYPES = AutomationObjectType;

export type RecordType = (typeof RECORD_TYPES)[number];
export type BulkType = (typeof BULK_TYPES)[number];
export type GrantType = (typeof GRANT_TYPES)[number];
export type ViewType = (typeof VIEW_TYPES)[number];
export type AutomationType = (typeof AUTOMATION_TYPES)[number];

export type TypeFamily = 'record' | 'property' | 'view' | 'automation' | 'grant';

const FAMILIES: Record<TypeFamily, readonly string[]> = {
  record: RECORD_TYPES,
  property: PROPERTY_TYPES,
  view: VIEW_TYPES,
  automation: AUTOMATION_TYPES,
  grant: GRANT_TYPES,
};

const WHAT: Record<TypeFamily, string> = {
  record: 'records',
  property: 'properties',
  view: 'views',
  automation: 'automations',
  grant: 'grants',
};

/** `contacts` → `contact`, `Deals` → `deal`, `ai-chat-threads` → `ai_chat_thread`. */
export function singular(input: string): string {
  const t = input.trim().toLowerCase().replace(/-/g, '_');
  if (t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.endsWith('sses')) return t.slice(0, -2);
  if (t.endsWith('s') && !t.endsWith('ss')) return t.slice(0, -1);
  return t;
}

/**
 * The API's name for an object type given by a user. Property endpoints accept names
 * beyond the documented nine (the set is open), so an unlisted snake_case name passes
 * there; elsewhere an unknown type is a usage error that lists the known ones.
 */
export function objectType(input: string, family: TypeFamily): string {
  const known = FAMILIES[family];
  const raw = input.trim().toLowerCase().replace(/-/g, '_');
  if (known.includes(raw)) return raw;
  const one = singular(input);
  if (known.includes(one)) return one;
  if (family === 'property' && /^[a-z][a-z0-9_]*$/.test(raw)) return raw;
  throw new UsageError(
    `Unknown object type "${input}" for ${WHAT[family]}.`,
    `Object types for ${WHAT[family]}: ${known.join(', ')} (singular or plural).`,
  );
}

/**
 * A record type that has import and the batch operations (`what` names the operation for
 * the message): `event` records have neither, a usage error that says what to do instead.
 */
export function bulkRecordType(input: string, what: string): BulkType {
  const type = objectType(input, 'record');
  if (!(BULK_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(
      `${type} records have no ${what}: the API writes them one at a time.`,
      `Use ws records create ${type} / update / delete for each record. Types with ${what}: ${BULK_TYPES.join(', ')}.`,
    );
  }
  return type as BulkType;
}
