// How `ws webhooks listen` finds its place: whether the profile points at a sandbox (which
// delivers to 127.0.0.1) or a hosted service (which needs --public-url or --webhook), the
// recognisable name of the webhook it registers (`ws-listen-<host>-<pid>`), and the
// removal, at start, of such webhooks whose process no longer runs (a run killed with
// kill -9, or a terminal closed, could not remove its own).
import { hostname } from 'node:os';
import type { ApiClient } from '../../api/client.ts';
import { deleteWebhook, listWebhooks, type Webhook } from '../../api/webhooks.ts';
import { ApiError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { isAlive } from '../../util/process.ts';

const PREFIX = 'ws-listen-';

/** This machine's name as it goes into a webhook name. */
export function hostLabel(host = hostname()): string {
  const label = host
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return label || 'host';
}

/** The name of the webhook a listen process registers. */
export function listenName(pid: number, host = hostname()): string {
  return `${PREFIX}${hostLabel(host)}-${pid}`;
}

/** The host and pid a listen webhook's name holds, or undefined for other names. */
export function parseListenName(name: string): { host: string; pid: number } | undefined {
  const m = /^ws-listen-(.+)-(\d+)$/.exec(name);
  if (!m) return undefined;
  const pid = Number(m[2]);
  return Number.isSafeInteger(pid) && pid > 0 ? { host: m[1]!, pid } : undefined;
}

/** Whether the profile's service is a ws sandbox (it answers GET /__sandbox/health). */
export async function isSandbox(client: ApiClient, signal: AbortSignal): Promise<boolean> {
  try {
    const res = await client.request<{ ok?: unknown }>({
      method: 'GET',
      path: '/__sandbox/health',
      acceptErrors: true,
      signal,
    });
    return res.status === 200 && res.body?.ok === true;
  } catch (err) {
    if (err instanceof ApiError) return false;
    throw err;
  }
}

/**
 * Remove the webhooks of earlier listen runs on this machine whose process is gone. Gives
 * the ones removed. A webhook deleted meanwhile by someone else is no error.
 */
export async function removeOrphans(deps: Deps, client: ApiClient): Promise<Webhook[]> {
  const here = hostLabel();
  const all = await listWebhooks(client, { signal: deps.signal });
  const orphans = all.filter((w) => {
    const parsed = parseListenName(w.name);
    return parsed !== undefined && parsed.host === here && !isAlive(parsed.pid);
  });
  for (const w of orphans) {
    await deleteWebhook(client, w.id, { signal: deps.signal }).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    });
  }
  return orphans;
}
