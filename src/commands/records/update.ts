// ws records update TYPE ID --set slug=value … | --data JSON [--if-match ETAG]: patch a
// record; only the given properties change.
import { updateRecord } from '../../api/records.ts';
import type { Deps } from '../../factory.ts';
import { recordId, recordType } from '../common/record-args.ts';
import { buildWrite } from '../common/record-values.ts';
import { preconditionFailed } from './if-match.ts';
import { printRecord } from './shared.ts';

export interface UpdateOptions {
  type: string;
  id: string;
  set: string[];
  data?: string | undefined;
  ifMatch?: string | undefined;
}

export async function run(opts: UpdateOptions, deps: Deps): Promise<void> {
  const type = recordType(opts.type);
  const id = recordId(opts.id);
  const body = await buildWrite(opts, deps, type);
  const client = await deps.client();
  const answer = await updateRecord(client, type, id, body, {
    ifMatch: opts.ifMatch,
    signal: deps.signal,
  }).catch((err: unknown) => {
    throw preconditionFailed(err, type, id, 'update');
  });
  deps.io.success(`Updated ${type} ${id}.`);
  await printRecord(deps, type, answer);
}
