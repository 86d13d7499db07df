// One canonical JSON for the whole project: object keys sorted at every level, so equal
// values give equal text. The sandbox hashes request bodies with it (idempotency), keys
// import dedupe values and query cursors by it; it sits in src/util so the CLI can use the
// same one (the sandbox never imports the CLI, and the CLI loads the sandbox only lazily).

import { isPlainObject } from './guards.ts';

/**
 * JSON with object keys sorted at every level, so equal bodies give equal text, for JSON
 * data (what JSON.parse gives): undefined properties are left out and undefined array items
 * written as null, as JSON.stringify does.
 *
 * Every import body goes through it, so it is written for large bodies: JSON.stringify with
 * the sorted list of every key in the value as its replacer writes each object's keys in that
 * order, natively. That costs a look-up of every listed key in every object, so a value
 * whose objects mostly lack the listed keys (many distinct keys, each in few objects) is
 * written key by key instead.
 */
export function canonicalJson(value: unknown): string {
  const shape: Shape = { keys: new Set(), objects: 0, properties: 0 };
  measure(value, shape);
  if (shape.keys.size * shape.objects <= 8 * shape.properties + 1024) {
    return JSON.stringify(value, [...shape.keys].sort()) ?? 'null';
  }
  return sortedJson(value);
}

/** The distinct keys of a value's objects, how many objects, and how many properties. */
interface Shape {
  keys: Set<string>;
  objects: number;
  properties: number;
}

function measure(value: unknown, shape: Shape): void {
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null) measure(item, shape);
  } else if (isPlainObject(value)) {
    const keys = Object.keys(value);
    shape.objects++;
    shape.properties += keys.length;
    for (const key of keys) {
      shape.keys.add(key);
      const item = value[key];
      if (typeof item === 'object' && item !== null) measure(item, shape);
    }
  }
}

/** canonicalJson written key by key. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += sortedJson(value[i] ?? null);
    }
    return `${out}]`;
  }
  if (isPlainObject(value)) {
    let out = '{';
    for (const key of Object.keys(value).sort()) {
      const item = value[key];
      if (item === undefined) continue;
      if (out.length > 1) out += ',';
      out += `${JSON.stringify(key)}:${sortedJson(item)}`;
    }
    return `${out}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
