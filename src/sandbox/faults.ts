// Fault injection, for clients to prove their retries, timeouts and rate-limit handling:
//   latencyMs        delay before every API answer
//   failRate         before anything else: 500, 502, 503 or a destroyed socket, equally likely
//   failAfterCommit  on mutating methods: do the work, then destroy the socket unanswered
//   rateLimit        N requests per second per API key, then 429 with Retry-After
//   maxBodyBytes     request bodies over this many bytes are answered 413 (default 10 MiB:
//                    a smaller one plays a service that takes less, to test a client's split)
// Control endpoints (/__sandbox/...) are never subject to any of them.

import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from './clock.ts';
import { SandboxError } from './errors.ts';

export interface FaultSettings {
  failRate: number;
  failAfterCommit: number;
  latencyMs: number;
  rateLimit: number;
  maxBodyBytes: number;
}

/** The largest request body the sandbox takes, as the API documents none (see server.ts). */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

export type Failure =
  | { kind: 'error'; error: SandboxError }
  | { kind: 'destroy'; reason: 'fail_rate' | 'fail_after_commit' };

export interface RateDecision {
  allowed: boolean;
  /** x-ratelimit-* headers (and Retry-After when refused); empty when rate limiting is off. */
  headers: Record<string, string>;
}

/** Largest latency accepted, so a typo cannot hang a client for hours. */
export const MAX_LATENCY_MS = 600_000;

export interface FaultProblem {
  /** snake_case name of the setting, as the control endpoint spells it. */
  name: string;
  message: string;
  /** 'type', 'minimum' or 'maximum'. */
  code: string;
}

const SNAKE: Record<keyof FaultSettings, string> = {
  failRate: 'fail_rate',
  failAfterCommit: 'fail_after_commit',
  latencyMs: 'latency_ms',
  rateLimit: 'rate_limit',
  maxBodyBytes: 'max_body_bytes',
};

const RULES: Record<
  keyof FaultSettings,
  { min?: number; max: number; integer: boolean; what: string }
> = {
  failRate: { max: 1, integer: false, what: 'a number from 0 to 1' },
  failAfterCommit: { max: 1, integer: false, what: 'a number from 0 to 1' },
  latencyMs: {
    max: MAX_LATENCY_MS,
    integer: false,
    what: `milliseconds from 0 to ${MAX_LATENCY_MS}`,
  },
  rateLimit: {
    max: Number.MAX_SAFE_INTEGER,
    integer: true,
    what: 'a whole number of requests per second (0 = off)',
  },
  maxBodyBytes: {
    min: 1024,
    max: DEFAULT_MAX_BODY_BYTES,
    integer: true,
    what: `a whole number of bytes from 1024 to ${DEFAULT_MAX_BODY_BYTES}`,
  },
};

/**
 * Problems with fault settings; empty when all are valid. Messages name each setting as
 * `naming` spells it: 'snake' for the control endpoint, 'camel' for startSandbox options.
 */
export function checkFaultSettings(
  settings: Partial<Record<keyof FaultSettings, unknown>>,
  naming: 'snake' | 'camel' = 'snake',
): FaultProblem[] {
  const problems: FaultProblem[] = [];
  for (const key of Object.keys(RULES) as (keyof FaultSettings)[]) {
    const value = settings[key];
    if (value === undefined) continue;
    const rule = RULES[key];
    const label = naming === 'snake' ? SNAKE[key] : key;
    let code: string | undefined;
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      (rule.integer && !Number.isInteger(value))
    ) {
      code = 'type';
    } else if (value < (rule.min ?? 0)) {
      code = 'minimum';
    } else if (value > rule.max) {
      code = 'maximum';
    }
    if (code !== undefined) {
      problems.push({
        name: SNAKE[key],
        code,
        message: `${label} must be ${rule.what}, got ${show(value)}`,
      });
    }
  }
  return problems;
}

function show(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
}

/**
 * One key's requests of the last second, as the hosted service counts them: a sliding
 * window, so at most `limit` requests are let through in ANY one second.
 */
interface Window {
  /** When the requests let through arrived, oldest first (at most `limit`). */
  arrivals: number[];
}

const WINDOW_MS = 1000;
/** Forget idle rate-limit windows once this many keys have been seen. */
const MAX_WINDOWS = 1000;

export class Faults {
  private current: FaultSettings;
  private readonly random: () => number;
  private readonly clock: Clock;
  private readonly windows = new Map<string, Window>();

