// Reading a selected path from a record's values as the API answers them: a slug
// (`name`), or a dot-path through references (`organization.name`), where a reference
// reads as `{ id, properties }` and a multi-reference as a list of those. Record lists,
// exports and views print what --select names through this one reader, so every verb
// and every format shows the same value.
import { isPlainObject, own } from '../util/guards.ts';

/** One step into a value: a reference `{ id, properties }` is followed into its properties. */
function step(value: unknown, segment: string): unknown {
  if (Array.isArray(value)) return value.map((v) => step(v, segment));
  if (!isPlainObject(value)) return undefined;
  if (segment !== 'id' && isPlainObject(value.properties)) return own(value.properties, segment);
  return own(value, segment);
}

/**
 * The value a select path reads from a record's values: the value of a slug, or, for
 * `ref.slug`, the referenced record's value (a list of them through a multi-reference).
 * A key that holds the dot itself (an answer that kept the path flat) is read as it is.
 */
export function readSelected(values: Record<string, unknown>, path: string): unknown {
  const direct = own(values, path);
  if (direct !== undefined || !path.includes('.')) return direct;
  const [first, ...rest] = path.split('.');
  let value: unknown = own(values, first!);
  for (const segment of rest) value = step(value, segment);
  return value;
}
