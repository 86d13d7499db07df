// ws records find TYPE SLUG VALUE: the one record whose property equals a value. No match
// exits 4, several exit 6, and the message says which.
import { findRecordByValue } from '../../api/records.ts';
import type { Deps } from '../../factory.ts';
import { recordType } from '../common/record-args.ts';
import { lookupError, resolveLookup } from './lookup.ts';
import { printRecord } from './shared.ts';

export interface FindOptions {
  type: string;
  slug: string;
  value: string;
  listId?: string | undefined;
}

export async function run(opts: FindOptions, deps: Deps): Promise<void> {
  const type = recordType(opts.type);
  const lookup = await resolveLookup(deps, type, opts.slug, opts.value, opts.listId);
  const client = await deps.client();
  const answer = await findRecordByValue(client, type, lookup.slug, lookup.value, {
    listId: opts.listId,
    signal: deps.signal,
  }).catch((err: unknown) => {
    throw lookupError(err, type, lookup, 'find');
  });
  await printRecord(deps, type, answer);
}
