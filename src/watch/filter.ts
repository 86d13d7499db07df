// --where of `ws records watch`, tested on each change as it arrives: the API's filter
// entries (src/query/filter.ts builds them from the flags, slugs checked) compiled with the
// comparators every filter of ws and the sandbox shares (src/filter/compare.ts), so
// `amount>=1000` means here what it means to the query endpoint. A change is shown when the
// record matches before or after it (a record entering or leaving the filter is seen).
// Only the record's own properties can be read this way: a dot-path (organization.name)
// needs other records, so it is a usage error pointing at --poll.

import { orderedOptions, type PropertyDefinition } from '../api/props.ts';
import type { ChangeMessage } from '../api/realtime.ts';
import { UsageError } from '../errors.ts';
import {
  ComparisonProblem,
  compileComparison,
  type OptionSource,
  valuePredicate,
} from '../filter/compare.ts';
import { lookUpOption, optionRankIn, optionsShownOn, optionTable } from '../filter/options.ts';
import type { Combinator, Filter } from '../query/where.ts';

type Values = Record<string, unknown>;

/** A record as the filter reads it: its workspace values and its lists' values. */
export interface FilterRecord {
  default: Values;
  list?: Record<string, Values> | undefined;
}

export type RecordPredicate = (record: FilterRecord) => boolean;

function optionsOf(def: PropertyDefinition): OptionSource {
  const all = orderedOptions(def).map((o) => ({
    id: o.id,
    slug: o.slug,
    value: o.value ?? null,
    list_id: o.list_id ?? null,
  }));
  const shown = optionsShownOn(all, def.list_id ?? null);
  const table = optionTable(shown);
  return {
    find: (text) => lookUpOption(table, text),
    shown: () => shown,
    rank: (slug) => optionRankIn(all, slug),
  };
}

/** The value a definition reads from a record: a workspace value, or its list's. */
function readValue(def: PropertyDefinition, record: FilterRecord): unknown {
  const listId = def.list_id ?? null;
  return listId === null ? record.default[def.slug] : record.list?.[listId]?.[def.slug];
}

/** The filter as a test of records; undefined when there is no filter. */
export function compileWatchFilter(
  filter: readonly Filter[] | undefined,
  combinator: Combinator | undefined,
  definitions: readonly PropertyDefinition[],
): RecordPredicate | undefined {
  if (filter === undefined || filter.length === 0) return undefined;
  const entries = filter.map((entry, i) => {
    const tests: RecordPredicate[] = [];
    for (const [path, comparison] of Object.entries(entry)) {
      if (path.includes('.')) {
        throw new UsageError(
          `--where "${path}": watch tests each change on the record itself, and a dot-path reads other records.`,
          'Use --poll, which asks the query endpoint (it follows references), or filter on a property of the record.',
        );
      }
      const def = definitions.find((d) => d.slug === path);
      if (def === undefined) throw new UsageError(`--where: no property has the slug "${path}".`);
      for (const [operator, operand] of Object.entries(comparison as Values)) {
        try {
          const test = valuePredicate(
            compileComparison(def, optionsOf(def), operator, operand, `--where ${path}`),
          );
          tests.push((record) => test(readValue(def, record)));
        } catch (err) {
          if (!(err instanceof ComparisonProblem)) throw err;
          throw new UsageError(`${err.field} (filter entry ${i + 1}): ${err.detail}`);
        }
      }
    }
    return (record: FilterRecord) => tests.every((t) => t(record));
  });
  return combinator === 'OR'
    ? (record) => entries.some((e) => e(record))
    : (record) => entries.every((e) => e(record));
}

/** The record before a change, from the record after it and what the change changed from. */
export function recordBefore(message: ChangeMessage): FilterRecord | undefined {
  if (message.change === 'created') return undefined;
  const values: Values = { ...(message.record.default as Values) };
  for (const [slug, { from }] of Object.entries(message.changes ?? {})) {
    if (from === null) delete values[slug];
    else values[slug] = from;
  }
  const list: Record<string, Values> = {};
  for (const [listId, values_] of Object.entries(
    (message.record.list ?? {}) as Record<string, Values>,
  )) {
    list[listId] = { ...values_ };
  }
  for (const [listId, changed] of Object.entries(message.list_changes ?? {})) {
    const was = { ...(list[listId] ?? {}) };
    for (const [slug, { from }] of Object.entries(changed)) {
      if (from === null) delete was[slug];
      else was[slug] = from;
    }
    list[listId] = was;
  }
  return { default: values, list };
}

/** Whether a change is shown under the filter: the record matches before or after it. */
export function changeMatches(
  predicate: RecordPredicate | undefined,
  message: ChangeMessage,
): boolean {
  if (predicate === undefined) return true;
  const after = {
    default: message.record.default as Values,
    list: message.record.list as Record<string, Values> | undefined,
  };
  if (predicate(after)) return true;
  const before = recordBefore(message);
  return before !== undefined && predicate(before);
}
