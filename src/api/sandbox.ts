// The sandbox's control endpoints that `ws sandbox export` and `ws sandbox seed` use: a
// service that is not a ws sandbox answers them 404, which is said in those words.

import { unavailable } from './automations.ts';
import type { ApiClient } from './client.ts';

interface CallOptions {
  signal?: AbortSignal | undefined;
}

const ONLY_HERE =
  'Snapshots and seeds are made by a ws sandbox: start one with `ws sandbox start`, and pick its profile with --profile sandbox.';

/** GET /__sandbox/snapshot → the sandbox's snapshot (every team's to the first team's key). */
export async function getSnapshot(client: ApiClient, opts: CallOptions = {}): Promise<unknown> {
  try {
    const res = await client.request({
      method: 'GET',
      path: '/__sandbox/snapshot',
      signal: opts.signal,
    });
    return res.body;
  } catch (err) {
    throw unavailable(err, 'snapshots', ONLY_HERE);
  }
}

export interface SeedAnswer {
  created: Record<string, number>;
  ids: string[];
}

/** POST /__sandbox/seed: records written firing nothing (all or nothing). */
export async function seedRecords(
  client: ApiClient,
  body: unknown,
  opts: CallOptions = {},
): Promise<SeedAnswer> {
  try {
    const res = await client.request<SeedAnswer>({
      method: 'POST',
      path: '/__sandbox/seed',
      body,
      signal: opts.signal,
    });
    return res.body;
  } catch (err) {
    throw unavailable(err, 'seeding', ONLY_HERE);
  }
}
