// ws records create TYPE --set slug=value … | --data JSON: a new record.
import { createRecord } from '../../api/records.ts';
import type { Deps } from '../../factory.ts';
import { recordType } from '../common/record-args.ts';
import { buildWrite } from '../common/record-values.ts';
import { printRecord } from './shared.ts';

export interface CreateOptions {
  type: string;
  set: string[];
  data?: string | undefined;
}

export async function run(opts: CreateOptions, deps: Deps): Promise<void> {
  const type = recordType(opts.type);
  const body = await buildWrite(opts, deps, type);
  const client = await deps.client();
  const answer = await createRecord(client, type, body, { signal: deps.signal });
  deps.io.success(`Created ${type} ${answer.record.id}.`);
  await printRecord(deps, type, answer);
}
