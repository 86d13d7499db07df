// ws records duplicate TYPE ID: a new record with the same values.
import { duplicateRecord } from '../../api/records.ts';
import type { Deps } from '../../factory.ts';
import { type RecordRef, recordVerb } from './shared.ts';

export type DuplicateOptions = RecordRef;

export function run(opts: DuplicateOptions, deps: Deps): Promise<void> {
  return recordVerb(
    opts,
    deps,
    duplicateRecord,
    (type, id, answer) => `Duplicated ${type} ${id} as ${answer.record.id}.`,
  );
}
