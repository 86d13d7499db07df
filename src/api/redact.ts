// Secrets never reach output, logs or debug traces: API keys, webhook secrets,
// verification tokens and signatures are cut to their last four characters.

const SECRET_KEY = /(api[_-]?key|secret|signature|token|password|authorization)/i;
const SECRET_VALUE = /\b(whsec|whtok|wsk)_[A-Za-z0-9_-]{4,}/g;

export function redactValue(value: string): string {
  return value.length <= 8 ? '…' : `…${value.slice(-4)}`;
}

export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const text = Array.isArray(v) ? v.join(', ') : v;
    out[k] = SECRET_KEY.test(k) ? redactValue(text) : text;
  }
  return out;
}

function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = typeof v === 'string' && SECRET_KEY.test(k) ? redactValue(v) : redactDeep(v);
    }
    return out;
  }
  return value;
}

/** Redact secret-looking values inside free text. */
export function redactText(text: string, known: readonly string[] = []): string {
  let out = text.replace(SECRET_VALUE, (m) => `${m.slice(0, m.indexOf('_') + 1)}${redactValue(m)}`);
  for (const k of known) if (k.length >= 4) out = out.split(k).join(redactValue(k));
  return out;
}

/** A body for a debug trace: JSON with secret fields redacted, cut to `max` characters. */
export function redactBody(text: string, known: readonly string[] = [], max = 4096): string {
  let shown: string;
  try {
    shown = JSON.stringify(redactDeep(JSON.parse(text)));
  } catch {
    shown = text;
  }
  shown = redactText(shown, known);
  return shown.length > max ? `${shown.slice(0, max)}… (${text.length} bytes in all)` : shown;
}
