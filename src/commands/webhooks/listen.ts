// `ws webhooks listen`: a local receiver for developing a webhook handler. Against a
// sandbox it registers itself as a webhook to 127.0.0.1 and removes it when it stops
// (Ctrl-C included); against a hosted service, which delivers only to public addresses, it
// registers --public-url (a tunnel the user runs to --port) or listens for an existing
// --webhook. It answers the handshake, checks every delivery's signature, prints one line
// per event, and forwards deliveries to --forward-to.
import type { ApiClient } from '../../api/client.ts';
import { createWebhook, deleteWebhook, type Webhook } from '../../api/webhooks.ts';
import { ApiError, ConflictError, UsageError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { withClockSkew } from '../../webhooks/explain.ts';
import { type Received, type Receiver, startReceiver } from '../../webhooks/receiver.ts';
import { checkWritable, readSecret, writeSecretFile } from '../../webhooks/secret.ts';
import { webhookOf } from '../common/find-webhook.ts';
import { checkReceiverUrl } from '../common/receiver-url.ts';
import { stopSignal } from '../common/stop.ts';
import { awaitHandshake } from './handshake.ts';
import { ListenOutput } from './listen-output.ts';
import { isSandbox, listenName, removeOrphans } from './listen-setup.ts';

export interface ListenOptions {
  forwardTo?: string | undefined;
  /** Event names to show and forward (a trailing * matches a prefix); none: all. */
  events: string[];
  /** Where the secret is written (0600); with --webhook, where it is read from. */
  secretFile?: string | undefined;
  printSecret: boolean;
  /** The local port (default: a free one). */
  port?: number | undefined;
  /** A public URL (a tunnel to --port) to register instead of 127.0.0.1. */
  publicUrl?: string | undefined;
  /** An existing webhook to listen for (its url must reach this machine). */
  webhook?: string | undefined;
  /** How long a forward may take, in seconds (default 10). */
  forwardTimeout?: number | undefined;
}

const HOSTED_HINT =
  'Run a tunnel to a local port and pass its public address: `ws webhooks listen --public-url https://… --port N`, ' +
  'or listen for an existing webhook whose url reaches this machine: `--webhook ID|NAME --secret-file F --port N`.';

/** A webhook the service refused to create for a 127.0.0.1 url (a strict sandbox). */
function explainRefusedUrl(err: unknown, url: string): unknown {
  if (
    err instanceof ApiError &&
    err.status === 400 &&
    err.errors.some((e) => e.field === 'body.url')
  ) {
    return new UsageError(
      `The service refused a webhook to ${url}: ${err.errors.find((e) => e.field === 'body.url')!.message}`,
      `It delivers only to public addresses (a sandbox started with --strict-webhook-urls too). ${HOSTED_HINT}`,
    );
  }
  return err;
}

export async function run(opts: ListenOptions, deps: Deps): Promise<void> {
  const forwardTo =
    opts.forwardTo !== undefined
      ? new URL(checkReceiverUrl(opts.forwardTo, '--forward-to'))
      : undefined;
  const publicUrl =
    opts.publicUrl !== undefined ? checkReceiverUrl(opts.publicUrl, '--public-url') : undefined;
  if (publicUrl !== undefined && opts.port === undefined) {
    throw new UsageError(
      '--public-url needs --port: the local port your tunnel forwards to.',
      'E.g. --public-url https://abc.tunnel.example --port 4900.',
    );
  }
  if (opts.webhook === undefined && opts.secretFile !== undefined) {
    await checkWritable(deps, opts.secretFile);
  }
  // An existing webhook's secret is the user's to give: read it before anything starts.
  let secret: string | undefined =
    opts.webhook !== undefined
      ? await readSecret(
          deps,
          opts.secretFile,
          'to check the deliveries of the webhook (its secret is shown only when it is created)',
        )
      : undefined;

  const client = await deps.client();
  const sandbox = await isSandbox(client, deps.signal);
  let existing: Webhook | undefined;
  if (opts.webhook !== undefined) {
    existing = await webhookOf(deps, client, opts.webhook);
  } else if (publicUrl === undefined && !sandbox) {
    throw new UsageError(
      'This service delivers webhooks only to public addresses, so it cannot reach a listener on 127.0.0.1.',
      HOSTED_HINT,
    );
  }
  // A sandbox signs with its own clock, which POST /__sandbox/clock/advance moves forward:
  // its timestamps are checked against that clock (read now, and again when a delivery's
  // timestamp is off), not this machine's.
  const clock = sandbox ? await sandboxClock(deps, client) : undefined;
  if (existing === undefined) {
    const removed = await removeOrphans(deps, client);
    for (const w of removed) {
      deps.io.info(
        `Removed webhook ${w.name}, left by a \`ws webhooks listen\` that no longer runs.`,
      );
    }
  }

  let token: string | undefined = existing?.verification_token;
  const out = new ListenOutput(deps);
  const counts = { received: 0, rejected: 0, skipped: 0 };
  const onReceived = (received: Received) => {
    const r = clock === undefined ? withSkew(received) : received;
    if (r.kind === 'delivery') {
      if (!r.signature.valid) counts.rejected++;
      else if (r.skipped) counts.skipped++;
      else counts.received++;
    }
    out.received(r);
  };
  let receiver: Receiver;
  try {
    receiver = await startReceiver({
      port: opts.port ?? 0,
      secret: () => secret,
      token: () => token,
      events: opts.events,
      forwardTo,
      forwardTimeoutMs: (opts.forwardTimeout ?? 10) * 1000,
      now: () => deps.clock.now().getTime(),
      ...(clock ? { senderNow: clock.now, resync: clock.read } : {}),
      onReceived,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') {
      throw new ConflictError(
        `Port ${opts.port} on 127.0.0.1 is taken.`,
        'Pass another --port, or leave it out to use a free one.',
      );
    }
    throw err;
  }

  let own: Webhook | undefined;
  let ready = false;
  try {
    let webhook: Webhook;
    if (existing) {
      webhook = existing;
    } else {
      const url = publicUrl ?? receiver.url;
      const created = await createWebhook(
        client,
        {
          name: listenName(process.pid),
          url,
          description: 'Registered by `ws webhooks listen`; removed when it stops.',
        },
        { signal: deps.signal },
      ).catch((err: unknown) => {
        throw explainRefusedUrl(err, url);
      });
      own = created;
      webhook = created;
      secret = created.secret;
      token = created.verification_token;
      if (opts.secretFile !== undefined)
        await writeSecretFile(deps, opts.secretFile, created.secret);
      const handshake = await awaitHandshake(
        deps,
        client,
        created,
        created.verification.delivery_id,
      );
      if (handshake.status !== 'success') {
        throw new WsError(
          `The service could not complete the handshake with ${url}: ${handshake.error ?? 'no answer'}.`,
          {
            hint: publicUrl
              ? `Check that the tunnel at ${publicUrl} forwards to 127.0.0.1:${receiver.port}.`
              : 'Check that nothing on this machine blocks connections to 127.0.0.1.',
          },
        );
      }
    }
    out.ready({
      url: receiver.url,
      webhook: { id: webhook.id, name: webhook.name, url: webhook.url },
      forwardTo: forwardTo?.href,
      events: opts.events,
      secret: opts.printSecret ? secret : undefined,
      own: own !== undefined,
    });
    ready = true;
    await stopSignal(deps);
  } finally {
    await receiver.close();
    const removed = own ? await removeOwn(deps, client, own) : false;
    if (ready) await out.stopped({ ...counts, webhookRemoved: removed }, own?.name ?? '');
  }
}

/** Remove listen's own webhook, with a signal of its own: the command's is aborted by now. */
async function removeOwn(deps: Deps, client: ApiClient, webhook: Webhook): Promise<boolean> {
  try {
    await deleteWebhook(client, webhook.id, { signal: AbortSignal.timeout(10_000) });
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return true;
    deps.io.warn(
      `could not remove webhook ${webhook.name} (${webhook.id}): ${(err as Error).message}. The next \`ws webhooks listen\` removes it, or run \`ws webhooks delete ${webhook.id} --yes\`.`,
    );
    return false;
  }
}

/**
 * The sandbox's clock as this machine's plus an offset, read from GET /__sandbox/clock; read
 * again on demand (a failed read keeps the offset it had).
 */
async function sandboxClock(
  deps: Deps,
  client: ApiClient,
): Promise<{ now: () => number; read: () => Promise<void> }> {
  let offsetMs = 0;
  const read = async () => {
    try {
      const res = await client.request<{ now?: unknown }>({
        method: 'GET',
        path: '/__sandbox/clock',
        signal: AbortSignal.timeout(5000),
      });
      const at = typeof res.body?.now === 'string' ? Date.parse(res.body.now) : Number.NaN;
      if (Number.isFinite(at)) offsetMs = at - deps.clock.now().getTime();
    } catch (err) {
      deps.io.debug(`reading the sandbox's clock: ${(err as Error).message}`);
    }
  };
  await read();
  return { now: () => deps.clock.now().getTime() + offsetMs, read };
}

/** A delivery refused for its timestamp by a service whose clock ws cannot read: the skew. */
function withSkew(r: Received): Received {
  if (r.kind !== 'delivery' || r.signature.valid) return r;
  const detail = withClockSkew(r.signature);
  return detail === undefined ? r : { ...r, signature: { ...r.signature, detail } };
}
