// The one error type of the sandbox. Handlers and pipeline steps throw it; the server
// renders it in the API's error body (facts.md, "Error bodies"):
//   { "error": { "code", "message", "request_id", "errors"?: [...], "details"?: {} } }

import type { FieldError } from '../contract/types.ts';

export type { FieldError };

export class SandboxError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** Extra response headers that belong to this answer (Allow, Retry-After, ...). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    errors?: FieldError[],
    options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'SandboxError';
    this.status = status;
    this.code = code;
    this.errors = errors !== undefined && errors.length > 0 ? errors : undefined;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** The API's error body for an error answered under `requestId`. */
export function errorBody(
  requestId: string,
  code: string,
  message: string,
  errors?: FieldError[],
  details?: Record<string, unknown>,
): { error: Record<string, unknown> } {
  const error: Record<string, unknown> = { code, message, request_id: requestId };
  if (errors !== undefined && errors.length > 0) error['errors'] = errors;
  if (details !== undefined) error['details'] = details;
  return { error };
}

export function invalidRequest(message: string, errors?: FieldError[]): SandboxError {
  return new SandboxError(400, 'invalid_request', message, errors);
}

export function notFound(message: string): SandboxError {
  return new SandboxError(404, 'not_found', message);
}
