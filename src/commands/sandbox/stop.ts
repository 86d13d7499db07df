import { rmSync } from 'node:fs';
import { WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { isAlive } from '../../util/process.ts';
import { sleep } from '../../util/time.ts';
import { pidPath, readPidFile } from './shared.ts';

export type StopOptions = Record<string, never>;

export async function run(_opts: StopOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const info = readPidFile(store.dir);
  if (!info) {
    deps.io.info('No detached sandbox is running.');
    if (deps.format === 'json') deps.io.println(JSON.stringify({ stopped: false }));
    return;
  }
  process.kill(info.pid, 'SIGTERM');
  // The sandbox writes its data file on SIGTERM before it exits.
  for (let waited = 0; isAlive(info.pid); waited += 100) {
    if (waited >= 15_000) {
      throw new WsError(`The sandbox (pid ${info.pid}) did not stop within 15 seconds.`, {
        hint: `Look at ${info.log}; \`kill -9 ${info.pid}\` stops it without saving.`,
      });
    }
    await sleep(100);
  }
  rmSync(pidPath(store.dir), { force: true });
  deps.io.success(`Stopped the sandbox at ${info.url} (pid ${info.pid}).`);
  if (deps.format === 'json')
    deps.io.println(JSON.stringify({ stopped: true, pid: info.pid, url: info.url }));
}
