// Finding what a user named in a listing (webhooks, views, lists, automations): the exact
// name first, else the name ignoring case; and the names there are, for a message that
// finds none.

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
