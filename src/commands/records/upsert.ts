// ws records upsert TYPE SLUG VALUE --set …: patch the one record whose property equals a
// value, or create it (with that value) when none does. Several matches exit 6.
import { upsertRecordByValue } from '../../api/records.ts';
import type { Deps } from '../../factory.ts';
import { recordType } from '../common/record-args.ts';
import { buildWrite } from '../common/record-values.ts';
import { lookupError, resolveLookup } from './lookup.ts';
import { printRecord } from './shared.ts';

export interface UpsertOptions {
  type: string;
  slug: string;
  value: string;
  set: string[];
  data?: string | undefined;
}

export async function run(opts: UpsertOptions, deps: Deps): Promise<void> {
  const type = recordType(opts.type);
  const lookup = await resolveLookup(deps, type, opts.slug, opts.value);
  const body = await buildWrite(opts, deps, type);
  const client = await deps.client();
  const answer = await upsertRecordByValue(client, type, lookup.slug, lookup.value, body, {
    signal: deps.signal,
  }).catch((err: unknown) => {
    throw lookupError(err, type, lookup, 'upsert');
  });
  deps.io.success(
    `${answer.created ? 'Created' : 'Updated'} ${type} ${answer.record.id} (${lookup.slug} = ${JSON.stringify(lookup.value)}).`,
  );
  await printRecord(deps, type, answer);
}
