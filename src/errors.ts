// One error hierarchy and one exit-code table. Commands throw these; only main.ts
// turns an error into an exit code.

export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  partial: 5,
  conflict: 6,
  timeout: 7,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface FieldError {
  field: string;
  message: string;
  code?: string;
}

/** Base of every error ws reports to a user. `hint` says what to do next. */
export class WsError extends Error {
  // Named here, not from the class: the bundle does not keep function names.
  override readonly name: string = 'WsError';
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  /** Machine-readable code for `--json` error output. */
  readonly code: string;
  /** Only sets the exit code: the command already said everything (`ws props diff` finding differences). */
  readonly silent: boolean;
  constructor(
    message: string,
    opts: {
      exitCode?: ExitCode;
      hint?: string;
      code?: string;
      cause?: unknown;
      silent?: boolean;
    } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.exitCode = opts.exitCode ?? ExitCode.error;
    this.hint = opts.hint;
    this.code = opts.code ?? 'error';
    this.silent = opts.silent ?? false;
  }
}

/**
 * The base of an error of one kind: its name, exit code and `--json` code are the kind's,
 * and it takes a message and a hint.
 */
function kind(name: string, exitCode: ExitCode, code: string) {
  return class extends WsError {
    override readonly name: string = name;
    constructor(message: string, hint?: string) {
      super(message, { exitCode, hint, code });
    }
  };
}

/** Bad flags, arguments or input caught before anything is sent. Exit 2. */
export class UsageError extends kind('UsageError', ExitCode.usage, 'usage') {}

/** No credentials, or credentials the API refused. Exit 3. */
export class AuthError extends kind('AuthError', ExitCode.auth, 'auth') {}

export class NotFoundError extends kind('NotFoundError', ExitCode.notFound, 'not_found') {}

export class ConflictError extends kind('ConflictError', ExitCode.conflict, 'conflict') {}

/** Some items of a bulk operation or import failed; the rest went through. Exit 5. */
export class PartialFailureError extends WsError {
  override readonly name: string = 'PartialFailureError';
  readonly failed: number;
  readonly total: number;
  constructor(message: string, failed: number, total: number, hint?: string) {
    super(message, { exitCode: ExitCode.partial, hint, code: 'partial_failure' });
    this.failed = failed;
    this.total = total;
  }
}

/** Gave up waiting for a job. Exit 7. */
export class WaitTimeoutError extends kind('WaitTimeoutError', ExitCode.timeout, 'timeout') {}

/** The user pressed Ctrl-C (or the process got SIGINT/SIGTERM). Exit 130. */
export class InterruptedError extends kind(
  'InterruptedError',
  ExitCode.interrupted,
  'interrupted',
) {
  constructor(message = 'Interrupted.', hint?: string) {
    super(message, hint);
  }
}

/** The network failed: refused, reset, timed out, DNS. Exit 1. */
export class NetworkError extends WsError {
  override readonly name: string = 'NetworkError';
  constructor(message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, {
      exitCode: ExitCode.error,
      hint: opts.hint,
      code: 'network_error',
      cause: opts.cause,
    });
  }
}

/** Every non-2xx answer of the API. */
export class ApiError extends WsError {
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly apiCode: string | undefined;
  readonly requestId: string | undefined;
  readonly errors: FieldError[];
  readonly details: unknown;
  readonly method: string;
  readonly url: string;
  constructor(init: {
    status: number;
    code?: string;
    message: string;
    requestId?: string;
    errors?: FieldError[];
    details?: unknown;
    method: string;
    url: string;
    hint?: string;
    exitCode?: ExitCode;
  }) {
    super(init.message, {
      exitCode: init.exitCode ?? exitCodeForStatus(init.status),
      hint: init.hint,
      code: init.code ?? `http_${init.status}`,
    });
    this.status = init.status;
    this.apiCode = init.code;
    this.requestId = init.requestId;
    this.errors = init.errors ?? [];
    this.details = init.details;
    this.method = init.method;
    this.url = init.url;
  }

  /** The same answer, said otherwise: a new message, hint or field errors. */
  with(said: { message?: string; hint?: string | undefined; errors?: FieldError[] }): ApiError {
    const hint = 'hint' in said ? said.hint : this.hint;
    return new ApiError({
      status: this.status,
      ...(this.apiCode ? { code: this.apiCode } : {}),
      message: said.message ?? this.message,
      ...(this.requestId ? { requestId: this.requestId } : {}),
      errors: said.errors ?? this.errors,
      details: this.details,
      method: this.method,
      url: this.url,
      ...(hint !== undefined ? { hint } : {}),
      exitCode: this.exitCode,
    });
  }
}

/** The exit-code table for API statuses. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 409 || status === 412) return ExitCode.conflict;
  if (status === 400 || status === 422) return ExitCode.usage;
  return ExitCode.error;
}

export function isAbortError(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR')
  );
}
