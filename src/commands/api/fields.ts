// `-f key=value` fields of `ws api`: typed values, `key:=JSON`, and nested keys
// written as `query[select][]=name`.
import { UsageError } from '../../errors.ts';

/** "42" → 42, "true" → true, "null" → null; anything else stays a string. */
export function typedValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n) || !Number.isInteger(n)) return n;
  }
  return text;
}

/** "a[b][]" → ["a", "b", ""]. */
export function keyPath(key: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m)
    throw new UsageError(
      `"${key}" is not a field name.`,
      'Use name, name[sub] or name[] (to append to an array).',
    );
  const parts = [m[1]!];
  for (const seg of m[2]!.matchAll(/\[([^[\]]*)\]/g)) parts.push(seg[1]!);
  return parts;
}

export function parseField(spec: string): { path: string[]; value: unknown } {
  const json = spec.indexOf(':=');
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new UsageError(`-f "${spec}" needs the form key=value (or key:=JSON).`);
  if (json > 0 && json < eq) {
    const raw = spec.slice(json + 2);
    try {
      return { path: keyPath(spec.slice(0, json)), value: JSON.parse(raw) };
    } catch {
      throw new UsageError(`-f "${spec}": the value after := is not valid JSON.`);
    }
  }
  return { path: keyPath(spec.slice(0, eq)), value: typedValue(spec.slice(eq + 1)) };
}

/** Merge fields into one object. */
export function buildBody(specs: string[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const spec of specs) {
    const { path, value } = parseField(spec);
    let cur: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < path.length; i++) {
      const key = path[i]!;
      const last = i === path.length - 1;
      const nextIsArray = !last && path[i + 1] === '';
      if (Array.isArray(cur)) {
        if (key !== '') throw new UsageError(`-f "${spec}": cannot name a key inside an array.`);
        if (last) cur.push(value);
        else {
          const child: Record<string, unknown> | unknown[] = nextIsArray ? [] : {};
          cur.push(child);
          cur = child;
        }
        continue;
      }
      if (key === '') throw new UsageError(`-f "${spec}": [] must follow a key.`);
      if (last) {
        cur[key] = value;
      } else {
        const existing = cur[key];
        if (existing === undefined) cur[key] = nextIsArray ? [] : {};
        else if (
          typeof existing !== 'object' ||
          existing === null ||
          Array.isArray(existing) !== nextIsArray
        ) {
          throw new UsageError(
            `-f "${spec}": "${path.slice(0, i + 1).join('.')}" is already set to another kind of value.`,
          );
        }
        cur = cur[key] as Record<string, unknown> | unknown[];
      }
    }
  }
  return root;
}

/** Flatten a body built from fields into query parameters (for GET). */
export function toQuery(body: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v))
      out[k] = v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x)));
    else out[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return out;
}

export function parseHeader(spec: string): [string, string] {
  const i = spec.indexOf(':');
  const name = i > 0 ? spec.slice(0, i).trim() : '';
  if (!name || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
    throw new UsageError(`-H "${spec}" needs the form "Name: value".`);
  }
  if (name.toLowerCase() === 'x-api-key') {
    throw new UsageError(
      'The API key comes from the profile, never from a flag.',
      'Use --profile NAME or the WS_API_KEY environment variable.',
    );
  }
  return [name, spec.slice(i + 1).trim()];
}
