// Fixed facts about properties that are the same in every sandbox: the storage types, the
// object types that carry properties, the roles (display formats) with their data types,
// and stable ids derived from names so that every sandbox agrees on them.

import { createHash } from 'node:crypto';
import {
  PropertyObjectType as PropertyObjectTypeEnum,
  PropertyType as PropertyTypeEnum,
} from '../../../generated/enums.ts';
import { oneOf } from '../../object-types.ts';

/** Storage types of property definitions (api.md, "Property type enum"). */
export const PROPERTY_TYPES = PropertyTypeEnum;

export type PropertyType = (typeof PROPERTY_TYPES)[number];

export const isPropertyType = oneOf(PROPERTY_TYPES);

/** The storage types whose definitions carry options. */
export const SELECT_TYPES: readonly PropertyType[] = ['select_str', 'multiselect_str'];

export function hasOptions(type: string): boolean {
  return type === 'select_str' || type === 'multiselect_str';
}

/** True for `ref_*` and `multiref_*` types: their values are ids of other records. */
export function isReferenceType(type: string): boolean {
  return type.startsWith('ref_') || type.startsWith('multiref_');
}

/**
 * The object types of the property endpoints the sandbox knows: the nine api.md lists. Other
 * names are answered 404 naming these.
 */
export const PROPERTY_OBJECT_TYPES = PropertyObjectTypeEnum;

export type PropertyObjectType = (typeof PROPERTY_OBJECT_TYPES)[number];

export const isPropertyObjectType = oneOf(PROPERTY_OBJECT_TYPES);

/**
 * A UUID (version 5 layout: SHA-1 of a fixed namespace and the name) that is the same in
 * every sandbox for the same name parts.
 */
export function stableId(...parts: string[]): string {
  const hash = createHash('sha1')
    .update(`ws-sandbox\0${parts.join('\0')}`)
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A role: how the product displays values of a definition; it suits some storage types. */
export interface Role {
  id: string;
  slug: string;
  name: string;
  /** The storage types the role suits; a definition's role must list its type. */
  types: readonly PropertyType[];
  /** The canonical role of these types (the default role_id of a new definition). */
  canonicalFor: readonly PropertyType[];
}

const REF_TYPES = PROPERTY_TYPES.filter((t) => t.startsWith('ref_'));
const MULTIREF_TYPES = PROPERTY_TYPES.filter((t) => t.startsWith('multiref_'));

function role(slug: string, name: string, types: readonly PropertyType[], canonical = false): Role {
  return { id: stableId('role', slug), slug, name, types, canonicalFor: canonical ? types : [] };
}

/**
 * The sandbox's fixed catalogue of roles (the hosted catalogue is not published). Every
 * storage type has exactly one canonical role.
 */
export const ROLES: readonly Role[] = [
  role('number', 'Number', ['num'], true),
  role('currency', 'Currency', ['num']),
  role('percent', 'Percent', ['num']),
  role('text', 'Text', ['str'], true),
  role('email', 'Email address', ['str']),
  role('phone', 'Phone number', ['str']),
  role('url', 'Link', ['str']),
  role('checkbox', 'Checkbox', ['bool'], true),
  role('date', 'Date', ['date'], true),
  role('datetime', 'Date and time', ['date']),
  role('long_text', 'Long text', ['text'], true),
  role('file', 'File', ['byte'], true),
  role('select', 'Single select', ['select_str'], true),
  role('tags', 'Tags', ['multi_str'], true),
  role('multiselect', 'Multiple select', ['multiselect_str'], true),
  role('json', 'JSON', ['jsonb'], true),
  role('record', 'Linked record', REF_TYPES, true),
  role('records', 'Linked records', MULTIREF_TYPES, true),
];

export function roleById(id: string): Role | undefined {
  return ROLES.find((r) => r.id === id);
}

export function roleBySlug(slug: string): Role {
  const found = ROLES.find((r) => r.slug === slug);
  if (found === undefined) throw new Error(`No role '${slug}' in the catalogue`);
  return found;
}

/** The canonical role of a storage type. */
export function canonicalRole(type: PropertyType): Role {
  const found = ROLES.find((r) => r.canonicalFor.includes(type));
  if (found === undefined) throw new Error(`No canonical role for type ${type}`);
  return found;
}

/** The roles that suit a storage type. */
export function rolesFor(type: PropertyType): Role[] {
  return ROLES.filter((r) => r.types.includes(type));
}

const SLUG_MAX = 64;

/** Slugs of definitions and options: lower-case letters, digits and `_`, from a letter or digit. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_]{0,63}$/;

/**
 * `Deal size` → `deal_size`, `Über-Größe!` → `uber_grosse`; `fallback` when nothing is left.
 * Leaves room for a numeric suffix.
 */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, SLUG_MAX - 4)
    .replace(/_+$/, '');
  return slug === '' ? fallback : slug;
}

/** `base`, else `base_2`, `base_3`, ...: the first for which `taken` is false. */
export function freeSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}_${n}`;
    if (!taken(candidate)) return candidate;
  }
}
