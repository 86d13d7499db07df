// ws records restore TYPE ID: undo a soft delete.
import { restoreRecord } from '../../api/records.ts';
import type { Deps } from '../../factory.ts';
import { type RecordRef, recordVerb } from './shared.ts';

export type RestoreOptions = RecordRef;

export function run(opts: RestoreOptions, deps: Deps): Promise<void> {
  return recordVerb(opts, deps, restoreRecord, (type, id) => `Restored ${type} ${id}.`);
}
