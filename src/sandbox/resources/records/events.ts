// What the records model announces (see src/sandbox/events.ts): one event per record a
// write changed, after the change, with the record before and after it, its object type,
// the team, and the API operation that wrote it. Subscribe with
// `store.events.on(recordEvents, (event) => ...)`.
//
// The API operations and their events:
//
// | source       | operation                                  | event                          |
// | ------------ | ------------------------------------------ | ------------------------------ |
// | create       | POST   /{objectType}                       | record.created                 |
// | patch        | PATCH  /{objectType}/{id}                  | record.updated                 |
// | upsert       | PUT    /{objectType}/by/{slug}/{value}     | record.created, record.updated |
// | duplicate    | POST   /{objectType}/{id}/duplicate        | record.created (the copy)      |
// | batch_update | POST   /{objectType}/batch/update          | record.updated per item        |
// | delete       | DELETE /{objectType}/{id}                  | record.deleted                 |
// | batch_delete | POST   /{objectType}/batch/delete          | record.deleted per id          |
// | restore      | POST   /{objectType}/{id}/restore          | record.restored                |
// | import       | POST   /{objectType}/import (now or a job) | record.created, record.updated |
//
// A write that changes nothing emits nothing: a patch (or an import row, or a batch item)
// that sets what is already there, a delete of a deleted record, a restore of an active one.

import { defineEvent } from '../../events.ts';
import type { ObjectType } from '../../object-types.ts';
import type { StoredRecord } from './types.ts';

/** The API operation that wrote a record (the table above). */
export type WriteSource =
  | 'create'
  | 'patch'
  | 'upsert'
  | 'duplicate'
  | 'batch_update'
  | 'delete'
  | 'batch_delete'
  | 'restore'
  | 'import';

/** Why a record is written: the operation, and the team whose request (or job) it is. */
export interface WriteCause {
  readonly source: WriteSource;
  readonly teamId: string;
}

interface RecordEventBase extends WriteCause {
  readonly objectType: ObjectType;
  /** The record's id (before and after have the same). */
  readonly id: string;
  /**
   * The record after the write: a copy that later writes do not change (read-only: its
   * values are the store's own). record.deleted: deleted_at is set.
   */
  readonly after: Readonly<StoredRecord>;
}

export type RecordEvent =
  | (RecordEventBase & { readonly type: 'record.created'; readonly before: null })
  | (RecordEventBase & {
      readonly type: 'record.updated' | 'record.deleted' | 'record.restored';
      /** The record as it was before the write (a copy, like `after`). */
      readonly before: Readonly<StoredRecord>;
    });

export type RecordEventType = RecordEvent['type'];

export const recordEvents = defineEvent<RecordEvent>('record');
