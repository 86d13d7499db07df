// A filter from the flags: --where (repeatable), --filter-json (the raw array) and --or.
import { UsageError } from '../errors.ts';
import { isPlainObject } from '../util/guards.ts';
import { didYouMean } from '../util/suggest.ts';
import { checkPath, type SlugContext } from './slugs.ts';
import {
  type Combinator,
  type Filter,
  OPERATORS,
  operatorNamed,
  parseWhere,
  refuseIdFilter,
  TYPED_OPERATORS,
  typedValue,
} from './where.ts';

export interface FilterFlags {
  /** --where expressions. */
  where?: readonly string[] | undefined;
  /** --filter-json: a JSON array of filter entries. */
  filterJson?: string | undefined;
  /** --or: the entries combine with OR instead of AND. */
  or?: boolean | undefined;
}

export interface BuiltFilter {
  /** Present when --where or --filter-json was given: --filter-json's entries, then --where's. */
  filter?: Filter[];
  /** OR with --or; AND when a filter was given without it; absent otherwise. */
  combinator?: Combinator;
}

const EXAMPLE = `e.g. --filter-json '[{"amount":{">=":"1000"}},{"stage":{"in":["won","lost"]}}]'`;

/** Parse --filter-json: an array of `{ slug: { operator: value } }`, slugs checked. */
export function parseFilterJson(text: string, opts: SlugContext = {}): Filter[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--filter-json is not valid JSON: ${(err as Error).message}.`, EXAMPLE);
  }
  if (!Array.isArray(parsed)) {
    throw new UsageError(
      '--filter-json must be a JSON array of {"slug": {"operator": value}} objects.',
      EXAMPLE,
    );
  }
  parsed.forEach((entry, i) => {
    const where = `--filter-json (item ${i + 1})`;
    if (!isPlainObject(entry) || Object.keys(entry).length === 0) {
      throw new UsageError(
        `${where} must be an object {"slug": {"operator": value}}, not ${JSON.stringify(entry)}.`,
        EXAMPLE,
      );
    }
    for (const [path, comparison] of Object.entries(entry)) {
      refuseIdFilter(path, opts, where);
      const def = checkPath(path, opts, where);
      if (!isPlainObject(comparison) || Object.keys(comparison).length === 0) {
        throw new UsageError(
          `${where}: the value of "${path}" must be an object {"operator": value}, not ${JSON.stringify(comparison)}.`,
          EXAMPLE,
        );
      }
      for (const [op, value] of Object.entries(comparison)) {
        if (!(OPERATORS as readonly string[]).includes(op)) {
          const named = operatorNamed(op);
          const near = named ? `Did you mean "${named}"?` : didYouMean(op, OPERATORS);
          throw new UsageError(
            `${where}: "${op}" is not an operator.`,
            `${near ?? ''} Operators: ${OPERATORS.join(' ')}.`.trim(),
          );
        }
        // Sent as given, but a value a number or date property cannot hold is refused here.
        if (!TYPED_OPERATORS.has(op)) continue;
        const texts = Array.isArray(value)
          ? value
          : op === 'between' && typeof value === 'string'
            ? value.split(',')
            : [value];
        for (const text of texts) {
          const typed = typeof text === 'string' ? typedValue(def, path, text) : undefined;
          if (typed && 'problem' in typed)
            throw new UsageError(`${where}: ${typed.problem}.`, EXAMPLE);
        }
      }
    }
  });
  return parsed as Filter[];
}

/** The filter and combinator that --where, --filter-json and --or ask for. */
export function buildFilter(flags: FilterFlags, opts: SlugContext = {}): BuiltFilter {
  const out: BuiltFilter = {};
  const where = flags.where ?? [];
  if (flags.filterJson !== undefined || where.length > 0) {
    out.filter = [
      ...(flags.filterJson !== undefined ? parseFilterJson(flags.filterJson, opts) : []),
      ...parseWhere(where, opts),
    ];
  }
  if (flags.or) out.combinator = 'OR';
  else if (out.filter) out.combinator = 'AND';
  return out;
}
