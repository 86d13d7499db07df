// The language `ws automations` writes conditions and waits in, shared by its flags, its
// files and what it prints, so that what `get` shows can be typed back:
//
//   --on-change SLUG                 any change of the property
//   --on-change SLUG:to=VALUE        changed, and the value after the write compares so
//   --on-change SLUG:from<VALUE      changed, and the value before the write compares so
//   --where EXPR                     a condition on the record (src/query/where.ts)
//   --wait 2h | 7200                 a delay (units s m h d w, or seconds)
//
// The comparison after `:from` or `:to` is what follows the slug in a --where expression
// (`=won`, `>=1000`, `:in=won,lost`, `:is_null`), so users learn one filter language. All
// the expressions on one slug make one changeset entry: `amount:from<1000` and
// `amount:to>=1000` together mean "amount went from below 1000 to 1000 or more". A changeset
// or state entry that these rules cannot write (two slugs in one entry, or a slug in two
// entries) is written as a group of expressions (a list in a file).
import { UsageError } from '../errors.ts';
import { checkPath, SLUG, SLUG_PATH, type SlugContext } from '../query/slugs.ts';
import { type Comparison, type Filter, formatComparison, parseWhereExpr } from '../query/where.ts';
import { parseDuration } from '../util/time.ts';

export type Side = 'from' | 'to';

/** One --on-change expression, read. */
export interface ChangeCondition {
  slug: string;
  /** Absent: any change of the property. */
  side?: Side;
  /** One `operator: value` (with `side`). */
  comparison?: Comparison;
}

/** A changeset entry: `{ slug: { from?, to? } }`. */
export type ChangeEntry = Record<string, { from?: Comparison; to?: Comparison }>;

/**
 * Run `parse`, and say `shown` where its usage errors say `synth` (the --where expression
 * an --on-change expression is read as).
 */
function relabel<T>(synth: string, shown: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (!(err instanceof UsageError) || synth === shown) throw err;
    throw new UsageError(err.message.split(synth).join(shown), err.hint);
  }
}

const ON_CHANGE_SYNTAX =
  'Write SLUG (any change), SLUG:to=VALUE or SLUG:from=VALUE, with any --where operator after from or to: ' +
  "stage, stage:to=won, 'amount:from<1000', stage:to:in=won,lost, phone:to:is_null.";

/**
 * Read one --on-change expression. `shown` is how messages name it (`--on-change
 * "stage:to=won"`; in a file, the quoted text); slugs and select values are checked when
 * `ctx` has the definitions.
 */
export function parseOnChange(
  expr: string,
  ctx: SlugContext = {},
  shown = `--on-change "${expr}"`,
): ChangeCondition {
  const head = new RegExp(`^\\s*(${SLUG})\\s*`).exec(expr);
  if (expr.trim() === '') throw new UsageError(`Bad ${shown}: it is empty.`, ON_CHANGE_SYNTAX);
  if (!head)
    throw new UsageError(`Bad ${shown}: it must start with a property slug.`, ON_CHANGE_SYNTAX);
  const slug = head[1]!;
  const rest = expr.slice(head[0].length);
  if (rest.startsWith('.')) {
    throw new UsageError(
      `Bad ${shown}: a change is of one of the record's own properties, not a dot-path.`,
      'Test the values of referenced records with --where (organization.industry=software).',
    );
  }
  if (rest.trim() === '') {
    checkPath(slug, ctx, shown);
    return { slug };
  }
  const side = /^:\s*(from|to)\b\s*/i.exec(rest);
  if (!side) {
    throw new UsageError(
      `Bad ${shown}: after "${slug}" comes ":from" or ":to" and a comparison, or nothing (any change).`,
      ON_CHANGE_SYNTAX,
    );
  }
  const which = side[1]!.toLowerCase() as Side;
  const comparison = rest.slice(side[0].length);
  if (comparison.trim() === '') {
    throw new UsageError(
      `Bad ${shown}: a comparison must follow "${slug}:${which}".`,
      `e.g. ${slug}:${which}=VALUE, ${slug}:${which}>=VALUE or ${slug}:${which}:in=A,B.`,
    );
  }
  const synth = `${slug}${comparison}`;
  const entry = relabel(`--where "${synth}"`, shown, () => parseWhereExpr(synth, ctx));
  return { slug, side: which, comparison: entry[slug]! };
}

/**
 * Changeset entries of conditions, in order. `groups` are lists of conditions: a group
 * marked `together` is one entry whatever its slugs; the others join the entry of their
 * slug (one entry per slug). Returns the entries and, for each condition, where it went.
 */
