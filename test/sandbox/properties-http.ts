// Helpers of the property and view tests: a sandbox that checks every answer against the
// contract, short HTTP calls under the team's prism path, and error assertions.

import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/sandbox.ts';
import { type Answer, call, prism, startFor } from './helpers.ts';

export const LIST_A = '0a0a0a0a-0000-4000-8000-00000000000a';
export const LIST_B = '0b0b0b0b-0000-4000-8000-00000000000b';
export const NO_SUCH_ID = '99999999-9999-4999-8999-999999999999';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A sandbox for one test; at its end, every answer it gave must have matched the contract. */
export async function sandboxFor(
  t: TestContext,
  options: SandboxOptions = {},
): Promise<RunningSandbox> {
  const sandbox = await startFor(t, { validateResponses: true, ...options });
  t.after(() => assert.deepEqual(sandbox.contractViolations, []));
  return sandbox;
}

export function api(sandbox: RunningSandbox) {
  const at = (path: string) => prism(sandbox, path);
  return {
    get: (path: string) => call(sandbox, 'GET', at(path)),
    post: (path: string, body: unknown, headers?: Record<string, string>) =>
      call(sandbox, 'POST', at(path), headers ? { body, headers } : { body }),
    patch: (path: string, body: unknown) => call(sandbox, 'PATCH', at(path), { body }),
    delete: (path: string) => call(sandbox, 'DELETE', at(path)),
  };
}

/** The answer is an error with this status and code (and, when given, exactly one field error there). */
export function assertError(answer: Answer, status: number, code: string, field?: string): void {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.body.error.code, code, answer.text);
  if (field !== undefined) {
    assert.deepEqual(
      answer.body.error.errors.map((e: { field: string }) => e.field),
      [field],
      answer.text,
    );
  }
}
