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
