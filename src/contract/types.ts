// The API contract (openapi/openapi.yaml), compiled for use at run time by the
// sandbox (request validation at the door) and by the test suite (every answer
// checked against its documented shape). The CLI itself never loads this.

/** One field-level problem, in the shape of the API's `error.errors[]`. */
export interface FieldError {
  field: string;
  message: string;
  code: string;
}

export interface RequestParts {
  /** Path parameters, already percent-decoded, keyed by their OpenAPI names. */
  params: Record<string, string>;
  /** Query parameters; a repeated name arrives as an array. */
  query: Record<string, string | string[]>;
  /** Lower-cased header names. */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or undefined when the request had none. */
  body: unknown;
}

export interface ResponseParts {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** Parsed JSON body, or undefined for an empty body (204). */
  body: unknown;
}

/** Options of `validateResponse`. */
export interface ResponseCheckOptions {
  /**
   * Also check the documented response headers: required ones must be present and present ones
   * must match their schema (names compared case-insensitively). Off by default.
   */
  headers?: boolean;
}

export interface Contract {
  /** Operation ids the document defines. */
  operationIds(): string[];
  /** Method and OpenAPI path template of an operation, e.g. ['GET', '/v2/prism/{teamId}/{objectType}/count']. */
  operation(operationId: string): { method: string; path: string } | undefined;
  /** Problems with a request, empty when it matches the operation's parameters and body schema. */
  validateRequest(operationId: string, req: RequestParts): FieldError[];
  /**
   * Problems with an answer, empty when the status is documented for the operation and the
   * body matches that status's schema (error statuses use the shared error body).
   */
  validateResponse(
    operationId: string,
    res: ResponseParts,
    options?: ResponseCheckOptions,
  ): string[];
  /**
   * Problems of a value against one of the document's schemas (components.schemas[name]),
   * empty when it matches: what travels outside HTTP answers (the realtime stream's messages).
   */
  validateSchema(name: string, value: unknown): string[];
}
