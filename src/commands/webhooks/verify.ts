// `ws webhooks verify ID|NAME`: run the handshake again and, on a terminal (or with
// --wait), wait for its outcome: exit 0 when the receiver echoed the challenge, 1 when not.
import { getWebhook, verifyWebhook } from '../../api/webhooks.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { shellWord } from '../../util/shell.ts';
import { notFound, resolveWebhook } from '../common/find-webhook.ts';
import { type ShownWebhook, webhookColumns } from './columns.ts';
import { awaitHandshake, handshakeFailed, reportHandshake, shouldWait } from './handshake.ts';

export interface VerifyOptions {
  webhook: string;
  wait?: boolean | undefined;
}

export async function run(opts: VerifyOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const { id } = await resolveWebhook(deps, client, opts.webhook);
  const answer = await verifyWebhook(client, id, { signal: deps.signal }).catch(notFound);
  let shown: ShownWebhook = answer;
  const handshake = shouldWait(deps, opts.wait)
    ? await awaitHandshake(deps, client, answer, answer.verification.delivery_id)
    : undefined;
  if (handshake) {
    shown = {
      ...(await getWebhook(client, id, { signal: deps.signal })),
      ...{ verification: answer.verification, handshake },
    };
  }
  await renderObject(deps.io, shown, webhookColumns, { format: deps.format, fields: deps.fields });
  if (!handshake) {
    deps.io.info(
      `The handshake with ${answer.url} runs now; \`ws webhooks verify ${shellWord(answer.name)} --wait\` waits for its outcome.`,
    );
    return;
  }
  reportHandshake(deps, answer, handshake);
  if (handshake.status !== 'success') throw handshakeFailed();
}
