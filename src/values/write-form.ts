// Values as records read back, turned into the form a write takes: a reference reads as
// `{ id, properties }` and is written as its id; select values already read as slugs.
// Exports, `edit` and comparisons of values use this form.

/** The write form of a read value: references become ids, lists keep their items' write form. */
export function toWriteForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toWriteForm);
  if (value !== null && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v['id'] === 'string' && 'properties' in v) return v['id'];
  }
  return value;
}

/** The write form of every value of a map. */
export function writeFormOf(values: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values ?? {})) out[k] = toWriteForm(v);
  return out;
}

/** Deep equality of JSON values (key order does not matter). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return (a ?? null) === (b ?? null);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) =>
    sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** A value as one line of text for people: lists joined with ", ", objects as JSON. */
export function valueText(value: unknown): string {
  const v = toWriteForm(value);
  if (v === null || v === undefined) return '(empty)';
  if (Array.isArray(v))
    return v.length === 0
      ? '(none)'
      : v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ');
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

const NEUTRALISED = /^'[=+\-@\t\r]/;

/**
 * Undo the formula neutralisation of an export: a cell `'=…` (a `'` before = + - @, a tab
 * or a CR) reads as the text after the `'`.
 */
export function unneutralise(cell: string): string {
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
}
