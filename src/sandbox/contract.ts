// Glue between the sandbox and the API contract (openapi/openapi.yaml, compiled by
// src/contract). The contract is loaded once, on first use; its validators are compiled by
// the contract module as operations are first validated.

import { loadContract } from '../contract/index.ts';
import type {
  Contract,
  FieldError,
  RequestParts,
  ResponseCheckOptions,
  ResponseParts,
} from '../contract/types.ts';
import type { ApiRoute } from './resource.ts';

let loaded: Contract | undefined;

export function contract(): Contract {
  if (loaded === undefined) loaded = loadContract();
  return loaded;
}

/**
 * Throws when a route names an operation the contract does not define, or defines with
 * another method or path template: a programming error, found when the sandbox starts.
 */
export function checkRouteAgainstContract(route: ApiRoute): void {
  const operation = contract().operation(route.operationId);
  const where = `Sandbox route ${route.method} ${route.path}`;
  if (operation === undefined) {
    throw new Error(
      `${where} declares operationId '${route.operationId}', which openapi/openapi.yaml does not define`,
    );
  }
  if (operation.method.toUpperCase() !== route.method || operation.path !== route.path) {
    throw new Error(
      `${where} declares operationId '${route.operationId}', which openapi/openapi.yaml defines as ${operation.method.toUpperCase()} ${operation.path}`,
    );
  }
}

export function validateRequest(operationId: string, request: RequestParts): FieldError[] {
  return contract().validateRequest(operationId, request);
}

export function validateResponse(
  operationId: string,
  response: ResponseParts,
  options?: ResponseCheckOptions,
): string[] {
  return contract().validateResponse(operationId, response, options);
}
