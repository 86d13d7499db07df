// `ws webhooks list`: every webhook of the team.
import { listWebhooks } from '../../api/webhooks.ts';
import type { Deps } from '../../factory.ts';
import { renderRows } from '../../output/render.ts';
import { webhookListColumns } from './columns.ts';

export type ListOptions = Record<string, never>;

export async function run(_opts: ListOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const webhooks = await listWebhooks(client, { signal: deps.signal });
  await renderRows(deps.io, webhooks, webhookListColumns, {
    format: deps.format,
    fields: deps.fields,
    emptyMessage:
      'No webhooks. Create one with `ws webhooks create --name NAME --url URL`, or try `ws webhooks listen`.',
  });
}
