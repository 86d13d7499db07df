// `ws webhooks update ID|NAME`: change the name, url, description or enabled state. A new
// url makes the webhook unverified and runs the handshake again (waited for on a terminal).
import { getWebhook, updateWebhook, type WebhookPatch } from '../../api/webhooks.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { shellWord } from '../../util/shell.ts';
import { notFound, refuseTakenName, resolveWebhook } from '../common/find-webhook.ts';
import { checkReceiverUrl } from '../common/receiver-url.ts';
import { type ShownWebhook, webhookColumns } from './columns.ts';
import { awaitHandshake, reportHandshake, shouldWait } from './handshake.ts';

export interface UpdateOptions {
  webhook: string;
  name?: string | undefined;
  url?: string | undefined;
  description?: string | undefined;
  /** --enable (true) or --disable (false). */
  enabled?: boolean | undefined;
  wait?: boolean | undefined;
}

export async function run(opts: UpdateOptions, deps: Deps): Promise<void> {
  const patch: WebhookPatch = {};
  if (opts.name !== undefined) {
    if (opts.name.trim() === '') throw new UsageError('--name must not be blank.');
    patch.name = opts.name.trim();
  }
  if (opts.url !== undefined) patch.url = checkReceiverUrl(opts.url);
  if (opts.description !== undefined) patch.description = opts.description;
  if (opts.enabled !== undefined) patch.enabled = opts.enabled;
  if (Object.keys(patch).length === 0) {
    throw new UsageError(
      'Nothing to change.',
      'Give --name, --url, --description, --enable or --disable.',
    );
  }
  await patchWebhook(deps, opts.webhook, patch, opts.wait);
}

/** PATCH the webhook, show it, and wait for the handshake a new url starts. */
export async function patchWebhook(
  deps: Deps,
  idOrName: string,
  patch: WebhookPatch,
  wait?: boolean,
): Promise<void> {
  const client = await deps.client();
  const { id } = await resolveWebhook(deps, client, idOrName);
  if (patch.name !== undefined) await refuseTakenName(deps, client, patch.name, id);
  const webhook = await updateWebhook(client, id, patch, { signal: deps.signal }).catch(notFound);
  let shown: ShownWebhook = webhook;
  const handshake =
    webhook.verification && shouldWait(deps, wait)
      ? await awaitHandshake(deps, client, webhook, webhook.verification.delivery_id)
      : undefined;
  if (handshake) {
    shown = {
      ...shown,
      ...(await getWebhook(client, id, { signal: deps.signal })),
      handshake,
    };
  }
  await renderObject(deps.io, shown, webhookColumns, { format: deps.format, fields: deps.fields });
  const what =
    patch.enabled === true && Object.keys(patch).length === 1
      ? 'Enabled'
      : patch.enabled === false && Object.keys(patch).length === 1
        ? 'Disabled'
        : 'Updated';
  deps.io.success(`${what} webhook ${webhook.name} (${webhook.id}).`);
  if (patch.enabled === false) {
    deps.io.info(
      'No event is delivered to it while it is disabled; a retry that falls due is dropped.',
    );
  }
  if (handshake) reportHandshake(deps, webhook, handshake);
  else if (webhook.verification) {
    deps.io.info(
      `The url changed, so the handshake runs again; wait for it with \`ws webhooks verify ${shellWord(webhook.name)} --wait\`.`,
    );
  }
}
