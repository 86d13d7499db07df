// The sandbox: a local, stateful emulator of the workspace API. The CLI reaches it only
// through a lazy import of this module; the sandbox never imports the CLI.

import { launchSandbox, type RunningSandbox, type SandboxOptions } from './sandbox.ts';

export { OBJECT_TYPES, type ObjectType } from './object-types.ts';
export { type RecordsModel, recordsOf } from './resources/records/model.ts';
export type { StoredRecord } from './resources/records/types.ts';
export type { RunningSandbox, SandboxOptions } from './sandbox.ts';
export type { Store } from './store.ts';

/** Start a sandbox on `options.host`:`options.port` (default 127.0.0.1, a free port). */
export function startSandbox(options?: SandboxOptions): Promise<RunningSandbox> {
  return launchSandbox(options);
}
