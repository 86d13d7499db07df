// The checks of `ws webhooks doctor`: a receiver tested the way a careful sender (and an
// attacker) would. It must answer the handshake, acknowledge a correctly signed delivery in
// time, and refuse a tampered body, a wrong secret, a stale and a future timestamp and a
// missing signature; a delivery sent again with the same id must be acknowledged (a
// receiver dedupes by id, it does not fail the retry).
import { randomBytes, randomUUID } from 'node:crypto';
import { deliveryHeaders, testDelivery } from './delivery-body.ts';
import { acknowledged, type ExchangeResult, exchange, outcomeText } from './exchange.ts';
import { DEFAULT_TOLERANCE_S, signatureHeader } from './signature.ts';

export type CheckName =
  | 'handshake'
  | 'signed delivery'
  | 'tampered body'
  | 'wrong secret'
  | 'stale timestamp'
  | 'future timestamp'
  | 'missing signature'
  | 'repeated delivery';

export interface CheckResult {
  check: CheckName;
  passed: boolean;
  /** What the receiver answered; null when no answer came. */
  status: number | null;
  ms: number;
  /** What happened and, when it failed, what the receiver should do. */
  detail: string;
}

export interface DoctorInput {
  url: URL;
  secret: string;
  webhookId: string;
  /** The token the handshake carries (a webhook's, or a made-up one). */
  token: string;
  timeoutMs: number;
  now: () => Date;
  signal?: AbortSignal | undefined;
}

function randomSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url').slice(0, 32)}`;
}

/** A refusal check: any non-2xx answer passes; a 2xx means the receiver took it. */
function refusal(check: CheckName, r: ExchangeResult, why: string): CheckResult {
  const base = { check, status: r.status, ms: r.ms };
  if (r.status === null) {
    return {
      ...base,
      passed: false,
      detail: `${r.error}: a receiver should answer a bad request at once, with 400 or 401`,
    };
  }
  if (acknowledged(r)) {
    return { ...base, passed: false, detail: `accepted (${outcomeText(r)}): ${why}` };
  }
  const note =
    r.status >= 500
      ? '; a 4xx is better: a 5xx makes the service retry a request that will never pass'
      : '';
  return { ...base, passed: true, detail: `refused (${outcomeText(r)})${note}` };
}

/** An acceptance check: a 2xx passes. */
function acceptance(check: CheckName, r: ExchangeResult, why: string): CheckResult {
  const base = { check, status: r.status, ms: r.ms };
  if (acknowledged(r)) return { ...base, passed: true, detail: `acknowledged (${outcomeText(r)})` };
  return {
    ...base,
    passed: false,
    detail: `${r.status === null ? r.error : `answered ${outcomeText(r)}`}: ${why}`,
  };
}

/** Run every check in order, calling `onResult` as each ends. */
export async function runDoctor(
  input: DoctorInput,
  onResult: (r: CheckResult) => void | Promise<void>,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const done = async (r: CheckResult) => {
    results.push(r);
    await onResult(r);
  };
  const nowS = () => Math.floor(input.now().getTime() / 1000);
  const send = (headers: Record<string, string>, body: string) =>
    exchange({
      method: 'POST',
      url: input.url,
      headers: { 'user-agent': 'ws-webhooks-doctor', ...headers },
      body,
      timeoutMs: input.timeoutMs,
      signal: input.signal,
    });
  /** A new delivery of webhook.test, its headers signed with `secret` at `t`. */
  const delivery = (secret: string | undefined, t: number, id: string = randomUUID()) => {
    const { body, text } = testDelivery({ id, webhook_id: input.webhookId, now: input.now() });
    const headers = deliveryHeaders(body);
    if (secret !== undefined) headers['x-service-signature'] = signatureHeader(secret, text, t);
    return { id: body.id, text, headers };
  };

  // 1. The handshake: 200 with the challenge, verbatim.
  const challenge = randomBytes(16).toString('hex');
  const hs = new URL(input.url);
  hs.searchParams.append('service_hook_mode', 'subscribe');
  hs.searchParams.append('service_hook_challenge', challenge);
  hs.searchParams.append('service_hook_token', input.token);
  const h = await exchange({
    method: 'GET',
    url: hs,
    headers: {
      'user-agent': 'ws-webhooks-doctor',
      'x-service-webhook-id': input.webhookId,
      'x-service-event': 'verification',
    },
    timeoutMs: input.timeoutMs,
    signal: input.signal,
  });
  const echoed = h.status === 200 && h.body.toString('utf8') === challenge;
  await done({
    check: 'handshake',
    passed: echoed,
    status: h.status,
    ms: h.ms,
    detail: echoed
      ? `echoed the challenge (${outcomeText(h)})`
      : h.status === null
        ? `${h.error}: the receiver must answer GET ?service_hook_challenge=X with 200 and X as the body`
        : h.status !== 200
          ? `answered ${outcomeText(h)}: the handshake needs 200 with the challenge as the body`
          : 'answered 200, but the body was not the challenge: echo service_hook_challenge exactly (no quotes, no newline)',
  });

  // 2. A correctly signed delivery, within the time limit.
  const good = delivery(input.secret, nowS());
  await done(
    acceptance(
      'signed delivery',
      await send(good.headers, good.text),
      `a correctly signed delivery must get a 2xx within ${input.timeoutMs / 1000} s (do slow work after answering)`,
    ),
  );

  // 3. The body changed after signing.
  const tampered = delivery(input.secret, nowS());
  const changed = tampered.text.replace('"data":{}', '"data":{"amount":1000000}');
  await done(
    refusal(
      'tampered body',
      await send(tampered.headers, changed),
      'check the signature over the raw body bytes',
    ),
  );

  // 4. Signed with another secret.
  const wrong = delivery(randomSecret(), nowS());
  await done(
    refusal(
      'wrong secret',
      await send(wrong.headers, wrong.text),
      "compare the signature with an HMAC keyed with this webhook's secret",
    ),
  );

  // 5, 6. Right signature, timestamp outside the tolerance either way.
  const skew = DEFAULT_TOLERANCE_S * 2;
  const stale = delivery(input.secret, nowS() - skew);
  await done(
    refusal(
      'stale timestamp',
      await send(stale.headers, stale.text),
      `refuse a t more than ${DEFAULT_TOLERANCE_S} s old, against replayed requests`,
    ),
  );
  const future = delivery(input.secret, nowS() + skew);
  await done(
    refusal(
      'future timestamp',
      await send(future.headers, future.text),
      `refuse a t more than ${DEFAULT_TOLERANCE_S} s ahead`,
    ),
  );

  // 7. No signature at all.
  const bare = delivery(undefined, nowS());
  await done(
    refusal(
      'missing signature',
      await send(bare.headers, bare.text),
      'refuse a delivery without X-Service-Signature',
    ),
  );

  // 8. The first delivery again (a retry): same id, signed afresh.
  const again = delivery(input.secret, nowS(), good.id);
  await done(
    acceptance(
      'repeated delivery',
      await send(again.headers, again.text),
      'a delivery id seen before is a retry: acknowledge it with a 2xx (and skip the work)',
    ),
  );
  return results;
}