export function changeEntries(
  groups: readonly { conditions: readonly ChangeCondition[]; together: boolean }[],
): { entries: ChangeEntry[]; placed: { entry: number; condition: ChangeCondition }[][] } {
  const entries: ChangeEntry[] = [];
  const placed: { entry: number; condition: ChangeCondition }[][] = [];
  const bySlug = new Map<string, number>();
  for (const group of groups) {
    const where: { entry: number; condition: ChangeCondition }[] = [];
    let own: number | undefined;
    for (const c of group.conditions) {
      let index: number;
      if (group.together) {
        own ??= entries.push({}) - 1;
        index = own;
      } else {
        index = bySlug.get(c.slug) ?? entries.push({}) - 1;
        bySlug.set(c.slug, index);
      }
      const entry = entries[index]!;
      entry[c.slug] ??= {};
      const sides = entry[c.slug]!;
      if (c.side !== undefined && c.comparison !== undefined) {
        sides[c.side] = { ...sides[c.side], ...c.comparison };
      }
      where.push({ entry: index, condition: c });
    }
    placed.push(where);
  }
  return { entries, placed };
}

// ---------------------------------------------------------------- writing

function slugText(path: string): string {
  return SLUG_PATH.test(path) ? path : JSON.stringify(path);
}

/** One comparison of a changeset side as an --on-change expression: `stage:to=won`. */
export function formatChange(slug: string, side: Side, op: string, value: unknown): string {
  const where = formatComparison(slug, op, value);
  const head = slugText(slug);
  return `${head}:${side}${where.slice(head.length)}`;
}

/** The --on-change expressions of one entry's slug: `stage`, or its from and to comparisons. */
function slugLines(slug: string, sides: unknown): string[] {
  const out: string[] = [];
  const s = (sides ?? {}) as Partial<Record<Side, Record<string, unknown> | undefined>>;
  for (const side of ['from', 'to'] as const) {
    for (const [op, value] of Object.entries(s[side] ?? {}))
      out.push(formatChange(slug, side, op, value));
  }
  return out.length > 0 ? out : [slugText(slug)];
}

/**
 * A changeset's entries as expressions: a string per expression where the reading rules
 * give the entry back (one slug, not named by another entry), else a group (a list) of the
 * entry's expressions.
 */
export function changeItems(filter: readonly unknown[] | undefined): (string | string[])[] {
  const entries = (filter ?? []).map((e) => Object.entries((e ?? {}) as Record<string, unknown>));
  const count = new Map<string, number>();
  for (const entry of entries)
    for (const [slug] of entry) count.set(slug, (count.get(slug) ?? 0) + 1);
  const out: (string | string[])[] = [];
  for (const entry of entries) {
    const lines = entry.flatMap(([slug, sides]) => slugLines(slug, sides));
    const alone = entry.length === 1 && count.get(entry[0]![0]) === 1;
    if (alone) out.push(...lines);
    else out.push(lines);
  }
  return out;
}

/** A state filter's entries as --where expressions, grouped as changeItems groups them. */
export function whereItems(filter: readonly unknown[] | undefined): (string | string[])[] {
  const out: (string | string[])[] = [];
  for (const entry of (filter ?? []) as Filter[]) {
    const pairs = Object.entries(entry ?? {});
    const ops = pairs.flatMap(([path, c]) =>
      Object.entries((c ?? {}) as Record<string, unknown>).map(([op, v]) =>
        formatComparison(path, op, v),
      ),
    );
    if (ops.length === 1) out.push(ops[0]!);
    else out.push(ops);
  }
  return out;
}

/** Items in one line: `a and b`, `a or (b and c)`. */
export function itemsText(items: readonly (string | string[])[], combinator: string): string {
  const join = combinator === 'OR' ? ' or ' : ' and ';
  return items
    .map((i) => (typeof i === 'string' ? i : i.length === 1 ? i[0]! : `(${i.join(' and ')})`))
    .join(join);
}

// ---------------------------------------------------------------- waits

/** A delay in seconds: a duration (`2h`, `1h30m`, `1d`, as --since takes) or a number of seconds. */
export function parseDelay(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const ms = parseDuration(t);
  return ms === undefined ? undefined : ms / 1000;
}

const UNITS: readonly [string, number][] = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
];

/** Seconds as a duration: 86400 → `1d`, 5400 → `1h30m`, 0 → `0s`; fractions as seconds (`1.5`). */
export function formatDelay(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds < 0) return String(seconds);
  if (seconds === 0) return '0s';
  let left = seconds;
  let out = '';
  for (const [unit, size] of UNITS) {
    const n = Math.floor(left / size);
    if (n > 0) out += `${n}${unit}`;
    left -= n * size;
  }
  return out;
}
