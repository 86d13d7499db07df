/** Wait `ms` milliseconds; rejects with an AbortError when the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? abortError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? abortError());
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(): Error {
  const e = new Error('The operation was aborted.');
  e.name = 'AbortError';
  return e;
}

/** "1.2s", "350ms", "2m 05s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m}m ${String(s).padStart(2, '0')}s`;
}

/**
 * Milliseconds on a monotonic clock. Same as `performance.now()` up to its origin, without
 * loading node:perf_hooks (about ten built-in modules) on the start-up path of a request.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/**
 * A duration in milliseconds: `30m`, `2h`, `7d`, `1w`, `1h30m` (units s, m, h, d, w, any
 * case; `0s` is 0); undefined when the text is not one. The reader of --since, of other flags
 * that take a duration (`ws automations create --wait 2h`), and of automation files' waits.
 */
export function parseDuration(text: string): number | undefined {
  if (!/^(\d+[smhdw])+$/i.test(text)) return undefined;
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)([smhdw])/gi))
    ms += Number(n) * UNIT_MS[unit!.toLowerCase()]!;
  return Number.isSafeInteger(ms) ? ms : undefined;
}
