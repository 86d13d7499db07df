// The realtime stream's bounds: how long a ticket lives, how many changes the feed keeps for
// readers that come back, and how much one reader may hold the sandbox (its send buffer, how
// far behind it may fall while that buffer is full). `startSandbox({ realtime })` changes
// them (tests make them small).

import { DEFAULT_WINDOW } from '../../changes.ts';

export interface RealtimeOptions {
  /** Seconds a ticket may wait to be used (once). Default 60. */
  ticketTtlSeconds?: number;
  /** Changes the feed keeps for a reader that reconnects (at least). Default 10,000. */
  windowSize?: number;
  /** Bytes queued to one reader before the sandbox stops sending to it. Default 256 KiB. */
  highWaterBytes?: number;
  /**
   * A reader whose buffer is full and that is this many changes behind the newest is told
   * it fell behind and disconnected (it resumes from its position). Default half the window.
   */
  lagLimit?: number;
  /** A reader whose buffer stays full this long (ms) is told so too. Default 30,000. */
  stallMs?: number;
  /** A heartbeat (with the reader's position) and a ping this often (ms). Default 15,000. */
  heartbeatMs?: number;
}

export type RealtimeSettings = Required<RealtimeOptions>;

/** Tickets waiting to be used, at most; the oldest go first. */
export const MAX_TICKETS = 1_000;

export function realtimeSettings(options: RealtimeOptions = {}): RealtimeSettings {
  const windowSize = options.windowSize ?? DEFAULT_WINDOW;
  return {
    ticketTtlSeconds: options.ticketTtlSeconds ?? 60,
    windowSize,
    highWaterBytes: options.highWaterBytes ?? 256 * 1024,
    lagLimit: options.lagLimit ?? Math.max(1, Math.floor(windowSize / 2)),
    stallMs: options.stallMs ?? 30_000,
    heartbeatMs: options.heartbeatMs ?? 15_000,
  };
}
