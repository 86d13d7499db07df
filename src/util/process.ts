// Whether a process still runs, by its id: a detached sandbox's pid file, a `ws webhooks
// listen` webhook left behind by a process that ended.

/** True while the process runs (EPERM: it runs, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
