// Assembling a sandbox: options, data file, store, seed, faults, routes and server.

import { randomBytes, randomUUID } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { isUuid } from '../util/guards.ts';
import { ActivityLog } from './activity/log.ts';
import { RequestLog } from './activity/requests.ts';
import { ConsoleServer } from './console/server.ts';
import { controlRoutes } from './control.ts';
import type { ListenerErrorHandler } from './events.ts';
import {
  checkFaultSettings,
  DEFAULT_MAX_BODY_BYTES,
  type FaultSettings,
  Faults,
} from './faults.ts';
import { idempotencySlice } from './idempotency.ts';
import {
  DataFileError,
  FSYNC_POLICIES,
  type FsyncPolicy,
  Journal,
  readDataFile,
} from './persist.ts';
import type { ControlRoute, Resource, RouteDef, SandboxRuntime } from './resource.ts';
import { resources as builtinResources } from './resources/index.ts';
import { withRealtimeOptions } from './resources/realtime/routes.ts';
import type { RealtimeOptions } from './resources/realtime/settings.ts';
import { recordsOf } from './resources/records/model.ts';
import { withWebhookOptions } from './resources/webhooks/routes.ts';
import type { WebhookOptions } from './resources/webhooks/settings.ts';
import { seedDemo } from './seed.ts';
import { SandboxServer, type ServerLimits } from './server.ts';
import { SnapshotError, Store } from './store.ts';

export interface SandboxOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0: pick a free port. */
  port?: number;
  /** Default: from the data file if any, else generated 'wsk_sandbox_' + 32 hex chars. */
  apiKey?: string;
  /** Default: from the data file if any, else a random UUID. */
  teamId?: string;
  /** Persist the whole sandbox in this file (mode 0600: it holds the API key). */
  dataFile?: string;
  /** When the data file's appends are fsync'ed: 'always', 'everysec' (default) or 'no'. */
  fsync?: FsyncPolicy;
  /** Rewrite the data file when it reaches twice its size after the last rewrite and this. */
  compactMinBytes?: number;
  /** Fill the store with the demo workspace at start when it holds no records. */
  seed?: 'demo';
  /** Added before every API answer. */
  latencyMs?: number;
  /** 0..1: before anything, answer 500, 502, 503 or destroy the socket (equally likely). */
  failRate?: number;
  /** 0..1: on POST/PUT/PATCH/DELETE, do the work, then destroy the socket unanswered. */
  failAfterCommit?: number;
  /** N requests per second per API key, then 429 with Retry-After (0 or undefined: off). */
  rateLimit?: number;
  /** Request bodies over this many bytes are answered 413 (default and most: 10 MiB). */
  maxBodyBytes?: number;
  /** Check every API answer against the contract; problems go to contractViolations. */
  validateResponses?: boolean;
  /** Randomness for faults (tests); default Math.random. */
  random?: () => number;
  /** One line per request (method, path, status, ms, request id), and unexpected errors. */
  log?: (line: string) => void;
  /**
   * Webhooks: the gateway's preview 403, the address rule, attempt timeout and retry delays
   * (resources/webhooks/settings.ts).
   */
  webhooks?: WebhookOptions;
  /**
   * The realtime stream: ticket lifetime, the changes kept for readers that reconnect, and
   * the bounds of a slow reader (resources/realtime/settings.ts).
   */
  realtime?: RealtimeOptions;
  /** Header, request and keep-alive timeouts and the connection cap (server.ts DEFAULT_LIMITS). */
  limits?: Partial<ServerLimits>;
  /**
   * Serve the console under /console (console/server.ts), with the activity and request
   * logs it reads; `ws sandbox open` signs in to it. Default false.
   */
  console?: boolean;
}

