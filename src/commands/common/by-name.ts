// Finding what a user named in a listing (webhooks, views, lists, automations): the exact
// name first, else the name ignoring case; and the names there are, for a message that
// finds none.
import { NotFoundError, UsageError } from '../../errors.ts';

/** The items called `given`: those of that exact name, else those of it ignoring case. */
export function namedIn<T extends { name: string }>(items: readonly T[], given: string): T[] {
  const exact = items.filter((i) => i.name === given);
  if (exact.length > 0) return exact;
  const lower = given.toLowerCase();
  return items.filter((i) => i.name.toLowerCase() === lower);
}

/** The first ten names, quoted: `"Sales", "Support", … (12 in all)`. */
export function someNames(items: readonly { name: string }[]): string {
  const shown = items
    .slice(0, 10)
    .map((i) => `"${i.name}"`)
    .join(', ');
  return items.length > 10 ? `${shown}, … (${items.length} in all)` : shown;
}

/** The id or name a user gave, trimmed; an empty one is a usage error (`A list id or name is needed.`). */
export function givenIdOrName(idOrName: string, article: string): string {
  const given = idOrName.trim();
  if (given === '') throw new UsageError(`${article} id or name is needed.`);
  return given;
}

/** What the items of a listing are called, for the messages of `oneNamed`. */
export interface Naming<T> {
  /** One item: `webhook`, `deal view`. */
  one: string;
  /** Several: `webhooks`, `deal views`. */
  many: string;
  /** What leads the names there are: `Webhooks` (`Webhooks: "a", "b".`). */
  heading: string;
  /** The hint when there are none: how to create one. */
  none: string;
  /** How an item is told from others of its name (default: its id). */
  label?: (item: T) => string;
}

/**
 * The one item called `given` (see namedIn). None is "not found" (exit 4) with the names
 * there are; several are a usage error (exit 2) listing them, for the user to pass an id.
 */
export function oneNamed<T extends { id: string; name: string }>(
  items: readonly T[],
  given: string,
  naming: Naming<T>,
): T {
  const matches = namedIn(items, given);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new NotFoundError(
      `No ${naming.one} has the id or name "${given}".`,
      items.length > 0 ? `${naming.heading}: ${someNames(items)}.` : naming.none,
    );
  }
  const label = naming.label ?? ((item: T) => item.id);
  throw new UsageError(
    `${matches.length} ${naming.many} are named "${given}": ${matches.map(label).join(', ')}.`,
    'Pass the id of the one you mean.',
  );
}
