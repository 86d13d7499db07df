// Helpers of the automation tests: a sandbox that checks every answer against the contract,
// calls for automations, records and runs over real HTTP, and the runs an automation started.

import assert from 'node:assert/strict';
import type { RunningSandbox } from '../../../src/sandbox/sandbox.ts';
import { type Answer, call, prism } from '../helpers.ts';
import { api as prismApi } from '../properties-http.ts';

export { assertError, LIST_A, LIST_B, NO_SUCH_ID, sandboxFor, UUID } from '../properties-http.ts';

export const WEBHOOK_ID = '3b5d2c1a-7e4f-4a6b-9c8d-0e1f2a3b4c5d';
export const AGENT_ID = '4c6e3d2b-8f5a-4b7c-8d9e-1f2a3b4c5d6e';

export function api(sandbox: RunningSandbox) {
  const base = prismApi(sandbox);
  return {
    ...base,
    put: (path: string, body: unknown, headers?: Record<string, string>) =>
      call(sandbox, 'PUT', prism(sandbox, path), headers ? { body, headers } : { body }),
    control: (method: string, path: string, body?: unknown) =>
      call(sandbox, method, `/__sandbox/${path}`, body === undefined ? {} : { body }),
  };
}

/** Create an automation (201 expected); returns its body. */
export async function createAutomation(
  sandbox: RunningSandbox,
  type: string,
  body: Record<string, unknown>,
): Promise<{ id: string; name: string } & Record<string, unknown>> {
  const answer = await api(sandbox).post(`${type}/triggered_automations`, body);
  assert.equal(answer.status, 201, answer.text);
  return answer.body;
}

/** Create a record (201 expected); returns its id. */
export async function createRecord(
  sandbox: RunningSandbox,
  type: string,
  values: Record<string, unknown>,
  lists?: Record<string, Record<string, unknown>>,
): Promise<string> {
  const body = lists === undefined ? { default: values } : { default: values, list: lists };
  const answer = await api(sandbox).post(type, body);
  assert.equal(answer.status, 201, answer.text);
  return answer.body.id;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
export type RunBody = any;

/** Every run the sandbox keeps (in firing order), optionally filtered by query parameters. */
export async function runs(sandbox: RunningSandbox, query = ''): Promise<RunBody[]> {
  const answer = await call(sandbox, 'GET', `/__sandbox/automation_runs?limit=1000${query}`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body.data;
}

/** The names of the automations that fired since run `after` (sequence), in firing order. */
export async function firedSince(sandbox: RunningSandbox, after: number): Promise<string[]> {
  return (await runs(sandbox, `&after=${after}`)).map((run) => run.automation_name);
}

/** The sequence of the latest run (0 when none). */
export async function lastSequence(sandbox: RunningSandbox): Promise<number> {
  const all = await runs(sandbox);
  return all.length === 0 ? 0 : all[all.length - 1].sequence;
}

export function ok(answer: Answer, status = 200): Answer {
  assert.equal(answer.status, status, answer.text);
  return answer;
}
