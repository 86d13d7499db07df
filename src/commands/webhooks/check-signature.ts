// `ws webhooks check-signature`: is this X-Service-Signature right for this body and
// secret? Exit 0 when it is, 1 when not, with the likely cause: the body re-serialised,
// the API key or the verification token used instead of the secret, a timestamp outside
// the tolerance, the header of another webhook.
import { WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { isUuid } from '../../util/guards.ts';
import { readBodyArg } from '../../webhooks/body.ts';
import { explainFailure } from '../../webhooks/explain.ts';
import { readSecret } from '../../webhooks/secret.ts';
import { DEFAULT_TOLERANCE_S, verifySignature } from '../../webhooks/signature.ts';
import { resolveWebhook } from '../common/find-webhook.ts';

export interface CheckSignatureOptions {
  secretFile?: string | undefined;
  /** The header's value (an `X-Service-Signature:` prefix is allowed). */
  signature: string;
  /** The body as received: text, @FILE or - (stdin). */
  body: string;
  toleranceS?: number | undefined;
  /** The webhook the secret belongs to (checked against the delivery's). */
  webhook?: string | undefined;
  /** X-Service-Webhook-Id as received. */
  webhookId?: string | undefined;
}

export async function run(opts: CheckSignatureOptions, deps: Deps): Promise<void> {
  const secret = await readSecret(deps, opts.secretFile, 'to check the signature');
  const header = opts.signature.replace(/^\s*x-service-signature\s*:\s*/i, '');
  const body = await readBodyArg(opts.body, deps, '--body');
  const toleranceS = opts.toleranceS ?? DEFAULT_TOLERANCE_S;
  const nowS = Math.floor(deps.clock.now().getTime() / 1000);
  const verdict = verifySignature({ secret, body, header, nowS, toleranceS });
  const json = deps.format === 'json' || deps.format === 'ndjson';
  const print = (doc: object) =>
    deps.io.println(deps.format === 'json' ? JSON.stringify(doc, null, 2) : JSON.stringify(doc));

  if (verdict.valid) {
    if (json) print({ valid: true, timestamp: verdict.timestamp, age_seconds: verdict.ageSeconds });
    else
      deps.io.println(
        `${deps.io.out.green('✓')} Valid signature: made with this secret over these bytes, ${verdict.ageSeconds} s ago (tolerance ${toleranceS} s).`,
      );
    return;
  }

  // The API key of the profile, if there is one, to tell whether it was used instead.
  const apiKey = await deps.credentials().then(
    (c) => c.apiKey,
    () => undefined,
  );
  let secretWebhookId: string | undefined;
  if (opts.webhook !== undefined) {
    secretWebhookId = isUuid(opts.webhook)
      ? opts.webhook
      : (await resolveWebhook(deps, await deps.client(), opts.webhook)).id;
  }
  const causes = explainFailure({
    verdict,
    secret,
    body,
    header,
    toleranceS,
    apiKey,
    secretWebhookId,
    headerWebhookId: opts.webhookId,
  });
  if (json) {
    print({
      valid: false,
      reason: verdict.reason,
      detail: verdict.detail,
      timestamp: verdict.timestamp ?? null,
      age_seconds: verdict.ageSeconds ?? null,
      likely_causes: causes,
    });
  } else {
    const c = deps.io.out;
    deps.io.println(`${c.red('✗')} Invalid signature: ${verdict.detail}.`);
    deps.io.println(causes.length === 1 ? 'Likely cause:' : 'Likely causes:');
    for (const cause of causes) deps.io.println(`  - ${cause}`);
  }
  throw new WsError('Invalid signature.', { code: 'invalid_signature', silent: true });
}
