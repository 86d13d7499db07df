import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../../util/process.ts';

/** What a detached sandbox leaves in the config directory. */
export interface PidFile {
  pid: number;
  url: string;
  team_id: string;
  started_at: string;
  log: string;
  data?: string | undefined;
}

export function pidPath(dir: string): string {
  return join(dir, 'sandbox.pid.json');
}

export function logPath(dir: string): string {
  return join(dir, 'sandbox.log');
}

/** The running detached sandbox, if any; a stale pid file is removed. */
export function readPidFile(dir: string): PidFile | undefined {
  const path = pidPath(dir);
  if (!existsSync(path)) return undefined;
  let info: PidFile;
  try {
    info = JSON.parse(readFileSync(path, 'utf8')) as PidFile;
  } catch {
    rmSync(path, { force: true });
    return undefined;
  }
  if (!Number.isInteger(info.pid) || !isAlive(info.pid)) {
    rmSync(path, { force: true });
    return undefined;
  }
  return info;
}

export async function health(
  url: string,
  signal?: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  try {
    const res = await fetch(`${url}/__sandbox/health`, {
      signal: signal ?? AbortSignal.timeout(3000),
    });
    if (!res.ok) return undefined;
    return (await res.json()) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
