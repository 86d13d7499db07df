// The flags of verbs that list things: which ones (--where, --or, --filter-json), how many
// (--limit, --all) and since when (--since). Each is defined here once, with its reader, for
// every noun that lists: records today, automation runs and webhook deliveries next.
import type { Command } from 'commander';
import { UsageError } from '../../errors.ts';
import { parseDuration } from '../../util/time.ts';
import { collect, type Flags } from './flags.ts';

/** How a noun's items are named in help: `{ one: 'record', many: 'records' }`. */
export interface ItemNames {
  one: string;
  many: string;
}

/** --limit and --all: how many items, read page after page. */
export interface PageOptions {
  /** How many in all, however many pages that takes (undefined: the noun's default). */
  limit: number | undefined;
  /** Every item. */
  all: boolean;
}

export function pageFlags(cmd: Command, items: ItemNames, defaultLimit: number): Command {
  return cmd
    .option(
      '--limit <n>',
      `how many ${items.many}, however many pages that takes (default ${defaultLimit})`,
    )
    .option('--all', `every ${items.one}, page after page`);
}

export function pageOptions(f: Flags): PageOptions {
  f.exclusive('--all', '--limit', 'Use one of them.');
  return { limit: f.integer('--limit', 1), all: f.boolean('--all') };
}

/** --where (repeatable), --or and --filter-json: a filter, parsed by src/query/filter.ts. */
export interface WhereOptions {
  where: string[];
  or: boolean;
  filterJson: string | undefined;
}

export function whereFlags(cmd: Command, example = 'amount>=1000 or stage:in=won,lost'): Command {
  return cmd
    .option('--where <expr>', `a filter, e.g. ${example} (repeatable)`, collect, [])
    .option('--or', 'combine the filters with OR (default AND)')
    .option('--filter-json <json>', "the filter as the API's JSON array");
}

export function whereOptions(f: Flags): WhereOptions {
  return { where: f.list('--where'), or: f.boolean('--or'), filterJson: f.string('--filter-json') };
}

/**
 * --since: a duration back from the time the command runs, or a point in time. Read when
 * the flags are parsed (a bad value is a usage error before anything runs) and turned into
 * a time with the command's clock (sinceTime).
 */
export type Since = { ago: number } | { at: Date };

export function sinceFlag(cmd: Command, items: ItemNames): Command {
  return cmd.option(
    '--since <when>',
    `only ${items.many} since then: a duration back from now (30m, 2h, 7d, 1h30m) or an ISO-8601 date or time`,
  );
}

export function sinceOption(f: Flags): Since | undefined {
  const value = f.string('--since');
  return value === undefined ? undefined : parseSince('--since', value);
}

/** A date, optionally with a time (minutes, seconds, fractions) and a zone (else local time). */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * `30m`, `2h`, `7d`, `1w`, `1h30m` (units s, m, h, d, w), or an ISO-8601 date (midnight UTC)
 * or date-time; anything else is a usage error naming the flag.
 */
export function parseSince(flag: string, value: string): Since {
  const text = value.trim();
  const ms = parseDuration(text);
  if (ms !== undefined && ms > 0) return { ago: ms };
  const m = ISO.exec(text);
  if (m) {
    const [, y, mo, d, h, mi, s] = m.map(Number);
    const day = new Date(Date.UTC(y!, mo! - 1, d!));
    const realDate = day.getUTCMonth() === mo! - 1 && day.getUTCDate() === d;
    const realTime = m[4] === undefined || (h! < 24 && mi! < 60 && (m[6] === undefined || s! < 60));
    const at = m[4] === undefined ? day : new Date(text.replace(' ', 'T'));
    if (realDate && realTime && !Number.isNaN(at.getTime())) return { at };
  }
  throw new UsageError(
    `${flag} takes a duration or an ISO-8601 time, not "${value}".`,
    `E.g. ${flag} 30m, ${flag} 2h, ${flag} 7d, ${flag} 2026-03-31 or ${flag} 2026-03-31T09:30:00Z.`,
  );
}

/** The time --since names, as the API takes it (ISO-8601, UTC), for a command run at `now`. */
export function sinceTime(since: Since, now: Date): string {
  return ('at' in since ? since.at : new Date(now.getTime() - since.ago)).toISOString();
}
