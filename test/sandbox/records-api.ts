// A sandbox for one records, query or grants test, with every answer checked against the
// contract (the test fails at its end on any violation), and short calls relative to
// /v2/prism/{teamId}/.

import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import type { ObjectType } from '../../src/sandbox/object-types.ts';
import { propertiesOf } from '../../src/sandbox/resources/properties/model.ts';
import type { NewDefinition } from '../../src/sandbox/resources/properties/types.ts';
import { startTestSandbox } from '../helpers/sandbox.ts';
import { type Answer, type CallOptions, call } from './helpers.ts';

export interface RecordsApi {
  sandbox: RunningSandbox;
  teamId: string;
  /** A request to /v2/prism/{teamId}/{rest}. */
  req(method: string, rest: string, options?: CallOptions): Promise<Answer>;
  /** Create a record over HTTP; asserts 201 and returns the record. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
  create(type: ObjectType, values: Record<string, unknown>, list?: unknown): Promise<any>;
  /** Add a property definition of the team (through the properties model). */
  define(
    type: ObjectType,
    definition: NewDefinition,
  ): ReturnType<ReturnType<typeof propertiesOf>['create']>;
}

export async function recordsApi(t: TestContext): Promise<RecordsApi> {
  const test = await startTestSandbox();
  t.after(() => test.stop());
  const { sandbox } = test;
  const req = (method: string, rest: string, options?: CallOptions) =>
    call(sandbox, method, `/v2/prism/${sandbox.teamId}/${rest}`, options);
  return {
    sandbox,
    teamId: sandbox.teamId,
    req,
    async create(type, values, list) {
      const body = list === undefined ? { default: values } : { default: values, list };
      const answer = await req('POST', type, { body });
      assert.equal(answer.status, 201, answer.text);
      return answer.body;
    },
    define: (type, definition) =>
      propertiesOf(sandbox.store).create(sandbox.teamId, type, definition),
  };
}

/** The ids of a page's rows. */
export function ids(answer: Answer): string[] {
  return (answer.body.data as { id: string }[]).map((row) => row.id);
}

/** The field names of an error answer's errors[]. */
export function fields(answer: Answer): string[] {
  return (answer.body.error.errors as { field: string }[]).map((e) => e.field);
}
