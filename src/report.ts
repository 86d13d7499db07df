// The one place that turns an error into what the user sees and an exit code.

import { redactText } from './api/redact.ts';
import { ApiError, ExitCode, isAbortError, WsError } from './errors.ts';
import type { IOStreams } from './io/streams.ts';

export interface ErrorReportOptions {
  json: boolean;
  debug: boolean;
  /** Secrets that must not appear even inside a server's message. */
  secrets?: readonly string[];
}

export function exitCodeOf(err: unknown): number {
  if (err instanceof WsError) return err.exitCode;
  if (isAbortError(err)) return ExitCode.interrupted;
  return ExitCode.error;
}

export function reportError(io: IOStreams, err: unknown, opts: ErrorReportOptions): number {
  const code = exitCodeOf(err);
  if (err instanceof WsError && err.silent) return code;
  const clean = (t: string) => redactText(t, opts.secrets ?? []);
  const known = err instanceof WsError;
  const message = known
    ? err.message
    : isAbortError(err)
      ? 'Interrupted.'
      : `Unexpected error: ${err instanceof Error ? err.message : String(err)}`;
  const hint = known
    ? err.hint
    : isAbortError(err)
      ? undefined
      : 'Run again with --debug to see where it happened, and please report it.';

  if (opts.json) {
    const api = err instanceof ApiError ? err : undefined;
    const body = {
      error: {
        status: api?.status ?? null,
        code: api?.apiCode ?? (known ? err.code : isAbortError(err) ? 'interrupted' : 'internal'),
        message: clean(message),
        request_id: api?.requestId ?? null,
        errors: (api?.errors ?? []).map((e) => ({ ...e, message: clean(e.message) })),
        // The next step, as a person reads it under the message (null when there is none).
        hint: hint === undefined ? null : clean(hint),
      },
    };
    io.stderr.write(`${JSON.stringify(body)}\n`);
  } else {
    const c = io.err;
    const lines = [`${c.red('error:')} ${clean(message)}`];
    if (err instanceof ApiError) {
      for (const e of err.errors) {
        // The API often words its message as its one field error: say it once.
        if (e.message === message || `${e.field}: ${e.message}` === message) continue;
        lines.push(`  - ${e.field ? `${c.bold(e.field)}: ` : ''}${clean(e.message)}`);
      }
    }
    if (hint) lines.push(c.dim(clean(hint)));
    if (err instanceof ApiError && err.requestId) lines.push(c.dim(`request id: ${err.requestId}`));
    io.stderr.write(`${lines.join('\n')}\n`);
  }
  if (opts.debug && err instanceof Error && err.stack) {
    io.stderr.write(`${io.err.dim(clean(err.stack))}\n`);
    if (err.cause instanceof Error && err.cause.stack) {
      io.stderr.write(`${io.err.dim(`caused by: ${clean(err.cause.stack)}`)}\n`);
    }
  }
  return code;
}
