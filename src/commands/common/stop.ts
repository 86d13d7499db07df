// How the commands that run until stopped (`ws webhooks listen`, `ws deliveries tail`, a
// foreground `ws sandbox start`) end: Ctrl-C or SIGTERM is their normal end. They say what
// they did themselves, then exit 130 as `tail -f` does, without an error message.
import { ExitCode, InterruptedError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';

/** The exit of a command stopped on purpose: 130, nothing more printed. */
export function stopped(): WsError {
  return new WsError('Stopped.', {
    exitCode: ExitCode.interrupted,
    code: 'interrupted',
    silent: true,
  });
}

/** Whether `err` is the command's own Ctrl-C (or SIGTERM). */
export function isStop(deps: Deps, err: unknown): boolean {
  return deps.signal.aborted && (err === deps.signal.reason || err instanceof InterruptedError);
}

/** Resolves never; rejects with stopped() when the command is interrupted. */
export function stopSignal(deps: Deps): Promise<never> {
  return new Promise<never>((_, reject) => {
    const stop = () => reject(stopped());
    if (deps.signal.aborted) stop();
    else deps.signal.addEventListener('abort', stop, { once: true });
  });
}
