// Request and answer types of the API, from the contract (src/generated/api-types.ts,
// generated from openapi/openapi.yaml by `npm run gen`).
import type { components, operations } from '../generated/api-types.ts';

export type Schemas = components['schemas'];

/** The JSON body of an operation's answer with the given status. */
export type AnswerOf<Op extends keyof operations, Status extends number> =
  operations[Op]['responses'] extends Record<
    Status,
    { content: { 'application/json': infer Body } }
  >
    ? Body
    : never;

/** Query parameters of an operation. */
export type QueryOf<Op extends keyof operations> = operations[Op]['parameters'] extends {
  query?: infer Q;
}
  ? NonNullable<Q>
  : never;
