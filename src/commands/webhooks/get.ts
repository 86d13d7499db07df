// `ws webhooks get ID|NAME`: one webhook, every field.
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { webhookOf } from '../common/find-webhook.ts';
import { webhookColumns } from './columns.ts';

export interface GetOptions {
  /** A webhook id, or a name (looked up with the listing). */
  webhook: string;
}

export async function run(opts: GetOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const webhook = await webhookOf(deps, client, opts.webhook);
  await renderObject(deps.io, webhook, webhookColumns, {
    format: deps.format,
    fields: deps.fields,
  });
}
