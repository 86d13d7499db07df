// `ws deliveries get ID`: one delivery with its attempt history; on a terminal the bodies
// are pretty-printed and a body the log cut is marked; --json prints the API's answer.
import type { DeliveryDetail } from '../../api/webhooks.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { renderObject } from '../../output/render.ts';
import { attemptsText } from './detail.ts';
import { deliveryColumns, findDelivery } from './shared.ts';

export interface GetOptions {
  delivery: string;
  /** The webhook it belongs to (saves looking through every webhook). */
  webhook?: string | undefined;
}

export async function run(opts: GetOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const detail = await findDelivery(deps, client, opts.delivery, opts.webhook);
  const columns: Column<DeliveryDetail>[] = [
    ...deliveryColumns().map((c) => ({ ...c, default: c.key !== 'webhook_name' })),
    { key: 'attempt_history', header: 'ATTEMPTS', default: deps.format !== 'table' },
  ];
  await renderObject(deps.io, detail, columns, { format: deps.format, fields: deps.fields });
  if (deps.format === 'table' && !deps.fields) deps.io.write(attemptsText(deps.io, detail));
}
