// How a sandbox serves webhooks, from its start options (`startSandbox({ webhooks })`,
// `ws sandbox start --webhooks-preview --strict-webhook-urls --webhook-timeout
// --webhook-retry-delays`): the hosted gateway's preview 403 or the real routes, which
// receivers it may reach, and the timing of attempts. Checked once, when the sandbox starts.

/** A host's addresses, as a resolver finds them (tests give their own; default: the system's). */
export type Resolver = (hostname: string) => Promise<readonly string[]>;

export interface WebhookOptions {
  /** Answer every webhook route with the gateway's 403, as the hosted service does today. */
  preview?: boolean;
  /**
   * Refuse loopback receivers too, as the hosted service does (default false: a sandbox
   * delivers to receivers on 127.0.0.0/8 and ::1, so a developer's own machine works).
   */
  strictAddresses?: boolean;
  /** How long an attempt may take, connection to the end of the answer; default 10,000 ms. */
  timeoutMs?: number;
  /** Base delays before the first and the second retry; default [30,000, 120,000] ms. */
  retryDelaysMs?: readonly number[];
  /** Finds a host's addresses; default the system resolver (dns.lookup, every address). */
  resolve?: Resolver;
  /** Randomness of the retry jitter (tests); default Math.random. */
  random?: () => number;
}

export interface WebhookSettings {
  preview: boolean;
  strictAddresses: boolean;
  timeoutMs: number;
  retryDelaysMs: readonly [number, number];
  resolve: Resolver | undefined;
  random: () => number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRY_DELAYS_MS: readonly [number, number] = [30_000, 120_000];
/** Longest attempt timeout and retry delay accepted: one hour. */
export const MAX_WEBHOOK_MS = 3_600_000;

/** The settings `options` ask for, with the defaults filled in; RangeError when invalid. */
export function webhookSettings(options: WebhookOptions = {}): WebhookSettings {
  const problems: string[] = [];
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!isDuration(timeoutMs) || timeoutMs < 1) {
    problems.push(`webhooks.timeoutMs must be 1 to ${MAX_WEBHOOK_MS} ms, got ${timeoutMs}`);
  }
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (!Array.isArray(delays) || delays.length !== 2 || !delays.every(isDuration)) {
    problems.push(
      `webhooks.retryDelaysMs must be two delays of 0 to ${MAX_WEBHOOK_MS} ms (before the first and the second retry), got ${JSON.stringify(delays)}`,
    );
  }
  if (options.resolve !== undefined && typeof options.resolve !== 'function') {
    problems.push('webhooks.resolve must be a function');
  }
  if (options.random !== undefined && typeof options.random !== 'function') {
    problems.push('webhooks.random must be a function returning numbers in [0, 1)');
  }
  if (problems.length > 0) {
    throw new RangeError(`Invalid sandbox options: ${problems.join('; ')}`);
  }
  return {
    preview: options.preview === true,
    strictAddresses: options.strictAddresses === true,
    timeoutMs,
    retryDelaysMs: [delays[0]!, delays[1]!],
    resolve: options.resolve,
    random: options.random ?? Math.random,
  };
}

function isDuration(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_WEBHOOK_MS
  );
}
