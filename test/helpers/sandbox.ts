// A real sandbox on 127.0.0.1 port 0 for a test file, with every answer checked
// against the API contract, and a config directory whose default profile points at it.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../../src/io/streams.ts';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.ts';
import { tempConfigDir } from './run.ts';

export interface TestSandbox {
  sandbox: RunningSandbox;
  /** Env for runWs: a config dir with profile "sandbox" as the default. */
  env: Env;
  configDir: string;
  /** Assert every answer matched the contract, then stop and clean up. */
  stop(): Promise<void>;
}

export function writeProfiles(
  dir: string,
  profiles: Record<
    string,
    { base_url: string; team_id: string; api_key?: string; rate_limit?: number }
  >,
  defaultProfile?: string,
): void {
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ profiles, ...(defaultProfile ? { default_profile: defaultProfile } : {}) }),
    { mode: 0o600 },
  );
}

/** A profile of a test sandbox, for writeProfiles. */
export function sandboxProfile(t: { sandbox: RunningSandbox }) {
  return {
    base_url: t.sandbox.url,
    team_id: t.sandbox.teamId,
    api_key: t.sandbox.apiKey,
    rate_limit: 0,
  };
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({ validateResponses: true, ...options });
  const { dir, cleanup } = tempConfigDir();
  writeProfiles(dir, { sandbox: sandboxProfile({ sandbox }) }, 'sandbox');
  return {
    sandbox,
    env: { WS_CONFIG_DIR: dir },
    configDir: dir,
    async stop() {
      try {
        assert.deepEqual(sandbox.contractViolations, [], 'every sandbox answer matches openapi/');
      } finally {
        await sandbox.close();
        cleanup();
      }
    },
  };
}

/** A call to a test sandbox's API as any client makes it: status and parsed JSON body. */
export async function sandboxCall(
  t: { sandbox: RunningSandbox },
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.sandbox.url}${path}`, {
    method,
    headers: { 'x-api-key': t.sandbox.apiKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Change a running sandbox's faults through its control endpoint (`latency_ms`, `fail_rate`, …). */
export async function setFaults(
  sandbox: Pick<RunningSandbox, 'url' | 'apiKey'>,
  faults: Record<string, number>,
): Promise<void> {
  const res = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  assert.equal(res.status, 200, await res.text());
}
