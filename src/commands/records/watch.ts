// `ws records watch [TYPE] [--where …]`: record changes as they happen, until Ctrl-C (exit
// 130, as `tail -f` ends). It reads the service's realtime stream (src/watch/follow.ts:
// reconnecting and resuming after the last position, so nothing is missed or shown twice),
// or with --poll reads the records again every --interval seconds (watch-poll.ts). At a
// terminal each change is one line, what changed before → after; piped, one JSON object per
// line (NDJSON), whose `position` a later `--from` reads on after.
import { RECORD_TYPES, type RecordType } from '../../api/object-types.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { buildFilter } from '../../query/filter.ts';
import { sleep } from '../../util/time.ts';
import { eventOf, type WatchEvent } from '../../watch/event.ts';
import { changeMatches, compileWatchFilter } from '../../watch/filter.ts';
import { follow } from '../../watch/follow.ts';
import { changeLine } from '../../watch/lines.ts';
import { recordType } from '../common/record-args.ts';
import { isStop, stopped } from '../common/stop.ts';
import { planRead } from './read.ts';
import { definitions } from './shared.ts';
import { RecordsPoller } from './watch-poll.ts';

export interface WatchOptions {
  /** One record type; every type when undefined. */
  type?: string | undefined;
  where: string[];
  or: boolean;
  filterJson?: string | undefined;
  /** Read the records again and again instead of the realtime stream. */
  poll: boolean;
  /** --poll: seconds between looks (default 5). */
  interval?: number | undefined;
  /** Read on after this position (from an earlier watch's NDJSON). */
  from?: string | undefined;
}

/** The fields of an NDJSON line, for --fields. */
const FIELDS = [
  'position',
  'at',
  'type',
  'id',
  'change',
  'source',
  'changes',
  'list_changes',
  'record',
];

export const DEFAULT_INTERVAL_S = 5;

export async function run(opts: WatchOptions, deps: Deps): Promise<void> {
  const { io } = deps;
  const lines = outputForm(deps);
  const fields = checkedFields(deps.fields);
  const type = opts.type === undefined ? undefined : recordType(opts.type);
  const filtered = opts.where.length > 0 || opts.filterJson !== undefined;
  if (filtered && type === undefined) {
    throw new UsageError(
      '--where needs an object type: the filter names its properties.',
      "For example: ws records watch deals --where 'amount>=1000'",
    );
  }
  if (opts.or && !filtered) throw new UsageError('--or combines filters: give --where with it.');
  if (opts.poll && opts.from !== undefined) {
    throw new UsageError(
      '--from reads on after a position of the realtime stream; --poll has none.',
    );
  }
  if (!opts.poll && opts.interval !== undefined) {
    throw new UsageError('--interval is the pause between looks of --poll: give --poll with it.');
  }

  let shown = 0;
  const show = (event: WatchEvent) => {
    if (lines) io.println(changeLine(io, event));
    else io.println(JSON.stringify(fields ? pick(event, fields) : event));
    shown++;
  };
  const client = await deps.client();
  try {
    if (opts.poll) {
      await poll(opts, deps, type, filtered, show);
    } else {
      const defs = filtered ? await definitions(deps, type!) : [];
      const built = buildFilter(
        { where: opts.where, filterJson: opts.filterJson, or: opts.or },
        { definitions: defs, objectType: type },
      );
      const predicate = compileWatchFilter(built.filter, built.combinator, defs);
      await follow({
        client,
        types: type === undefined ? undefined : [type],
        from: opts.from,
        signal: deps.signal,
        connectTimeoutMs: 10_000,
        onChange: (message) => {
          if (type !== undefined && message.type !== type) return;
          if (changeMatches(predicate, message)) show(eventOf(message));
        },
        notice: (kind, text) => (kind === 'warn' ? io.warn(text) : io.info(text)),
        debug: (text) => io.debug(text),
      });
    }
  } catch (err) {
    throw isStop(deps, err) ? stopped() : err;
  } finally {
    if (deps.signal.aborted) io.info(`Stopped: ${shown} change${shown === 1 ? '' : 's'} shown.`);
  }
}

/** Lines for people (a terminal, or --format table), else NDJSON; other formats are refused. */
function outputForm(deps: Deps): boolean {
  const asked = deps.flags.json ? 'json' : deps.flags.format;
  if (asked === undefined) return deps.io.isStdoutTTY;
  if (asked === 'table') return true;
  if (asked === 'ndjson') return false;
  throw new UsageError(
    `ws records watch writes a stream of changes, one at a time: --format ${asked} cannot hold it.`,
    'Piped, it writes NDJSON (one JSON object per line, --format ndjson); at a terminal, one line per change (--format table).',
  );
}

function checkedFields(fields: string[] | undefined): string[] | undefined {
  if (fields === undefined) return undefined;
  const unknown = fields.filter((f) => !FIELDS.includes(f));
  if (unknown.length > 0) {
    throw new UsageError(
      `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `"${f}"`).join(', ')}.`,
      `Available fields: ${FIELDS.join(', ')}.`,
    );
  }
  return fields;
}

function pick(event: WatchEvent, fields: string[]): Record<string, unknown> {
  const record = event as unknown as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f, record[f] ?? null]));
}

/** --poll: a look every --interval seconds (at once when a look took longer). */
async function poll(
  opts: WatchOptions,
  deps: Deps,
  type: RecordType | undefined,
  filtered: boolean,
  show: (event: WatchEvent) => void,
): Promise<never> {
  const { io } = deps;
  const types = type === undefined ? RECORD_TYPES : [type];
  const plans = [];
  for (const t of types) {
    plans.push(
      await planRead(
        { where: opts.where, or: opts.or, filterJson: opts.filterJson, deleted: false },
        deps,
        t,
      ),
    );
  }
  const poller = new RecordsPoller(await deps.client(), plans, filtered, deps.signal);
  const intervalMs = (opts.interval ?? DEFAULT_INTERVAL_S) * 1000;
  let warnedSlow = false;
  for (let look = 0; ; look++) {
    const started = Date.now();
    const before = poller.requests;
    for (const event of await poller.poll(() => deps.clock.now())) show(event);
    const spent = poller.requests - before;
    const took = Date.now() - started;
    if (look === 0) {
      io.info(
        `Watching ${poller.watched} record${poller.watched === 1 ? '' : 's'} by reading them every ${intervalMs / 1000} s (${spent} request${spent === 1 ? '' : 's'} a look, within the profile's rate limit)… Press Ctrl-C to stop.`,
      );
    } else if (took > intervalMs && !warnedSlow) {
      warnedSlow = true;
      io.warn(
        `a look takes ${(took / 1000).toFixed(1)} s (${spent} requests), more than --interval: looks follow each other without a pause.`,
      );
    }
    await sleep(Math.max(0, intervalMs - took), deps.signal);
  }
}
