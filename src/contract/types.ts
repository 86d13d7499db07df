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

/** What `Contract.match` found for a method and URL path. */
export type RouteMatch =
  | {
      kind: 'operation';
      operationId: string;
      /** Upper-case HTTP method. */
      method: string;
      /** OpenAPI path template, e.g. '/v2/prism/{teamId}/{objectType}/{id}'. */
      path: string;
      /** Path parameters, percent-decoded, keyed by their OpenAPI names (not yet validated). */
      params: Record<string, string>;
    }
  | {
      /** The path exists but not with this method (answer 405 with an Allow header). */
      kind: 'method_not_allowed';
      path: string;
      /** Upper-case methods the path does support. */
      allow: string[];
    };

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
   * The operation a request addresses, by structure only: literal segments beat templated ones
   * (leftmost first), so `/v2/prism/{teamId}/imports/{jobId}` wins over the record routes.
   * Parameter values are not checked here (validateRequest does that, so a bad enum value is a 400,
   * not a 404). Undefined when no path template matches (404). `pathname` may carry a query string.
   */
  match(method: string, pathname: string): RouteMatch | undefined;
  /**
   * Problems of a value against one of the document's schemas (components.schemas[name]),
   * empty when it matches: what travels outside HTTP answers (the realtime stream's messages).
   */
  validateSchema(name: string, value: unknown): string[];
}
