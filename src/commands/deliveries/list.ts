// `ws deliveries list`: the delivery log, newest first: one webhook's (--webhook) or the
// team's, filtered by status, type and time, streamed page by page (100 a request).
import type { Deps } from '../../factory.ts';
import { createRowWriter } from '../../output/render.ts';
import type { PageOptions } from '../common/list-flags.ts';
import {
  type DeliveryFilters,
  deliveryColumns,
  deliveryPages,
  deliveryQuery,
  webhookNames,
} from './shared.ts';

export interface ListOptions extends DeliveryFilters, PageOptions {}

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const { query, webhook } = await deliveryQuery(deps, client, opts);
  // People read webhook names; scripts get ids (and names only when --fields asks).
  const wantNames = deps.format === 'table' || (deps.fields?.includes('webhook_name') ?? false);
  const names = !wantNames
    ? undefined
    : webhook
      ? new Map([[webhook.id, webhook.name]])
      : await webhookNames(deps, client);
  const writer = createRowWriter(deps.io, deliveryColumns(names), {
    format: deps.format,
    fields: deps.fields,
    emptyMessage: `No deliveries${opts.webhook ? ` of webhook ${opts.webhook}` : ''} match. Send a test event with \`ws webhooks ping ID|NAME\`.`,
  });
  for await (const page of deliveryPages(client, query, {
    limit: opts.limit ?? 50,
    all: opts.all,
  })) {
    await writer.write(page.rows);
  }
  await writer.end();
}
