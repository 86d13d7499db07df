// Helpers of the sandbox tests: start a sandbox for one test (closed after it), and call it
// over real HTTP with node:http, which sends the path exactly as given (fetch would
// normalise '%2e%2e' and friends).

import { mkdtemp, rm } from 'node:fs/promises';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { SandboxError } from '../../src/sandbox/errors.ts';
import type { ObjectType } from '../../src/sandbox/object-types.ts';
import { requireObjectType } from '../../src/sandbox/request.ts';
import type { Resource } from '../../src/sandbox/resource.ts';
import { resources as builtinResources } from '../../src/sandbox/resources/index.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import {
  launchSandbox,
  type RunningSandbox,
  type SandboxOptions,
} from '../../src/sandbox/sandbox.ts';

export async function startFor(
  t: TestContext,
  options: SandboxOptions = {},
  resources: readonly Resource[] = builtinResources,
): Promise<RunningSandbox> {
  const sandbox = await launchSandbox(options, resources);
  t.after(() => sandbox.close());
  return sandbox;
}

export async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ws-sandbox-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
  body: any;
}

export interface CallOptions {
  /** API key to send; default the sandbox's; null sends none. */
  key?: string | null;
  /** JSON body. */
  body?: unknown;
  /** Body sent as is (overrides body). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

/** One request over a fresh connection; rejects when the socket is dropped. */
export function call(
  sandbox: Pick<RunningSandbox, 'port' | 'apiKey'>,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? sandbox.apiKey : options.key;
  if (key !== null) headers['x-api-key'] = key;
  let payload: string | Buffer | undefined = options.raw;
  if (payload === undefined && options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: sandbox.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The path of a record route of the sandbox's team. */
export function prism(sandbox: Pick<RunningSandbox, 'teamId'>, rest: string): string {
  return `/v2/prism/${sandbox.teamId}/${rest}`;
}

export const REQUEST_ID = /^req_[0-9a-f]{24}$/;

/** Random numbers from a script (then 0.99, i.e. "no fault"), for fault tests. */
export function scripted(...values: number[]): () => number {
  const queue = [...values];
  return () => queue.shift() ?? 0.99;
}

export interface TestHooks {
  /** Awaited inside the create handler before it does anything (to hold a request in flight). */
  beforeCreate?: () => Promise<void>;
  /** Thrown by the next create instead of creating. */
  failNextCreate?: SandboxError;
  /** Number of times the create handler ran. */
  creates: number;
}

/**
 * Routes for tests only, on real operations of the contract: a minimal record create (for the
 * idempotency and fault pipeline), a route that crashes, one whose reply cannot be sent as
 * JSON, and one that answers off-contract.
 */
export function testResource(hooks: TestHooks): Resource {
  return {
    name: 'test-only',
    routes: [
      {
        kind: 'api',
        method: 'POST',
        path: '/v2/prism/{teamId}/{objectType}',
        operationId: 'createRecord',
        resolve: requireObjectType,
        handler: async (ctx) => {
          hooks.creates++;
          await hooks.beforeCreate?.();
          const failure = hooks.failNextCreate;
          if (failure !== undefined) {
            hooks.failNextCreate = undefined;
            throw failure;
          }
          const type = ctx.params['objectType'] as ObjectType;
          const values = (ctx.body as { default?: Record<string, unknown> }).default ?? {};
          const record = recordsOf(ctx.store).create(type, { default: values });
          return {
            status: 201,
            body: { id: record.id, default: record.default },
            headers: {
              location: `/v2/prism/${ctx.params['teamId']}/${type}/${record.id}`,
              etag: `"${record.version}"`,
            },
          };
        },
      },
      {
        kind: 'api',
        method: 'POST',
        path: '/v2/prism/{teamId}/{objectType}/{id}/restore',
        operationId: 'restoreRecord',
        handler: () => {
          throw new Error('kaboom at /secret/path/handlers.ts:42');
        },
      },
      {
        kind: 'api',
        method: 'POST',
        path: '/v2/prism/{teamId}/{objectType}/{id}/duplicate',
        operationId: 'duplicateRecord',
        handler: () => ({ status: 201, body: { count: 10n } }),
      },
      {
        kind: 'api',
        method: 'GET',
        path: '/v2/prism/{teamId}/{objectType}/{id}',
        operationId: 'getRecord',
        handler: () => ({ status: 200, body: { nope: true } }),
      },
    ],
  };
}

export function withTestRoutes(hooks: TestHooks): Resource[] {
  // The test routes stand in for the real ones at the same method and path.
  const test = testResource(hooks);
  const replaced = new Set(test.routes.map((r) => `${r.method} ${r.path}`));
  const kept = builtinResources.map((resource) => ({
    ...resource,
    routes: resource.routes.filter((r) => !replaced.has(`${r.method} ${r.path}`)),
  }));
  return [...kept, test];
}

export { SandboxError };
