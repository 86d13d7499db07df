// Which option a select value names: the options a definition shows on a list, and the
// table that finds one by slug, id or display value. One definition shared by the sandbox's
// properties model (writes and record filters) and the automation evaluator, so a select
// operand names the same option in a record query, in an automation the sandbox runs and in
// `ws automations test`. It imports neither the sandbox nor the CLI.

/** What the look-up reads of an option. */
export interface ListedOption {
  readonly id: string;
  readonly slug: string;
  /** Display value. */
  readonly value: string | null;
  /** null (or absent): shown on every list the definition shows on. */
  readonly list_id?: string | null | undefined;
}

/**
 * The options of a definition shown on a list: with listId undefined all of them; with null
 * the ones that show on every list; with a list id those plus that list's own.
 */
export function optionsShownOn<O extends ListedOption>(
  options: readonly O[],
  listId?: string | null,
): readonly O[] {
  if (listId === undefined) return options;
  // Most options show on every list: then the definition's own array is the answer.
  for (const option of options) {
    const own = option.list_id ?? null;
    if (own !== null && own !== listId) {
      return options.filter((o) => (o.list_id ?? null) === null || o.list_id === listId);
    }
  }
  return options;
}

/** The options of a definition shown on a list, by what findOption() matches (first wins). */
export interface OptionTable<O extends ListedOption> {
  /** By slug and by id. */
  exact: Map<string, O>;
  /** By display value, trimmed and lower-cased. */
  byValue: Map<string, O>;
  /** By slug, lower-cased. */
  bySlug: Map<string, O>;
}

/** The look-up table of `options`. */
export function optionTable<O extends ListedOption>(options: readonly O[]): OptionTable<O> {
  const table: OptionTable<O> = { exact: new Map(), byValue: new Map(), bySlug: new Map() };
  for (const option of options) {
    setFirst(table.exact, option.slug, option);
    setFirst(table.exact, option.id, option);
    if (option.value !== null) setFirst(table.byValue, option.value.trim().toLowerCase(), option);
    setFirst(table.bySlug, option.slug.toLowerCase(), option);
  }
  return table;
}

/**
 * The option a written or filtered value names in `table`: its slug, its id, or (when
 * neither matches) its display value or slug compared case-insensitively.
 */
export function lookUpOption<O extends ListedOption>(
  table: OptionTable<O>,
  input: string,
): O | undefined {
  const exact = table.exact.get(input);
  if (exact !== undefined) return exact;
  const folded = input.trim().toLowerCase();
  return table.byValue.get(folded) ?? table.bySlug.get(folded);
}

/** The position of an option in the display order of `options` (unknown slugs last). */
export function optionRankIn(options: readonly ListedOption[], slug: string): number {
  const i = options.findIndex((o) => o.slug === slug);
  return i === -1 ? options.length : i;
}

function setFirst<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (!map.has(key)) map.set(key, value);
}
