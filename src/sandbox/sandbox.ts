// Assembling a sandbox: options, data file, store, seed, faults, routes and server.

import { randomBytes, randomUUID } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { isUuid } from '../util/guards.ts';
import { ActivityLog } from './activity/log.ts';
import { RequestLog } from './activity/requests.ts';
import { Clock, clockEvents } from './clock.ts';
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
  type DataFile,
  DataFileError,
  FSYNC_POLICIES,
  type FsyncPolicy,
  Journal,
  readDataFile,
  teamFile,
} from './persist.ts';
import type { ControlRoute, Resource, RouteDef, SandboxRuntime } from './resource.ts';
import { resources as builtinResources } from './resources/index.ts';
import { REALTIME, realtimeResource } from './resources/realtime/routes.ts';
import type { RealtimeOptions } from './resources/realtime/settings.ts';
import { recordsOf } from './resources/records/model.ts';
import { WEBHOOKS, webhooksResource } from './resources/webhooks/routes.ts';
import type { WebhookOptions } from './resources/webhooks/settings.ts';
import { seedDemo } from './seed.ts';
import { SandboxServer, type ServerLimits } from './server.ts';
import {
  checkSnapshot,
  loadSnapshotTeam,
  readSnapshotFile,
  type Snapshot,
  takeSnapshot,
} from './snapshot.ts';
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
  /**
   * The teams the sandbox serves, each with its own key and data (a name, or a name with
   * the team's id and key); the first takes `apiKey` and `teamId`. Default: one team,
   * `default` (or those the data file keeps).
   */
  teams?: readonly (string | TeamOptions)[];
  /** Real time, in epoch ms (tests); default Date.now. */
  realNow?: () => number;
  /**
   * Start from a snapshot (snapshot.ts: a file's path, or the object): its teams, their
   * data and the clock, replacing what a data file held. Nothing it holds fires.
   */
  snapshot?: string | Snapshot;
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
  /** The first team's key, id and store. */
  apiKey: string;
  teamId: string;
  store: Store;
  /** Every team, the first first. */
  teams: readonly SandboxTeam[];
  /** What the control endpoints act on: reset, the clock, faults. */
  runtime: SandboxRuntime;
  /** Filled when validateResponses is on. */
  contractViolations: string[];
  /** Empty every team's store (keeps keys and teams). */
  reset(): void;
  /** A snapshot of every team (snapshot.ts; snapshotText() writes it as its file holds it). */
  snapshot(): Snapshot;
  /** Append pending changes to the data file and fsync it (no-op without dataFile). */
  flush(): Promise<void>;
  /** The first team's data file journal (undefined without dataFile). */
  journal: Journal | undefined;
  /** Stop accepting, close connections, flush the data file. */
  close(): Promise<void>;
  /** What the sandbox did, for the console (undefined when the console is off). */
  activity: ActivityLog | undefined;
}

/** A team asked for: its name, and its id and key when they are given. */
export interface TeamOptions {
  name: string;
  id?: string;
  key?: string;
}

/** A team of a running sandbox: its id, key and store (its data, apart from the others'). */
export interface SandboxTeam {
  readonly name: string;
  readonly id: string;
  readonly key: string;
  readonly store: Store;
  /** Its data file's journal (undefined without dataFile). */
  readonly journal: Journal | undefined;
}

/** What a team's name may be (it names a profile and a data file). */
const TEAM_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** The name of the first team when none is given. */
export const DEFAULT_TEAM = 'default';

/** `builtin` with the webhooks and realtime resources made again from their options, if any. */
function configured(builtin: readonly Resource[], options: SandboxOptions): readonly Resource[] {
  return builtin.map((resource) => {
    if (resource.name === WEBHOOKS && options.webhooks !== undefined) {
      return webhooksResource(options.webhooks);
    }
    if (resource.name === REALTIME && options.realtime !== undefined) {
      return realtimeResource(options.realtime);
    }
    return resource;
  });
}

/**
 * Start a sandbox serving `resources` (the built-in ones by default; tests add their own
 * routes here) plus the control endpoints.
 *
 * Each team has a store of its own (its records, definitions, views, automations, webhooks:
 * nothing is shared but the clock), and its key acts for it alone. With a data file, the
 * first team is kept in it and each other team in a file beside it (teamFile()), whose
 * names the first file's header lists.
 */
