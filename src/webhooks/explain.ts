// Why a delivery's signature did not check out, in the terms of the mistakes receivers
// make: the body re-serialised before checking, the API key or the verification token
// used instead of the whsec_ secret, a timestamp outside the tolerance, the header (or
// the secret) of another webhook. Each cause is tested, not guessed, where the inputs
// allow it (an HMAC with the API key, the body's JSON written back compactly, …).
import {
  matchesAny,
  type ParsedSignature,
  parseSignature,
  type SignatureVerdict,
} from './signature.ts';

export interface ExplainInput {
  verdict: Extract<SignatureVerdict, { valid: false }>;
  secret: string;
  body: Buffer;
  header: string | undefined;
  toleranceS: number;
  /** The API key of the profile in use, when there is one (never shown). */
  apiKey?: string | undefined;
  /** The webhook the secret belongs to (--webhook), when known. */
  secretWebhookId?: string | undefined;
  /** X-Service-Webhook-Id as received (--webhook-id), when given. */
  headerWebhookId?: string | undefined;
}

/** The body's `webhook_id`, when it is a delivery's JSON. */
function bodyWebhookId(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    const id = (parsed as { webhook_id?: unknown } | null)?.webhook_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Other spellings of the same body, as a receiver that parsed and re-wrote it would have it. */
function rewritings(body: Buffer): { label: string; bytes: string }[] {
  const text = body.toString('utf8');
  const out: { label: string; bytes: string }[] = [];
  try {
    const parsed = JSON.parse(text) as unknown;
    out.push({ label: 'as compact JSON', bytes: JSON.stringify(parsed) });
    out.push({ label: 'pretty-printed', bytes: JSON.stringify(parsed, null, 2) });
  } catch {
    // not JSON: only whitespace may have changed
  }
  out.push({ label: 'without its surrounding whitespace', bytes: text.trim() });
  out.push({ label: 'with a final newline', bytes: `${text}\n` });
  out.push({ label: 'with \\r\\n line ends as \\n', bytes: text.replace(/\r\n/g, '\n') });
  return out.filter((r) => r.bytes !== text);
}

/** A number of seconds as people read it: `45 s`, `12 min`, `1 h`. */
function span(seconds: number): string {
  const s = Math.abs(seconds);
  // The unit is chosen by the rounded figure: 3,599 s reads `1 h`, not `60 min`.
  return Math.round(s / 60) >= 60
    ? `${Math.round(s / 3600)} h`
    : s >= 120
      ? `${Math.round(s / 60)} min`
      : `${s} s`;
}

function ago(seconds: number): string {
  return seconds >= 0 ? `${span(seconds)} ago` : `${span(seconds)} in the future`;
}

/**
 * The detail of a delivery refused for its timestamp, with what it most likely means when
 * the sender's clock cannot be read (a hosted service): the clocks of the sender and of
 * this machine differ, by about the timestamp's distance.
 */
export function withClockSkew(verdict: SignatureVerdict): string | undefined {
  if (verdict.valid) return undefined;
  const age = verdict.ageSeconds;
  if (age === undefined) return undefined;
  if (verdict.reason === 'timestamp_in_future')
    return `${verdict.detail}: a clock skew of ${-age} s, this machine's clock ${span(age)} behind the sender's; set it right (compare \`date -u\` with a time server)`;
  if (verdict.reason === 'timestamp_too_old')
    return `${verdict.detail}: a clock skew of ${age} s (this machine's clock ${span(age)} ahead of the sender's), or a delivery sent long after it was signed`;
  return undefined;
}

/** The likely causes of a failed check, most certain first; each says what to do. */
export function explainFailure(input: ExplainInput): string[] {
  const { verdict, secret, body, toleranceS } = input;
  const causes: string[] = [];

  switch (verdict.reason) {
    case 'missing_header':
      return [
        'No X-Service-Signature header was given: every delivery carries one. Pass the header value exactly as received.',
      ];
    case 'malformed_header':
      return [
        `The header cannot be read: ${verdict.detail}. Pass the whole X-Service-Signature value, e.g. t=1700000000,v1=5f…`,
      ];
    case 'timestamp_too_old':
      return [
        `The signature is right, but it was made ${ago(verdict.ageSeconds ?? 0)} (t=${verdict.timestamp}), outside the ${toleranceS} s tolerance: a delivery stored and checked later, a replayed request, or a clock that is off on this machine (compare \`date -u\`). Replay a logged delivery with \`ws deliveries replay\`, which signs it afresh.`,
      ];
    case 'timestamp_in_future':
      return [
        `The signature is right, but its timestamp is ${ago(verdict.ageSeconds ?? 0)} (t=${verdict.timestamp}), outside the ${toleranceS} s tolerance: the clock of the sender or of this machine is off (compare \`date -u\`).`,
      ];
    case 'no_match':
      break;
  }

  const sig = parseSignature(input.header) as ParsedSignature;
  if (secret.startsWith('whtok_')) {
    causes.push(
      'The secret given is a verification token (whtok_…): it is only echoed in the handshake. Deliveries are signed with the webhook secret (whsec_…), shown once when the webhook was created.',
    );
  } else if (input.apiKey !== undefined && secret === input.apiKey) {
    causes.push(
      'The secret given is the API key: deliveries are signed with the webhook secret (whsec_…), shown once when the webhook was created, not with the key.',
    );
  } else if (!secret.startsWith('whsec_')) {
    causes.push(
      'The secret given does not start with whsec_, so it is not a webhook secret: use the one shown when the webhook was created (`ws webhooks create --secret-file F` saves it).',
    );
  }
  if (input.apiKey !== undefined && matchesAny(input.apiKey, body, sig)) {
    causes.push(
      'The header was made with the API key instead of the webhook secret: sign with the whsec_ secret.',
    );
  }

  const rewritten = rewritings(body).find((r) => matchesAny(secret, r.bytes, sig));
  if (rewritten) {
    causes.push(
      `The body was re-serialised: the signature matches this body ${rewritten.label}, not the bytes given. Check the signature over the raw request bytes, before any JSON parsing (e.g. express.raw(), not express.json()).`,
    );
  }

  const ownId = bodyWebhookId(body);
  const otherWebhook =
    (input.headerWebhookId !== undefined &&
      ownId !== undefined &&
      input.headerWebhookId !== ownId) ||
    (input.secretWebhookId !== undefined &&
      (ownId ?? input.headerWebhookId) !== undefined &&
      (ownId ?? input.headerWebhookId) !== input.secretWebhookId);
  if (otherWebhook) {
    const target = ownId ?? input.headerWebhookId;
    causes.push(
      `The header belongs to another webhook: this delivery is for webhook ${target}${input.secretWebhookId ? `, and the secret is that of webhook ${input.secretWebhookId}` : `, not ${input.headerWebhookId}`}. Each webhook has its own secret: check with the secret of the webhook that sent it.`,
    );
  } else if (ownId !== undefined && causes.length === 0 && !rewritten) {
    causes.push(
      `The secret may be another webhook's: this delivery is for webhook ${ownId}, and each webhook signs with its own secret. Pass --webhook with the webhook the secret belongs to, to have it checked.`,
    );
  }

  const age = verdict.ageSeconds ?? 0;
  if (Math.abs(age) > toleranceS) {
    causes.push(
      `Its timestamp is also ${ago(age)}, outside the ${toleranceS} s tolerance: even with the right secret it would be refused.`,
    );
  }
  if (causes.length === 0 || (causes.length === 1 && causes[0]!.startsWith('Its timestamp'))) {
    causes.unshift(
      'The body or the secret differs from what was signed: check that the body is the raw bytes as received (no re-encoding, no trimmed or added whitespace) and that the secret is the whsec_ secret of the webhook that sent it.',
    );
  }
  return causes;
}
