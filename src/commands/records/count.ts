// ws records count TYPE: how many records. Without a filter, the count endpoint; with
// --where, --filter-json or --deleted, one query of one record that asks for the total.
import { countRecords, queryRecords } from '../../api/records.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { recordType } from '../common/record-args.ts';
import { planRead, queryBody, type ReadFlags } from './read.ts';

export interface CountOptions extends Omit<ReadFlags, 'select' | 'sort' | 'body'> {
  type: string;
}

export async function run(opts: CountOptions, deps: Deps): Promise<void> {
  const type = recordType(opts.type);
  const filtered = opts.where.length > 0 || opts.filterJson !== undefined || opts.deleted;
  const plan = filtered
    ? await planRead(opts, deps, type, { forceQuery: true, select: ['id'] })
    : undefined;
  if (!filtered && opts.listId === undefined && type === 'engagement') {
    deps.io.info(
      'Counting every engagement record can take tens of seconds on the service (--where narrows the count).',
    );
  }
  const client = await deps.client();
  let total: number;
  if (plan) {
    const body = queryBody(plan, { size: 1, includeTotal: true });
    const page = await queryRecords(client, type, body, { signal: deps.signal });
    total = page.total ?? page.data.length;
  } else {
    total = (await countRecords(client, type, { listId: opts.listId, signal: deps.signal })).total;
  }
  if (deps.format === 'table' && !deps.fields) deps.io.println(String(total));
  else
    await renderObject(deps.io, { total }, [{ key: 'total' }], {
      format: deps.format,
      fields: deps.fields,
    });
}