export async function launchSandbox(
  options: SandboxOptions = {},
  builtin: readonly Resource[] = builtinResources,
): Promise<RunningSandbox> {
  checkOptions(options);
  const resources = configured(builtin, options);
  const host = options.host ?? '127.0.0.1';
  const dataFile = options.dataFile === undefined ? undefined : resolvePath(options.dataFile);
  const saved = dataFile === undefined ? undefined : readDataFile(dataFile);
  const snapshot =
    options.snapshot === undefined
      ? undefined
      : typeof options.snapshot === 'string'
        ? readSnapshotFile(resolvePath(options.snapshot))
        : checkSnapshot(options.snapshot);
  const specs = teamSpecs(options, saved, dataFile, snapshot);

  const clock = new Clock(options.realNow === undefined ? {} : { realNow: options.realNow });
  const slices = [idempotencySlice, ...resources.flatMap((r) => r.slices ?? [])];
  const teams: SandboxTeam[] = [];
  try {
    for (const [i, spec] of specs.entries()) {
      const { file, data } = spec;
      const store = new Store({
        clock,
        ...(options.log === undefined ? {} : { onListenerError: listenerErrorsTo(options.log) }),
      });
      try {
        if (data?.version === 1) store.fromJSON(data.store);
        else if (data !== undefined) store.loadJournal(data.clockOffsetMs, data.slices);
        for (const slice of slices) store.slice(slice);
      } catch (err) {
        if (err instanceof SnapshotError && file !== undefined) {
          throw new DataFileError(file, `is corrupt: ${err.message}`);
        }
        throw err;
      }
      // A snapshot replaces what the data file held (and fires nothing: no event is emitted).
      const fromSnapshot = snapshot?.teams.find((t) => t.name === spec.name);
      if (fromSnapshot !== undefined) {
        loadSnapshotTeam(store, snapshot!, fromSnapshot, describeSnapshot(options.snapshot));
      }
      for (const resource of resources) resource.subscribe?.(store);
      let seeded = false;
      if (options.seed === 'demo' && recordsOf(store).isEmpty()) {
        seedDemo(store);
        seeded = true;
      }
      const others = i === 0 ? specs.slice(1).map((t) => t.name) : [];
      const changed =
        data !== undefined &&
        (data.api_key !== spec.key ||
          data.team_id !== spec.id ||
          seeded ||
          fromSnapshot !== undefined ||
          (data.name ?? DEFAULT_TEAM) !== spec.name ||
          (i === 0 && JSON.stringify(data.teams ?? []) !== JSON.stringify(others)));
      const journal =
        file === undefined
          ? undefined
          : new Journal(
              file,
              store,
              {
                apiKey: spec.key,
                teamId: spec.id,
                name: spec.name,
                teams: others,
                log: options.log,
                ...(options.fsync === undefined ? {} : { fsync: options.fsync }),
                ...(options.compactMinBytes === undefined
                  ? {}
                  : { compactMinBytes: options.compactMinBytes }),
              },
              data,
              changed,
            );
      teams.push({ name: spec.name, id: spec.id, key: spec.key, store, journal });
    }
  } catch (err) {
    for (const team of teams) await team.journal?.close();
    throw err;
  }

  const faultSettings: FaultSettings = {
    failRate: options.failRate ?? 0,
    failAfterCommit: options.failAfterCommit ?? 0,
    latencyMs: options.latencyMs ?? 0,
    rateLimit: options.rateLimit ?? 0,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  };
  const faults = new Faults(faultSettings, options.random ?? Math.random, clock);
  // The console (when asked for): made once the runtime it controls exists. It shows the
  // first team.
  let consoleParts: ReturnType<typeof openConsole> | undefined;
  const runtime: SandboxRuntime = {
    teams: teams.map(({ name, id }) => ({ name, id })),
    startedAt: new Date().toISOString(),
    version: pkg.version,
    faults,
    reset(resetOptions = {}) {
      for (const team of teams) {
        team.store.reset();
        if (resetOptions.seed === 'demo') seedDemo(team.store);
      }
      consoleParts?.activity.resetDone();
    },
    advanceClock(seconds) {
      const fromMs = clock.nowMs();
      clock.advance(seconds);
      const toMs = clock.nowMs();
      for (const team of teams) team.store.events.emit(clockEvents, { fromMs, toMs });
    },
    snapshot(teamIds) {
      return takeSnapshot(
        teamIds === undefined ? teams : teams.filter((team) => teamIds.includes(team.id)),
      );
    },
  };
  const routes: RouteDef[] = [...controlRoutes, ...resources.flatMap((r) => r.routes)];
  const contractViolations: string[] = [];
  const first = teams[0]!;
  consoleParts = options.console === true ? openConsole(first.store, runtime, first.id) : undefined;
  if (consoleParts !== undefined) routes.push(consoleParts.codeRoute);
  const server = new SandboxServer({
    host,
    port: options.port ?? 0,
    teams,
    faults,
    routes,
    upgrades: resources.flatMap((r) => r.upgrades ?? []),
    runtime,
    validateResponses: options.validateResponses === true,
    contractViolations,
    log: options.log,
    beforeAnswer:
      dataFile === undefined
        ? undefined
        : () => {
            for (const team of teams) team.journal?.commit();
          },
    limits: options.limits,
    observe: consoleParts?.requests.observe,
    console: consoleParts?.server,
  });
  let address: Awaited<ReturnType<SandboxServer['listen']>>;
  try {
    address = await server.listen();
  } catch (err) {
    for (const team of teams) await team.journal?.close();
    throw err;
  }
  const urlHost = address.address.includes(':') ? `[${address.address}]` : address.address;
  consoleParts?.server.listening(host, address.port);
  const stops = teams.flatMap((team) => resources.flatMap((r) => r.start?.(team.store) ?? []));

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    host: address.address,
    port: address.port,
    apiKey: first.key,
    teamId: first.id,
    store: first.store,
    teams,
    runtime,
    contractViolations,
    reset: () => runtime.reset(),
    snapshot: () => runtime.snapshot(),
    journal: first.journal,
    activity: consoleParts?.activity,
    flush: async () => {
      for (const team of teams) await team.journal?.flush();
    },
    close: () => {
      closing ??= (async () => {
        for (const stop of stops) stop();
        consoleParts?.server.close();
        consoleParts?.activity.close();
        await server.close();
        for (const team of teams) await team.journal?.close();
      })();
      return closing;
    },
  };
}

