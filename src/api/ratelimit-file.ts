// Where a key's rate-limit places are kept between commands (see ratelimit.ts): one small
// JSON file per service and key in <config dir>/cache/, holding only wall-clock times. The
// file is named by the base URL, the team and the key's last four characters (never the
// key). A file that cannot be read or written only costs what it saves: nothing fails.
// Commands run in parallel with the same key share the file: each merges its busy places
// into what the file holds, under the file's lock (util/file-lock.ts), so none is dropped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withFileLock, writeFileAtomic } from '../util/file-lock.ts';
import { fnv1a } from '../util/hash.ts';

export function limiterFile(
  configDir: string,
  baseUrl: string,
  teamId: string,
  apiKey: string,
): string {
  const name = fnv1a(`${baseUrl.replace(/\/+$/, '')}\n${teamId}\n${apiKey.slice(-4)}`);
  return join(configDir, 'cache', `ratelimit-${name}.json`);
}

/** The saved free times, or none when the file is missing or not what ws wrote. */
export function readLimiterFile(file: string): number[] {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { busy_until?: unknown };
    return Array.isArray(data.busy_until)
      ? data.busy_until.filter((t): t is number => typeof t === 'number')
      : [];
  } catch {
    return [];
  }
}

/**
 * Adds this command's busy places to the file: the latest `places` times still ahead of now
 * (`wallNow`) of the file's and these are kept.
 */
export async function writeLimiterFile(
  file: string,
  times: readonly number[],
  places: number,
  wallNow: number = Date.now(),
): Promise<void> {
  try {
    await withFileLock(file, () => {
      const merged = [...readLimiterFile(file), ...times]
        .filter((t) => t > wallNow)
        .sort((a, b) => b - a)
        .slice(0, Math.max(1, Math.floor(places)));
      writeFileAtomic(file, `${JSON.stringify({ busy_until: merged })}\n`);
    });
  } catch {
    // A read-only configuration directory: the next command may meet a 429 and retry.
  }
}
