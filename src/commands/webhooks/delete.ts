// `ws webhooks delete ID|NAME`: the webhook and its delivery log, after a confirmation
// (--yes to skip it; refused without one when no person can answer).
import { deleteWebhook } from '../../api/webhooks.ts';
import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { notFound, resolveWebhook, webhookOf } from '../common/find-webhook.ts';

export interface DeleteOptions {
  webhook: string;
}

export async function run(opts: DeleteOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  // A person is shown the webhook's name and url before deciding; --yes needs no read.
  const found = deps.io.canPrompt()
    ? { webhook: await webhookOf(deps, client, opts.webhook) }
    : await resolveWebhook(deps, client, opts.webhook);
  const id = found.webhook?.id ?? (found as { id: string }).id;
  const label = found.webhook ? `"${found.webhook.name}" (${found.webhook.url})` : id;
  await confirmOrRefuse(
    deps.io,
    deps.prompter,
    `Delete webhook ${label} and its delivery log?`,
    `Not deleting webhook ${label} without confirmation.`,
  );
  await deleteWebhook(client, id, { signal: deps.signal }).catch(notFound);
  deps.io.success(`Deleted webhook ${label}.`);
  if (deps.format === 'json' || deps.format === 'ndjson')
    deps.io.println(JSON.stringify({ deleted: id }));
}