export interface RunningSandbox {
  url: string;
  host: string;
  port: number;
  apiKey: string;
  teamId: string;
  /** The single store. */
  store: Store;
  /** Filled when validateResponses is on. */
  contractViolations: string[];
  /** Empty the store (keeps key and team). */
  reset(): void;
  /** Append pending changes to the data file and fsync it (no-op without dataFile). */
  flush(): Promise<void>;
  /** The data file's journal (undefined without dataFile). */
  journal: Journal | undefined;
  /** Stop accepting, close connections, flush the data file. */
  close(): Promise<void>;
  /** What the sandbox did, for the console (undefined when the console is off). */
  activity: ActivityLog | undefined;
}

/**
 * Start a sandbox serving `resources` (the built-in ones by default; tests add their own
 * routes here) plus the control endpoints.
 */
export async function launchSandbox(
  options: SandboxOptions = {},
  builtin: readonly Resource[] = builtinResources,
): Promise<RunningSandbox> {
  checkOptions(options);
  const resources = withRealtimeOptions(
    withWebhookOptions(builtin, options.webhooks),
    options.realtime,
  );
  const host = options.host ?? '127.0.0.1';
  const dataFile = options.dataFile === undefined ? undefined : resolvePath(options.dataFile);
  const saved = dataFile === undefined ? undefined : readDataFile(dataFile);
  const apiKey =
    options.apiKey ?? saved?.api_key ?? `wsk_sandbox_${randomBytes(16).toString('hex')}`;
  const teamId = options.teamId ?? saved?.team_id ?? randomUUID();
  if (!isUuid(teamId)) {
    if (dataFile !== undefined && options.teamId === undefined) {
      throw new DataFileError(dataFile, `is corrupt: team_id '${teamId}' is not a UUID`);
    }
    throw new RangeError(`Invalid sandbox options: teamId must be a UUID, got '${teamId}'`);
  }

  const store = new Store(
    options.log === undefined ? {} : { onListenerError: listenerErrorsTo(options.log) },
  );
  const slices = [idempotencySlice, ...resources.flatMap((r) => r.slices ?? [])];
  try {
    if (saved?.version === 1) store.fromJSON(saved.store);
    else if (saved !== undefined) store.loadJournal(saved.clockOffsetMs, saved.slices);
    for (const slice of slices) store.slice(slice);
  } catch (err) {
    if (err instanceof SnapshotError && dataFile !== undefined) {
      throw new DataFileError(dataFile, `is corrupt: ${err.message}`);
    }
    throw err;
  }
  for (const resource of resources) resource.subscribe?.(store);

  let seeded = false;
  if (options.seed === 'demo' && recordsOf(store).isEmpty()) {
    seedDemo(store);
    seeded = true;
  }

  const journal =
    dataFile === undefined
      ? undefined
      : new Journal(
          dataFile,
          store,
          {
            apiKey,
            teamId,
            log: options.log,
            ...(options.fsync === undefined ? {} : { fsync: options.fsync }),
            ...(options.compactMinBytes === undefined
              ? {}
              : { compactMinBytes: options.compactMinBytes }),
          },
          saved,
          saved !== undefined && (saved.api_key !== apiKey || saved.team_id !== teamId || seeded),
        );

  const faultSettings: FaultSettings = {
    failRate: options.failRate ?? 0,
    failAfterCommit: options.failAfterCommit ?? 0,
    latencyMs: options.latencyMs ?? 0,
    rateLimit: options.rateLimit ?? 0,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  };
  const faults = new Faults(faultSettings, options.random ?? Math.random, store.clock);
  // The console (when asked for): made once the runtime it controls exists.
  let consoleParts: ReturnType<typeof openConsole> | undefined;
  const runtime: SandboxRuntime = {
    teamId,
    startedAt: new Date().toISOString(),
    version: pkg.version,
    faults,
    reset(resetOptions = {}) {
      store.reset();
      if (resetOptions.seed === 'demo') seedDemo(store);
      consoleParts?.activity.resetDone();
    },
  };
  const routes: RouteDef[] = [...controlRoutes, ...resources.flatMap((r) => r.routes)];
  const contractViolations: string[] = [];
  consoleParts = options.console === true ? openConsole(store, runtime, teamId) : undefined;
  if (consoleParts !== undefined) routes.push(consoleParts.codeRoute);
  const server = new SandboxServer({
    host,
    port: options.port ?? 0,
    apiKey,
    teamId,
    store,
    faults,
    routes,
    upgrades: resources.flatMap((r) => r.upgrades ?? []),
    runtime,
    validateResponses: options.validateResponses === true,
    contractViolations,
    log: options.log,
    beforeAnswer: journal === undefined ? undefined : () => journal.commit(),
    limits: options.limits,
    observe: consoleParts?.requests.observe,
    console: consoleParts?.server,
  });
  let address: Awaited<ReturnType<SandboxServer['listen']>>;
  try {
    address = await server.listen();
  } catch (err) {
    await journal?.close();
    throw err;
  }
  const urlHost = address.address.includes(':') ? `[${address.address}]` : address.address;
  consoleParts?.server.listening(host, address.port);
  const stops = resources.flatMap((r) => r.start?.(store) ?? []);

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    host: address.address,
    port: address.port,
    apiKey,
    teamId,
    store,
    contractViolations,
    reset: () => runtime.reset(),
    journal,
    activity: consoleParts?.activity,
    flush: async () => {
      await journal?.flush();
    },
    close: () => {
      closing ??= (async () => {
        for (const stop of stops) stop();
        consoleParts?.server.close();
        consoleParts?.activity.close();
        await server.close();
        await journal?.close();
      })();
      return closing;
    },
  };
}

