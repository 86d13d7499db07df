// One lock around every read-modify-write of a file in ws's configuration directory
// (profiles, the default profile, the sandbox's profile, the definitions cache; the
// rate-limit log is appended to, which needs none). Commands run in parallel (CI jobs sharing a runner, `xargs -P`): without
// a lock, two processes read the same file, each adds its change, and the last rename wins,
// dropping the other's change although both said it was saved.
//
// The lock is proper-lockfile's: a directory `<file>.lock` made with mkdir (atomic on every
// file system, NFS included), its mtime refreshed while held; a lock left by a killed
// process is stale once its mtime is older than STALE_MS and is then taken over. Waiting
// processes retry with backoff for up to about WAIT_MS. It loads only when a command
// writes a configuration file, never on start-up.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { WsError } from '../errors.ts';

/** A lock whose holder has not refreshed it for this long is stale (its process died). */
export const STALE_MS = 10_000;
/** About how long a command waits for a lock held by another before giving up. */
export const WAIT_MS = 30_000;

/**
 * Runs `change` while holding the lock of `file` (which need not exist yet). The directory
 * is made (mode 0700) when missing.
 */
export async function withFileLock<T>(file: string, change: () => T | Promise<T>): Promise<T> {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // A CommonJS package: its functions are on the default export once bundled.
  const { default: lockfile } = await import('proper-lockfile');
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      realpath: false,
      stale: STALE_MS,
      update: STALE_MS / 4,
      // 120 tries, 10 ms growing to 250 ms apart: about WAIT_MS in all.
      retries: { retries: 120, factor: 1.3, minTimeout: 10, maxTimeout: 250, randomize: true },
      // A lock taken over by another process (this one stalled past STALE_MS): the write
      // below is still atomic; the worst case is the lost update the lock exists to avoid.
      onCompromised: () => {},
    });
  } catch (err) {
    throw new WsError(`Cannot lock ${file}: ${(err as Error).message}`, {
      hint: `Another ws command may be holding it; if none is running, remove ${file}.lock.`,
    });
  }
  try {
    return await change();
  } finally {
    await release().catch(() => {});
  }
}

/**
 * Replaces `file` with `text` atomically: written to a temporary file beside it, flushed to
 * disk, then renamed over it, so a reader sees the old file or the new one, never half.
 */
export function writeFileAtomic(file: string, text: string, mode = 0o600): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    const fd = openSync(tmp, 'w', mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
