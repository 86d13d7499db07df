// The sandbox clock: real time plus an offset that only moves forward. Everything in the
// sandbox that depends on time (timestamps, the idempotency cache's 24 hours, rate-limit
// windows, automation waits) reads this clock, so tests can move time instead of waiting
// for it. `POST /__sandbox/clock/advance` announces the move on the event spine
// (`clockEvents`), so work that falls due by then (waiting automation runs) proceeds before
// the advance answers.

import { defineEvent } from './events.ts';

/** The sandbox clock moved forward by the control endpoint. */
export interface ClockAdvanced {
  readonly fromMs: number;
  readonly toMs: number;
}

export const clockEvents = defineEvent<ClockAdvanced>('clock');

export class Clock {
  private offset = 0;
  private lastIso = { ms: Number.NaN, text: '' };
  private readonly realNow: () => number;
  /** Told when advance() moves the clock (each team's store of a sandbox shares it). */
  private readonly listeners = new Set<() => void>();

  constructor(options: { realNow?: () => number; onChange?: () => void } = {}) {
    this.realNow = options.realNow ?? Date.now;
    if (options.onChange !== undefined) this.listeners.add(options.onChange);
  }

  /** Call `listener` each time advance() moves the clock; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sandbox time in epoch milliseconds. */
  nowMs(): number {
    return this.realNow() + this.offset;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Sandbox time (or the instant `ms`) as an ISO-8601 string. */
  iso(ms: number = this.nowMs()): string {
    // Records written in the same millisecond share the text (imports write thousands).
    if (ms !== this.lastIso.ms) this.lastIso = { ms, text: new Date(ms).toISOString() };
    return this.lastIso.text;
  }

  /** How far the sandbox clock runs ahead of real time, in milliseconds. */
  get offsetMs(): number {
    return this.offset;
  }

  /** Move the clock forward. */
  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new RangeError(
        `The clock only moves forward: seconds must be a finite number >= 0, got ${seconds}`,
      );
    }
    if (seconds === 0) return;
    this.offset += Math.round(seconds * 1000);
    for (const listener of this.listeners) listener();
  }

  /** Set the offset directly (restoring a snapshot, or reset to 0). */
  setOffsetMs(offsetMs: number): void {
    if (!Number.isFinite(offsetMs))
      throw new RangeError(`Clock offset must be finite, got ${offsetMs}`);
    this.offset = offsetMs;
  }
}
