// ws records get TYPE ID: one record, with its etag (the version --if-match takes).
import { getRecord } from '../../api/records.ts';
import type { Deps } from '../../factory.ts';
import { parseSelect } from '../../query/select.ts';
import { recordId, recordType } from '../common/record-args.ts';
import { printRecord } from './shared.ts';

export interface GetOptions {
  type: string;
  id: string;
  select?: string | undefined;
}

export async function run(opts: GetOptions, deps: Deps): Promise<void> {
  const type = recordType(opts.type);
  const id = recordId(opts.id);
  const select = opts.select !== undefined ? parseSelect(opts.select) : undefined;
  const client = await deps.client();
  const answer = await getRecord(client, type, id, {
    select: select?.join(','),
    signal: deps.signal,
  });
  await printRecord(deps, type, answer, { select });
}
