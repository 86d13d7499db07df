// A sandbox for the `ws records` tests: every request logged (to count them), records
// loaded straight into the store, and the store read back to check outcomes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach } from 'node:test';
import {
  type ObjectType,
  recordsOf,
  type SandboxOptions,
  type StoredRecord,
} from '../../src/sandbox/index.ts';
import { type RunOptions, runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

export interface RecordsSandbox {
  t: TestSandbox;
  env: Record<string, string>;
  /** One line per request: `METHOD /path STATUS …`. */
  requests: string[];
  /** Requests whose line matches. */
  count(pattern: RegExp): number;
  /** Create records of a type directly in the store; their ids in order. */
  load(type: ObjectType, values: Record<string, unknown>[]): string[];
  get(type: ObjectType, id: string): Readonly<StoredRecord> | undefined;
  ws(argv: string[], opts?: RunOptions): ReturnType<typeof runWs>;
  /** Empty the store and the request log. */
  reset(): void;
  stop(): Promise<void>;
}

export async function recordsSandbox(options: SandboxOptions = {}): Promise<RecordsSandbox> {
  const requests: string[] = [];
  const t = await startTestSandbox({
    ...options,
    log: (line) => {
      if (!line.includes('/__sandbox/')) requests.push(line);
    },
  });
  const env = { ...(t.env as Record<string, string>), NO_COLOR: '1' };
  const model = () => recordsOf(t.sandbox.store);
  return {
    t,
    env,
    requests,
    count: (pattern) => requests.filter((l) => pattern.test(l)).length,
    load: (type, values) => values.map((v) => model().create(type, { default: v }).id),
    get: (type, id) => model().get(type, id),
    ws: (argv, opts = {}) => runWs(argv, { ...opts, env: { ...env, ...opts.env } }),
    reset() {
      t.sandbox.reset();
      requests.length = 0;
    },
    stop: () => t.stop(),
  };
}

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * One sandbox for a test file (emptied before each test) and a scratch directory:
 * `ctx.s` and `ctx.dir` once the file's tests run.
 */
export function useRecordsSandbox(options: SandboxOptions = {}): {
  s: RecordsSandbox;
  dir: string;
} {
  const ctx = {} as { s: RecordsSandbox; dir: string };
  before(async () => {
    ctx.s = await recordsSandbox(options);
    ctx.dir = mkdtempSync(join(tmpdir(), 'ws-records-test-'));
  });
  after(async () => {
    rmSync(ctx.dir, { recursive: true, force: true });
    await ctx.s.stop();
  });
  beforeEach(() => ctx.s.reset());
  return ctx;
}
