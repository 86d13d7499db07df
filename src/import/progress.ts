// The progress line of an import, on stderr: rows read, sent, processed and failed, the
// rate, and the time left (estimated from the bytes read of the file's size when the
// number of rows is not known in advance, which it never is for a stream); redrawn by a
// ticker while the import runs.
import type { Progress } from '../io/streams.ts';
import { thousands } from '../output/plural.ts';
import { cutToWidth, displayWidth } from '../output/width.ts';
import { formatDuration } from '../util/time.ts';

export interface ProgressSnapshot {
  label: string;
  read: number;
  sent: number;
  processed: number;
  failed: number;
  elapsedMs: number;
  bytesRead: number;
  size: number | undefined;
  dryRun: boolean;
}

const n = thousands;

/** Rows per second over the elapsed time. */
export function rate(rows: number, elapsedMs: number): number {
  return elapsedMs <= 0 ? 0 : Math.round((rows * 1000) / elapsedMs);
}

/** Time left, from the share of the file read so far; undefined when it cannot be told. */
export function timeLeft(s: ProgressSnapshot): number | undefined {
  if (s.size === undefined || s.size === 0 || s.bytesRead === 0 || s.read === 0) return undefined;
  const share = Math.min(1, s.bytesRead / s.size);
  const total = s.read / share;
  // `read` runs ahead of the rows sent and processed: the API's pace is what is left.
  const done = s.dryRun ? s.read : s.processed;
  const speed = done / Math.max(s.elapsedMs, 1);
  if (speed <= 0) return undefined;
  return Math.max(0, (total - done) / speed);
}

/**
 * The progress line, in at most `width` columns when given (a terminal's, less the
 * spinner's): a long file name is cut first, then the time left and the rate are left out;
 * the counts stay.
 */
export function progressLine(s: ProgressSnapshot, width?: number): string {
  const parts = [`${n(s.read)} read`];
  if (!s.dryRun) parts.push(`${n(s.sent)} sent`, `${n(s.processed)} processed`);
  parts.push(`${n(s.failed)} failed`);
  const counts = parts.length;
  const done = s.dryRun ? s.read : s.processed;
  parts.push(`${n(rate(done, s.elapsedMs))} rows/s`);
  const left = timeLeft(s);
  if (left !== undefined && s.elapsedMs > 1000) parts.push(`${formatDuration(left)} left`);
  const verb = s.dryRun ? 'Checking' : 'Importing';
  const line = (label: string) => `${verb} ${label}: ${parts.join(' · ')}`;
  if (width === undefined || displayWidth(line(s.label)) <= width) return line(s.label);
  const LEAST_LABEL = 12;
  for (;;) {
    const room = width - displayWidth(line(''));
    if (room >= LEAST_LABEL || parts.length === counts) {
      return line(cutToWidth(s.label, Math.max(LEAST_LABEL, room)));
    }
    parts.pop();
  }
}

/** How often the progress line is redrawn. */
const TICK_MS = 500;

export interface Ticker {
  /** Stop redrawing and take the line away (again: nothing happens). */
  stop(): void;
}

/**
 * Redraw `progress` with the figures `snapshot` gives (none yet: skipped) every half second
 * until stopped, fitted to the room its line has on a terminal. With `changesOnly` (plain
 * lines in a log, not a spinner), figures that did not move since the last ones are not
 * given again: a log gets a line when rows moved, not one that repeats a stalled count (a
 * service that never answers). The timer does not keep the process alive.
 */
export function startTicker(
  progress: Progress,
  snapshot: () => ProgressSnapshot | undefined,
  opts: { changesOnly?: boolean } = {},
): Ticker {
  let running = true;
  let last = '';
  const timer = setInterval(() => {
    const s = running ? snapshot() : undefined;
    if (!s) return;
    const figures = `${s.read} ${s.sent} ${s.processed} ${s.failed}`;
    if (opts.changesOnly && figures === last) return;
    last = figures;
    progress.update(progressLine(s, progress.width?.()));
  }, TICK_MS);
  timer.unref();
  return {
    stop() {
      if (!running) return;
      running = false;
      clearInterval(timer);
      progress.stop();
    },
  };
}
