// The lookup of find and upsert: SLUG checked against the definitions ("did you mean"),
// VALUE typed by it (a select option by display value becomes its slug), and the 404/409
// answers explained.

import type { RecordType } from '../../api/object-types.ts';
import { ApiError, ConflictError, NotFoundError, UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { findDefinition } from '../../schema/definitions.ts';
import { shellWord } from '../../util/shell.ts';
import { coerceValue } from '../../values/coerce.ts';
import { definitions, type PropertyDefinition } from './shared.ts';

export interface Lookup {
  slug: string;
  /** The value as the path carries it. */
  value: string;
  def: PropertyDefinition;
}

export async function resolveLookup(
  deps: Deps,
  type: RecordType,
  slug: string,
  value: string,
  listId?: string | undefined,
): Promise<Lookup> {
  const defs = await definitions(deps, type, listId);
  const def = findDefinition(defs, slug, type);
  if (value === '') throw new UsageError(`The value to look up by ${def.slug} is empty.`);
  const typed = coerceValue(def, value);
  if (!typed.ok) throw new UsageError(typed.error, typed.hint);
  const v = typed.value;
  if (v === null || Array.isArray(v) || typeof v === 'object') {
    throw new UsageError(
      `${def.slug} cannot be looked up by ${JSON.stringify(value)}: it needs one value.`,
      'Find and upsert compare one property with one value.',
    );
  }
  return { slug: def.slug, value: String(v), def };
}

/** The 404 and 409 of a lookup as messages that say which. */
export function lookupError(
  err: unknown,
  type: RecordType,
  l: Lookup,
  verb: 'find' | 'upsert',
): unknown {
  if (!(err instanceof ApiError)) return err;
  const what = `${l.slug} = ${JSON.stringify(l.value)}`;
  if (err.status === 404 && verb === 'find') {
    return new NotFoundError(
      `No ${type} record has ${what}.`,
      `Create it with \`ws records upsert ${type} ${l.slug} ${shellWord(l.value)} --set …\`, or search with \`ws records list ${type} --where '${l.slug}~…'\`.`,
    );
  }
  if (err.status === 409 && err.apiCode !== 'idempotency_key_mismatch') {
    return new ConflictError(
      `Several ${type} records have ${what}; ${verb} needs ${verb === 'find' ? 'exactly one' : 'at most one'}.`,
      `See them with \`ws records list ${type} --where ${shellWord(`${l.slug}=${l.value}`)} --fields id,${l.slug}\`, then ${verb === 'find' ? 'get' : 'update'} one by id.`,
    );
  }
  return err;
}