/**
 * The teams the sandbox serves, in order: those the data file keeps (its first team, then
 * the ones its header names), then those the options add; the options' key and id win for
 * a team they name. The first team takes `apiKey` and `teamId`.
 */
function teamSpecs(
  options: SandboxOptions,
  saved: DataFile | undefined,
  dataFile: string | undefined,
  snapshot: Snapshot | undefined,
): {
  name: string;
  id: string;
  key: string;
  file: string | undefined;
  data: DataFile | undefined;
}[] {
  const asked: TeamOptions[] = (options.teams ?? []).map((t) =>
    typeof t === 'string' ? { name: t } : t,
  );
  const names: string[] = [];
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  for (const team of snapshot?.teams ?? []) add(team.name);
  if (saved !== undefined) {
    add(saved.version === 2 ? (saved.name ?? DEFAULT_TEAM) : DEFAULT_TEAM);
    if (saved.version === 2) for (const name of saved.teams ?? []) add(name);
  }
  for (const team of asked) add(team.name);
  if (names.length === 0) add(DEFAULT_TEAM);
  return names.map((name, i) => {
    const given = asked.find((t) => t.name === name);
    const path = dataFile === undefined ? undefined : i === 0 ? dataFile : teamFile(dataFile, name);
    const file = i === 0 ? saved : path === undefined ? undefined : readDataFile(path);
    const key =
      given?.key ??
      (i === 0 ? options.apiKey : undefined) ??
      file?.api_key ??
      `wsk_sandbox_${randomBytes(16).toString('hex')}`;
    const id =
      given?.id ??
      (i === 0 ? options.teamId : undefined) ??
      snapshot?.teams.find((t) => t.name === name)?.id ??
      file?.team_id ??
      randomUUID();
    if (!isUuid(id)) {
      if (
        file !== undefined &&
        given?.id === undefined &&
        (i > 0 || options.teamId === undefined)
      ) {
        throw new DataFileError(path!, `is corrupt: team_id '${id}' is not a UUID`);
      }
      throw new RangeError(
        `Invalid sandbox options: the id of team ${name} must be a UUID, got '${id}'`,
      );
    }
    return { name, id: id.toLowerCase(), key, file: path, data: file };
  });
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

/** How errors name the snapshot a sandbox started from. */
function describeSnapshot(given: SandboxOptions['snapshot']): string {
  return typeof given === 'string' ? `Snapshot ${given}` : 'The snapshot';
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
  if (options.teamId !== undefined && !isUuid(options.teamId)) {
    problems.push(`teamId must be a UUID, got '${options.teamId}'`);
  }
  const teams = (options.teams ?? []).map((t) => (typeof t === 'string' ? { name: t } : t));
  for (const team of teams) {
    if (typeof team.name !== 'string' || !TEAM_NAME.test(team.name)) {
      problems.push(
        `a team name is 1 to 40 lower-case letters, digits, "-" and "_" (starting with a letter or digit), got ${JSON.stringify(team.name)}`,
      );
    }
    if (team.key !== undefined && !/^[\x21-\x7e]{1,512}$/.test(team.key)) {
      problems.push(`the key of team ${team.name} must be 1 to 512 visible ASCII characters`);
    }
    if (team.id !== undefined && !isUuid(team.id)) {
      problems.push(`the id of team ${team.name} must be a UUID, got '${team.id}'`);
    }
  }
  const names = teams.map((t) => t.name);
  if (new Set(names).size !== names.length) problems.push('team names must be distinct');
  const keys = teams.flatMap((t) => (t.key === undefined ? [] : [t.key]));
  if (new Set(keys).size !== keys.length) problems.push('team keys must be distinct');
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
