// The arguments that name a record: its object type and its id.
import { objectType, type RecordType } from '../../api/object-types.ts';
import { UsageError } from '../../errors.ts';
import { isUuid } from '../../util/guards.ts';

/** The API's name of a record object type (`contacts` → `contact`). */
export function recordType(input: string): RecordType {
  return objectType(input, 'record') as RecordType;
}

/** A record id argument: a UUID, or a usage error before any request. */
export function recordId(value: string, what = 'record id'): string {
  const id = value.trim();
  if (!isUuid(id)) {
    throw new UsageError(
      `"${value}" is not a ${what}: record ids are UUIDs (like 7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a).`,
      'Find ids with `ws records list TYPE --fields id` or `ws records find TYPE SLUG VALUE`.',
    );
  }
  return id.toLowerCase();
}