  constructor(settings: FaultSettings, random: () => number, clock: Clock) {
    const problems = checkFaultSettings(settings, 'camel');
    if (problems.length > 0) {
      throw new RangeError(`Invalid sandbox options: ${problems.map((p) => p.message).join('; ')}`);
    }
    this.current = { ...settings };
    this.random = random;
    this.clock = clock;
  }

  get settings(): Readonly<FaultSettings> {
    return this.current;
  }

  /** Change some settings at run time (validated with checkFaultSettings first). */
  update(patch: Partial<FaultSettings>): void {
    const problems = checkFaultSettings(patch);
    if (problems.length > 0) throw new RangeError(problems.map((p) => p.message).join('; '));
    this.current = { ...this.current, ...definedOnly(patch) };
  }

  /** The snake_case form used by the control endpoint. */
  toJSON(): Record<string, number> {
    return {
      fail_rate: this.current.failRate,
      fail_after_commit: this.current.failAfterCommit,
      latency_ms: this.current.latencyMs,
      rate_limit: this.current.rateLimit,
      max_body_bytes: this.current.maxBodyBytes,
    };
  }

  /** A failure to answer with instead of handling the request, or undefined. */
  pickFailure(): Failure | undefined {
    const rate = this.current.failRate;
    if (rate <= 0 || this.random() >= rate) return undefined;
    const which = Math.min(3, Math.floor(this.random() * 4));
    const details = { fault: 'fail_rate' };
    switch (which) {
      case 0:
        return {
          kind: 'error',
          error: new SandboxError(
            500,
            'internal_error',
            'Simulated internal error (sandbox fault injection: fail_rate).',
            undefined,
            { details },
          ),
        };
      case 1:
        return {
          kind: 'error',
          error: new SandboxError(
            502,
            'bad_gateway',
            'Simulated bad gateway (sandbox fault injection: fail_rate).',
            undefined,
            { details },
          ),
        };
      case 2:
        return {
          kind: 'error',
          error: new SandboxError(
            503,
            'service_unavailable',
            'Simulated service unavailable (sandbox fault injection: fail_rate).',
            undefined,
            { details, headers: { 'retry-after': '1' } },
          ),
        };
      default:
        return { kind: 'destroy', reason: 'fail_rate' };
    }
  }

  /** After a mutating request did its work: should its connection be dropped unanswered? */
  shouldFailAfterCommit(): boolean {
    const rate = this.current.failAfterCommit;
    return rate > 0 && this.random() < rate;
  }

  /** Count one request of `bucket` (the presented API key) against the rate limit. */
  takeRateLimit(bucket: string): RateDecision {
    const limit = this.current.rateLimit;
    if (limit <= 0) return { allowed: true, headers: {} };
    const now = this.clock.nowMs();
    const id = createHash('sha256').update(bucket).digest('base64url');
    let window = this.windows.get(id);
    if (window === undefined) {
      if (this.windows.size >= MAX_WINDOWS) this.forgetIdle(now);
      window = { arrivals: [] };
      this.windows.set(id, window);
    }
    const arrivals = window.arrivals;
    // Forget what left the window (and anything "later" than now: the clock was set back).
    while (arrivals.length > 0 && (arrivals[0]! <= now - WINDOW_MS || arrivals[0]! > now)) {
      arrivals.shift();
    }
    const allowed = arrivals.length < limit;
    if (allowed) arrivals.push(now);
    // Seconds until the oldest request leaves the window and a place is free again.
    const oldest = arrivals[0] ?? now;
    const resetSeconds = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - arrivals.length)),
      'x-ratelimit-reset': String(resetSeconds),
    };
    if (!allowed) headers['retry-after'] = String(resetSeconds);
    return { allowed, headers };
  }

  /** Wait latencyMs (ends early when `signal` aborts, e.g. on close). */
  async delay(signal: AbortSignal): Promise<void> {
    const ms = this.current.latencyMs;
    if (ms <= 0 || signal.aborted) return;
    try {
      await sleep(ms, undefined, { signal });
    } catch {
      // Aborted: the server is closing; the caller finds the socket gone.
    }
  }

  private forgetIdle(now: number): void {
    for (const [id, window] of this.windows) {
      const last = window.arrivals.at(-1);
      if (last === undefined || now >= last + WINDOW_MS) this.windows.delete(id);
    }
  }
}

function definedOnly(patch: Partial<FaultSettings>): Partial<FaultSettings> {
  const out: Partial<FaultSettings> = {};
  for (const [k, v] of Object.entries(patch) as [keyof FaultSettings, number | undefined][]) {
    if (v !== undefined) out[k] = v;
  }
  return out;
}
