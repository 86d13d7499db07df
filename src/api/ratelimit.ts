// The rate limiter shared by every request of the process. The hosted service allows an API
// key N requests per second over a sliding window: N requests in ANY one second, counted as
// they arrive. The limiter keeps N places; a request takes a place before it is sent and
// gives it back one window after its answer has come (or it failed). So between the arrival
// of any request and that of the request which reuses its place, a whole window passes
// whatever the network, the server or the timers do: the answer comes after the arrival,
// and the next request leaves after the place is free. Over any window at most N arrive.
//
// A place is never taken early: after each wait the clock is read again (a timer may fire
// a little before its time), and callers are served in order.
//
// Processes do not share their places: a command run after another (a script's next line)
// that meets the places an earlier command left busy gets a 429 and waits for
// its Retry-After (client.ts), which costs a second at most; measured, 200 one-request
// commands run in a loop against a sandbox at --rate-limit 10 all succeed
// (bench/ratelimit.mjs --loop).

import { monotonicMs, sleep } from '../util/time.ts';

/** Call when the request's answer has arrived (or the request failed); safe to call twice. */
export type Release = () => void;

const NOTHING: Release = () => {};

export class RateLimiter {
  /** Per place: when it is free again; Infinity while its request is in flight. */
  private readonly freeAt: number[];
  private readonly windowMs: number;
  private queue: Promise<unknown> = Promise.resolve();
  /** Woken when a request in flight gives its place back. */
  private released: (() => void) | undefined;

  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(
    readonly perSecond: number,
    clock: {
      /** A monotonic clock in ms. */
      now?: () => number;
      sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
    } = {},
  ) {
    this.now = clock.now ?? monotonicMs;
    this.sleep = clock.sleep ?? sleep;
    // N places over one second; a rate below 1 (0.5 a second) is one place over 2 s.
    const places = perSecond > 0 ? Math.max(1, Math.floor(perSecond)) : 0;
    this.freeAt = new Array<number>(places).fill(Number.NEGATIVE_INFINITY);
    this.windowMs = places > 0 ? (places * 1000) / perSecond : 0;
  }

  /**
   * Resolves when the caller may send one request, with the function to call once its answer
   * has arrived. Callers are served in order. A rate of 0 (or less) means no limit.
   */
  take(signal?: AbortSignal): Promise<Release> {
    if (this.freeAt.length === 0) return Promise.resolve(NOTHING);
    const turn = this.queue.then(() => this.acquire(signal));
    this.queue = turn.catch(() => {});
    return turn;
  }

  private async acquire(signal?: AbortSignal): Promise<Release> {
    for (;;) {
      signal?.throwIfAborted();
      let place = 0;
      for (let i = 1; i < this.freeAt.length; i++) {
        if (this.freeAt[i]! < this.freeAt[place]!) place = i;
      }
      const at = this.freeAt[place]!;
      const t = this.now();
      if (at <= t) {
        this.freeAt[place] = Number.POSITIVE_INFINITY;
        let given = false;
        return () => {
          if (given) return;
          given = true;
          this.freeAt[place] = this.now() + this.windowMs;
          const wake = this.released;
          this.released = undefined;
          wake?.();
        };
      }
      if (at === Number.POSITIVE_INFINITY) await this.nextRelease(signal);
      else await this.sleep(at - t, signal);
    }
  }

  private nextRelease(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const previous = this.released;
      this.released = () => {
        signal?.removeEventListener('abort', onAbort);
        previous?.();
        resolve();
      };
    });
  }
}
