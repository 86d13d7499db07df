// How `ws props diff` and `ws automations diff` end when the workspace differs from the file:
// exit 1, as `kubectl diff`. For people, two plain lines on stderr (what differs, and the
// command that applies it), not an error; for scripts (--json, --format ndjson), the JSON
// error form with code `differences` and the command as its hint, nothing else on stderr.
import { ExitCode, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';

/** True when stderr carries only JSON: informational lines are left out. */
export function machineReadable(deps: Deps): boolean {
  return deps.format === 'json' || deps.format === 'ndjson';
}

/** The workspace differs from the file: `message` says how, `apply` is the command. */
export function differencesFound(deps: Deps, message: string, apply: string): never {
  const hint = `Apply it with \`${apply}\`.`;
  if (machineReadable(deps)) {
    throw new WsError(message, { exitCode: ExitCode.error, code: 'differences', hint });
  }
  deps.io.info(message);
  deps.io.info(hint);
  throw new WsError(message, { exitCode: ExitCode.error, code: 'differences', silent: true });
}

/** Nothing differs: said to people, not to scripts (the plan says it). */
export function noDifferences(deps: Deps, file: string): void {
  if (!machineReadable(deps)) deps.io.info(`No differences: the workspace matches ${file}.`);
}
