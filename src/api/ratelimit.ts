// A token bucket shared by every request of the process: requests wait their turn
// so that the profile's rate (requests per second) is never exceeded.
import { monotonicMs, sleep } from '../util/time.ts';

export class TokenBucket {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly ratePerSecond: number,
    readonly burst = 1,
    private readonly now: () => number = monotonicMs,
  ) {
    this.tokens = burst;
    this.last = this.now();
  }

  /** Resolves when the caller may send one request. Callers are served in order. */
  take(signal?: AbortSignal): Promise<void> {
    if (!(this.ratePerSecond > 0)) return Promise.resolve();
    const turn = this.queue.then(() => this.acquire(signal));
    this.queue = turn.catch(() => {});
    return turn;
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) * this.ratePerSecond) / 1000);
    this.last = t;
  }

  private async acquire(signal?: AbortSignal): Promise<void> {
    this.refill();
    if (this.tokens < 1) {
      await sleep(((1 - this.tokens) * 1000) / this.ratePerSecond, signal);
      this.refill();
    }
    this.tokens = Math.max(0, this.tokens - 1);
  }
}
