// Where a key's rate-limit places are kept between commands (see ratelimit.ts): one small
// JSON file per service and key in <config dir>/cache/, holding only wall-clock times. The
// file is named by the base URL, the team and the key's last four characters (never the
// key). A file that cannot be read or written only costs what it saves: nothing fails.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

export function writeLimiterFile(file: string, times: readonly number[]): void {
  try {
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ busy_until: times })}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // A read-only configuration directory: the next command may meet a 429 and retry.
  }
}
