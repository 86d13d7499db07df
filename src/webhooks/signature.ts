// The delivery signature of the webhook API, made and checked the way the spec says:
// `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 keyed with the whsec_ secret
// over "<t>.<raw body bytes>">`. A header may carry several v1 values (while a secret is
// rotated); any one matching is enough. Comparisons are constant-time, and a signature
// whose timestamp is more than the tolerance (300 s) from now is refused, against replays.
// Pure (node:crypto only), so `ws webhooks sign|check-signature|listen|doctor`, `ws
// deliveries replay` and the tests share one definition.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';
export const WEBHOOK_ID_HEADER = 'x-service-webhook-id';
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';
export const EVENT_HEADER = 'x-service-event';

/** How far a signature's timestamp may be from now, in seconds (the spec's suggestion). */
export const DEFAULT_TOLERANCE_S = 300;

/** The hex HMAC-SHA256 of `<t>.<body>` keyed with `secret`. */
export function hmacHex(secret: string, t: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

/** The X-Service-Signature value for `body` signed at `t` (unix seconds). */
export function signatureHeader(secret: string, body: string | Uint8Array, t: number): string {
  return `t=${t},v1=${hmacHex(secret, t, body)}`;
}

export interface ParsedSignature {
  t: number;
  v1: string[];
}

/** The parts of a header value, or why it cannot be read. */
export function parseSignature(
  header: string | undefined,
): ParsedSignature | { error: 'missing_header' | 'malformed_header'; detail: string } {
  if (header === undefined || header.trim() === '') {
    return { error: 'missing_header', detail: 'no X-Service-Signature header' };
  }
  let t: number | undefined;
  let ts = 0;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') ts++;
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && value !== '') v1.push(value.toLowerCase());
  }
  if (ts > 1) {
    // Two signatures in one value (repeated headers joined): which t signs which v1 is unknown.
    return {
      error: 'malformed_header',
      detail: `the header has ${ts} t= parts; a signature has one (t=…,v1=…[,v1=…])`,
    };
  }
  if (t === undefined) {
    return {
      error: 'malformed_header',
      detail: 'the header has no t=<unix seconds> part (expected t=…,v1=…)',
    };
  }
  if (v1.length === 0) {
    return {
      error: 'malformed_header',
      detail: 'the header has no v1=<hex> part (expected t=…,v1=…)',
    };
  }
  return { t, v1 };
}

/** Constant-time equality of two hex digests (different lengths are unequal). */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  if (x.length !== y.length) {
    // Compare anyway, so the time taken does not tell the length.
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

/** Whether any of the header's v1 values is the HMAC of `body` at the header's t. */
export function matchesAny(
  secret: string,
  body: string | Uint8Array,
  sig: ParsedSignature,
): boolean {
  const expected = hmacHex(secret, sig.t, body);
  let found = false;
  // Every value is compared, so the time does not tell which one matched.
  for (const v of sig.v1) if (sameDigest(expected, v)) found = true;
  return found;
}

export type SignatureFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'no_match'
  | 'timestamp_too_old'
  | 'timestamp_in_future';

export type SignatureVerdict =
  | { valid: true; timestamp: number; ageSeconds: number }
  | {
      valid: false;
      reason: SignatureFailure;
      detail: string;
      timestamp?: number | undefined;
      ageSeconds?: number | undefined;
    };

export interface VerifyInput {
  secret: string;
  /** The raw request body, as received. */
  body: string | Uint8Array;
  header: string | undefined;
  /** Now, in unix seconds. */
  nowS: number;
  toleranceS?: number | undefined;
}

/** Check a delivery's signature: the HMAC first, then the timestamp's distance from now. */
export function verifySignature(input: VerifyInput): SignatureVerdict {
  const parsed = parseSignature(input.header);
  if ('error' in parsed) return { valid: false, reason: parsed.error, detail: parsed.detail };
  const tolerance = input.toleranceS ?? DEFAULT_TOLERANCE_S;
  const age = input.nowS - parsed.t;
  const at = { timestamp: parsed.t, ageSeconds: age };
  if (!matchesAny(input.secret, input.body, parsed)) {
    return {
      valid: false,
      reason: 'no_match',
      detail: `no v1 value is the HMAC of this body with this secret`,
      ...at,
    };
  }
  if (age > tolerance) {
    return {
      valid: false,
      reason: 'timestamp_too_old',
      detail: `signed ${age} s ago, more than the ${tolerance} s allowed`,
      ...at,
    };
  }
  if (-age > tolerance) {
    return {
      valid: false,
      reason: 'timestamp_in_future',
      detail: `signed ${-age} s in the future, more than the ${tolerance} s allowed`,
      ...at,
    };
  }
  return { valid: true, ...at };
}
