// One definition of each small check that the CLI and the sandbox both make. Neither side
// owns it: the sandbox never imports the CLI, and the CLI reaches the sandbox only through
// a lazy import, so shared checks live here.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its 8-4-4-4-12 hex form, in either case (the API's ids). */
export function isUuid(value: unknown): boolean {
  return typeof value === 'string' && UUID.test(value);
}

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value of `obj`'s own property `key`, never one inherited from Object.prototype: data
 * keyed by user-chosen names (property slugs, column names, profile names) may be called
 * `constructor` or `toString`.
 */
export function own(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null && Object.hasOwn(obj, key)
    ? (obj as Record<string, unknown>)[key]
    : undefined;
}
