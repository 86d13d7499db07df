// `ws webhooks create`: register a receiver. The answer carries the signing secret, which
// the API shows this once: on a terminal it is printed with a warning, --secret-file F
// writes it (mode 0600) instead, and --json carries it for scripts.
import { createWebhook, getWebhook, type WebhookCreated } from '../../api/webhooks.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { renderObject } from '../../output/render.ts';
import { shellWord } from '../../util/shell.ts';
import { checkWritable, writeSecretFile } from '../../webhooks/secret.ts';
import { refuseTakenName } from '../common/find-webhook.ts';
import { checkReceiverUrl } from '../common/receiver-url.ts';
import { webhookColumns } from './columns.ts';
import { awaitHandshake, type HandshakeOutcome, reportHandshake, shouldWait } from './handshake.ts';

export interface CreateOptions {
  name?: string | undefined;
  url?: string | undefined;
  description?: string | undefined;
  disabled: boolean;
  /** Write the secret here (mode 0600) instead of printing it. */
  secretFile?: string | undefined;
  /** --wait / --no-wait for the handshake; neither: wait on a terminal. */
  wait?: boolean | undefined;
}

type Shown = WebhookCreated & { secret_file?: string; handshake?: HandshakeOutcome };

async function ask(deps: Deps, flag: string, message: string, given: string | undefined) {
  if (given !== undefined) return given;
  if (!deps.io.canPrompt()) throw new UsageError(`${flag} is required.`, `Pass ${flag} VALUE.`);
  return deps.prompter.input({
    message,
    validate: (v) => (v.trim() ? true : `${message} is needed.`),
  });
}

export async function run(opts: CreateOptions, deps: Deps): Promise<void> {
  const name = (await ask(deps, '--name', 'Name of the webhook', opts.name)).trim();
  if (name === '') throw new UsageError('--name must not be blank.');
  const url = checkReceiverUrl(await ask(deps, '--url', 'URL that receives the events', opts.url));
  if (opts.secretFile !== undefined) await checkWritable(deps, opts.secretFile);

  const client = await deps.client();
  await refuseTakenName(deps, client, name);
  const created = await createWebhook(
    client,
    {
      name,
      url,
      ...(opts.description !== undefined ? { description: opts.description } : {}),
      ...(opts.disabled ? { enabled: false } : {}),
    },
    { signal: deps.signal },
  );

  const shown: Shown = { ...created };
  let saved = false;
  if (opts.secretFile !== undefined) {
    try {
      shown.secret_file = await writeSecretFile(deps, opts.secretFile, created.secret);
      delete (shown as Partial<Shown>).secret;
      saved = true;
    } catch (err) {
      // The secret is answered once: when it cannot be saved, it is shown instead.
      deps.io.warn(`${(err as Error).message} The secret is printed below instead.`);
    }
  }

  if (shouldWait(deps, opts.wait)) {
    shown.handshake = await awaitHandshake(deps, client, created, created.verification.delivery_id);
    // The answer was made before the handshake: show the webhook as it stands now.
    Object.assign(shown, await getWebhook(client, created.id, { signal: deps.signal }));
  }

  const columns: Column<Shown>[] = [
    ...(webhookColumns as Column<Shown>[]),
    saved ? { key: 'secret_file', header: 'SECRET FILE' } : { key: 'secret', header: 'SECRET' },
  ];
  await renderObject(deps.io, shown, columns, { format: deps.format, fields: deps.fields });
  deps.io.success(`Created webhook ${created.name} (${created.id}).`);
  if (saved) {
    deps.io.info(`The signing secret is in ${opts.secretFile} (readable by you only).`);
  } else if (deps.format === 'table') {
    deps.io.warn(
      'this signing secret is shown only once: store it now (or create with --secret-file F next time). Receivers check deliveries with it.',
    );
  }
  if (shown.handshake) reportHandshake(deps, created, shown.handshake);
  else
    deps.io.info(
      `The handshake runs now; see its outcome with \`ws webhooks get ${shellWord(created.name)}\` (verified) or wait for it with \`ws webhooks verify ${shellWord(created.name)} --wait\`.`,
    );
}
