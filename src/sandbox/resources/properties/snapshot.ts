// Reading the `properties` slice of a data file: every team definition and option checked
// field by field (a SnapshotError names the first problem), shared defaults refused (they
// are never stored), crm_id required to mirror list_id.

import { isPlainObject, isUuid } from '../../../util/guards.ts';
import { SnapshotError } from '../../store.ts';
import {
  hasOptions,
  isPropertyObjectType,
  isPropertyType,
  PROPERTY_OBJECT_TYPES,
  roleById,
  SLUG_PATTERN,
} from './catalogue.ts';
import type { PropertyDefinition, PropertyOption } from './types.ts';

type Check = (value: unknown) => boolean;
const isString: Check = (v) => typeof v === 'string';
const orNull =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
const isBool: Check = (v) => typeof v === 'boolean';

function checkFields(
  row: Record<string, unknown>,
  at: string,
  fields: Record<string, [Check, string]>,
): void {
  for (const [field, [check, expected]] of Object.entries(fields)) {
    if (!check(row[field])) throw new SnapshotError(`${at}.${field}`, `must be ${expected}`);
  }
}

function checkMirror(item: Record<string, unknown>, at: string): void {
  if (item['crm_id'] !== item['list_id']) {
    throw new SnapshotError(`${at}.crm_id`, 'must equal list_id (its deprecated mirror)');
  }
}

function parseOption(item: unknown, at: string): PropertyOption {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  checkFields(item, at, {
    id: [isUuid, 'a UUID'],
    slug: [(v) => typeof v === 'string' && SLUG_PATTERN.test(v), 'a slug'],
    value: [orNull(isString), 'a string or null'],
    color_scheme: [orNull(isString), 'a string or null'],
    description: [orNull(isString), 'a string or null'],
    icon: [orNull(isString), 'a string or null'],
    option_group: [orNull(isString), 'a string or null'],
    sort_index: [orNull((v) => typeof v === 'number' && Number.isFinite(v)), 'a number or null'],
    list_id: [orNull(isUuid), 'a UUID or null'],
    // Data files written before options had `enabled` leave it out: enabled.
    enabled: [(v) => v === undefined || typeof v === 'boolean', 'a boolean'],
  });
  checkMirror(item, at);
  const o = item as unknown as PropertyOption;
  return {
    id: o.id,
    slug: o.slug,
    value: o.value,
    color_scheme: o.color_scheme,
    description: o.description,
    icon: o.icon,
    option_group: o.option_group,
    sort_index: o.sort_index,
    enabled: o.enabled ?? true,
    list_id: o.list_id,
    crm_id: o.list_id,
  };
}

/** A stored team definition (with its options), or a SnapshotError naming `at`. */
export function parseDefinition(item: unknown, at: string): PropertyDefinition {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  checkFields(item, at, {
    id: [isUuid, 'a UUID'],
    object_type: [
      (v) => typeof v === 'string' && isPropertyObjectType(v),
      `one of ${PROPERTY_OBJECT_TYPES.join(', ')}`,
    ],
    slug: [(v) => typeof v === 'string' && SLUG_PATTERN.test(v), 'a slug'],
    name: [isString, 'a string'],
    type: [(v) => typeof v === 'string' && isPropertyType(v), 'a property type'],
    alias: [orNull(isString), 'a string or null'],
    icon: [orNull(isString), 'a string or null'],
    enabled: [isBool, 'a boolean'],
    required: [isBool, 'a boolean'],
    locked: [(v) => v === false, 'false (only shared defaults are locked)'],
    native: [(v) => v === false, 'false (only shared defaults are native)'],
    role_id: [orNull((v) => typeof v === 'string' && roleById(v) !== undefined), 'a known role id'],
    team_id: [isUuid, 'a UUID'],
    list_id: [orNull(isUuid), 'a UUID or null'],
    created_at: [isString, 'an ISO-8601 string'],
    updated_at: [isString, 'an ISO-8601 string'],
  });
  checkMirror(item, at);
  const d = item as unknown as PropertyDefinition;
  const def: PropertyDefinition = {
    id: d.id,
    object_type: d.object_type,
    slug: d.slug,
    name: d.name,
    type: d.type,
    alias: d.alias,
    icon: d.icon,
    enabled: d.enabled,
    required: d.required,
    locked: false,
    native: false,
    role_id: d.role_id,
    team_id: d.team_id,
    list_id: d.list_id,
    crm_id: d.list_id,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
  if (hasOptions(def.type)) {
    if (!Array.isArray(item['options'])) {
      throw new SnapshotError(`${at}.options`, 'must be an array on select types');
    }
    def.options = item['options'].map((o, i) => parseOption(o, `${at}.options[${i}]`));
  } else if (item['options'] !== undefined) {
    throw new SnapshotError(`${at}.options`, `must be absent on type ${def.type}`);
  }
  return def;
}
