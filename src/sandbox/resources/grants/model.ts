// Grants: who may see a record (deal, action, document, event, engagement, identity) or a
// message, kept in the store's `grants` slice, one per record. A record without a stored grant has the empty grant (no share level, empty maps).
// The participant arrays of a grant are not stored: they are read from the record (see
// handlers.ts). There can be one per record, so the slice keeps keyed entries for the
// data file's journal (`<type>/<recordId>`): a grant written appends that grant alone.

import { GrantObjectType } from '../../../generated/enums.ts';
import { isPlainObject } from '../../../util/guards.ts';
import { oneOf } from '../../object-types.ts';
import { defineSlice, SliceModel, SnapshotError, type Store, snapshotItems } from '../../store.ts';

/** The object types that carry grants (the contract's GrantObjectType). */
export const GRANT_TYPES = GrantObjectType;
export type GrantType = (typeof GRANT_TYPES)[number];

export const isGrantType = oneOf(GRANT_TYPES);

export const PERMISSION_LETTERS = ['a', 'r', 'w'] as const;
export type Letter = (typeof PERMISSION_LETTERS)[number];
export type PermissionMap = Record<string, Letter>;

export const SHARE_LEVELS = ['metadata', 'full'] as const;
export type ShareLevel = (typeof SHARE_LEVELS)[number];

export interface StoredGrant {
  share_level: ShareLevel | null;
  team_id: PermissionMap;
  group_id: PermissionMap;
  user_id: PermissionMap;
}

interface Row extends StoredGrant {
  object_type: GrantType;
  record_id: string;
}

export function emptyGrant(): StoredGrant {
  return { share_level: null, team_id: {}, group_id: {}, user_id: {} };
}

export class GrantsModel extends SliceModel {
  private grants = new Map<string, Row>();

  /** The grant of a record (the empty grant when none was stored). */
  get(type: GrantType, recordId: string): StoredGrant {
    const row = this.grants.get(key(type, recordId));
    return row === undefined ? emptyGrant() : copy(row);
  }

  /** Replace the grant of a record. */
  put(type: GrantType, recordId: string, grant: StoredGrant): StoredGrant {
    this.grants.set(key(type, recordId), {
      object_type: type,
      record_id: recordId,
      ...copy(grant),
    });
    this.ctx.changed(key(type, recordId));
    return this.get(type, recordId);
  }

  reset(): void {
    this.grants.clear();
  }

  isEmpty(): boolean {
    return this.grants.size === 0;
  }

  toJSON(): Row[] {
    return [...this.grants.values()].map((row) => ({
      object_type: row.object_type,
      record_id: row.record_id,
      ...copy(row),
    }));
  }

  load(data: unknown): void {
    const grants = new Map<string, Row>();
    for (const [item, at] of snapshotItems(data, 'store.slices.grants', 'grants')) {
      const row = parseRow(item, at);
      if (grants.has(key(row.object_type, row.record_id))) {
        throw new SnapshotError(at, `a second grant of ${row.object_type} ${row.record_id}`);
      }
      grants.set(key(row.object_type, row.record_id), row);
    }
    this.grants = grants;
  }

  /** Journal entries: one grant per record (`<type>/<recordId>`). */
  entries(): IterableIterator<[string, unknown]> {
    return this.grants.entries();
  }

  entry(k: string): unknown {
    return this.grants.get(k);
  }

  loadEntry(k: string, value: unknown): void {
    const at = `store.slices.grants[${JSON.stringify(k)}]`;
    if (value === undefined) {
      this.grants.delete(k);
      return;
    }
    const row = parseRow(value, at);
    if (key(row.object_type, row.record_id) !== k) {
      throw new SnapshotError(at, `must be the grant of ${k}`);
    }
    this.grants.set(k, row);
  }
}

function parseRow(item: unknown, at: string): Row {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  const type = item['object_type'];
  if (typeof type !== 'string' || !isGrantType(type)) {
    throw new SnapshotError(`${at}.object_type`, `must be one of ${GRANT_TYPES.join(', ')}`);
  }
  const recordId = item['record_id'];
  if (typeof recordId !== 'string' || recordId === '') {
    throw new SnapshotError(`${at}.record_id`, 'must be a non-empty string');
  }
  const level = item['share_level'];
  if (level !== null && !(SHARE_LEVELS as readonly unknown[]).includes(level)) {
    throw new SnapshotError(
      `${at}.share_level`,
      `must be null or one of ${SHARE_LEVELS.join(', ')}`,
    );
  }
  return {
    object_type: type,
    record_id: recordId,
    share_level: level as ShareLevel | null,
    team_id: parseMap(item['team_id'], `${at}.team_id`),
    group_id: parseMap(item['group_id'], `${at}.group_id`),
    user_id: parseMap(item['user_id'], `${at}.user_id`),
  };
}

function key(type: GrantType, recordId: string): string {
  return `${type}/${recordId}`;
}

function copy(grant: StoredGrant): StoredGrant {
  return {
    share_level: grant.share_level,
    team_id: { ...grant.team_id },
    group_id: { ...grant.group_id },
    user_id: { ...grant.user_id },
  };
}

function parseMap(value: unknown, at: string): PermissionMap {
  if (!isPlainObject(value)) throw new SnapshotError(at, 'must be an object of id to letter');
  for (const [id, letter] of Object.entries(value)) {
    if (!(PERMISSION_LETTERS as readonly unknown[]).includes(letter)) {
      throw new SnapshotError(`${at}.${id}`, `must be one of ${PERMISSION_LETTERS.join(', ')}`);
    }
  }
  return { ...(value as PermissionMap) };
}

export const grantsSlice = defineSlice('grants', (ctx) => new GrantsModel(ctx));

/** The grants model of `store`. */
export function grantsOf(store: Store): GrantsModel {
  return store.slice(grantsSlice);
}
