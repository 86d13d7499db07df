// `ws webhooks sign`: the X-Service-Signature for a body, as the service would sign it, to
// test a receiver by hand. Prints the header's value; --json the headers and the body;
// --curl URL a curl command that sends the signed delivery. Without --body (with --json or
// --curl) the body is a new webhook.test delivery.
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { shellWord } from '../../util/shell.ts';
import { readBodyArg } from '../../webhooks/body.ts';
import { deliveryHeaders, testDelivery } from '../../webhooks/delivery-body.ts';
import { readSecret } from '../../webhooks/secret.ts';
import { SIGNATURE_HEADER, signatureHeader } from '../../webhooks/signature.ts';
import { checkReceiverUrl } from '../common/receiver-url.ts';

export interface SignOptions {
  secretFile?: string | undefined;
  /** JSON text, @FILE or - (stdin): the exact bytes to sign. */
  body?: string | undefined;
  /** Unix seconds (default: now). */
  timestamp?: number | undefined;
  event?: string | undefined;
  webhookId?: string | undefined;
  /** Print a curl command that sends the delivery to this URL. */
  curl?: string | undefined;
}

/** The delivery headers for a body: from its own fields when it is a delivery's JSON. */
function headersFor(body: Buffer, opts: SignOptions): Record<string, string> {
  let fields: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      fields = parsed as Record<string, unknown>;
  } catch {
    // not JSON: only the flags say what it is
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const webhookId = opts.webhookId ?? str(fields.webhook_id);
  const deliveryId = str(fields.id);
  const event = opts.event ?? str(fields.event);
  if (webhookId) headers['x-service-webhook-id'] = webhookId;
  if (deliveryId) headers['x-service-delivery-id'] = deliveryId;
  if (event) headers['x-service-event'] = event;
  return headers;
}

export async function run(opts: SignOptions, deps: Deps): Promise<void> {
  const json = deps.format === 'json' || deps.format === 'ndjson';
  if (opts.body === undefined && !json && opts.curl === undefined) {
    throw new UsageError(
      '--body is needed: the signature covers the exact bytes of a body.',
      'Give --body JSON|@FILE|-, or use --curl URL (or --json) to sign a new webhook.test delivery.',
    );
  }
  const curlUrl = opts.curl !== undefined ? checkReceiverUrl(opts.curl, '--curl') : undefined;
  const secret = await readSecret(deps, opts.secretFile, 'to sign the body');
  const now = deps.clock.now();
  let body: Buffer;
  let headers: Record<string, string>;
  if (opts.body !== undefined) {
    body = await readBodyArg(opts.body, deps, '--body');
    headers = headersFor(body, opts);
  } else {
    const made = testDelivery({
      now,
      ...(opts.event ? { event: opts.event } : {}),
      ...(opts.webhookId ? { webhook_id: opts.webhookId } : {}),
    });
    body = Buffer.from(made.text);
    headers = deliveryHeaders(made.body);
  }
  const t = opts.timestamp ?? Math.floor(now.getTime() / 1000);
  const signature = signatureHeader(secret, body, t);
  headers[SIGNATURE_HEADER] = signature;

  if (curlUrl !== undefined) {
    const parts = ['curl', '-sS', '-X', 'POST', shellWord(curlUrl)];
    for (const [k, v] of Object.entries(headers))
      parts.push('-H', shellWord(`${headerName(k)}: ${v}`));
    parts.push('--data-binary', shellWord(body.toString('utf8')));
    deps.io.println(parts.join(' '));
  } else if (json) {
    const doc = {
      signature,
      timestamp: t,
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [headerName(k), v])),
      body: body.toString('utf8'),
    };
    deps.io.println(deps.format === 'json' ? JSON.stringify(doc, null, 2) : JSON.stringify(doc));
  } else {
    deps.io.println(signature);
  }
  if (deps.io.isStderrTTY) {
    deps.io.info(
      `Valid for 300 s from t=${t}: send it as the ${headerName(SIGNATURE_HEADER)} header with exactly these body bytes.`,
    );
  }
}

/** `x-service-signature` → `X-Service-Signature`. */
function headerName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}