/**
 * The console and what it reads: the activity log (listening on the spine from now on), the
 * request log, the console's server, and the control route `ws sandbox open` asks for a
 * one-time sign-in code (with the API key): `POST /__sandbox/console/code` → 201
 * `{ code, expires_at, login_url }`.
 */
function openConsole(store: Store, runtime: SandboxRuntime, teamId: string) {
  const activity = new ActivityLog(store);
  const requests = new RequestLog(() => store.clock.iso());
  const server = new ConsoleServer({ store, runtime, teamId, activity, requests });
  const codeRoute: ControlRoute = {
    kind: 'control',
    method: 'POST',
    path: '/__sandbox/console/code',
    handler: (ctx) => {
      const { code, expiresAt } = server.auth.issueCode();
      const host = ctx.headers.host ?? '';
      return {
        status: 201,
        body: {
          code,
          expires_at: new Date(expiresAt).toISOString(),
          login_url: `http://${host}/console/login`,
        },
      };
    },
  };
  return { activity, requests, server, codeRoute };
}

/** A listener's error, with its stack, as a line of the sandbox's log. */
function listenerErrorsTo(log: (line: string) => void): ListenerErrorHandler {
  return (error, topic) => {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`sandbox: a listener of ${topic} events failed (the change stands): ${detail}`);
  };
}

function checkOptions(options: SandboxOptions): void {
  const problems: string[] = [];
  if (
    options.port !== undefined &&
    !(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65535)
  ) {
    problems.push(`port must be an integer from 0 to 65535, got ${options.port}`);
  }
  if (options.apiKey !== undefined && !/^[\x21-\x7e]{1,512}$/.test(options.apiKey)) {
    problems.push('apiKey must be 1 to 512 visible ASCII characters (no spaces)');
  }
  if (options.seed !== undefined && options.seed !== 'demo') {
    problems.push(`seed must be 'demo' when given, got '${String(options.seed)}'`);
  }
  if (options.dataFile === '') problems.push('dataFile must not be empty');
  if (options.fsync !== undefined && !FSYNC_POLICIES.includes(options.fsync)) {
    problems.push(
      `fsync must be one of ${FSYNC_POLICIES.join(', ')}, got '${String(options.fsync)}'`,
    );
  }
  if (options.random !== undefined && typeof options.random !== 'function') {
    problems.push('random must be a function returning numbers in [0, 1)');
  }
  for (const problem of checkFaultSettings(options, 'camel')) problems.push(problem.message);
  if (problems.length > 0) throw new RangeError(`Invalid sandbox options: ${problems.join('; ')}`);
}
