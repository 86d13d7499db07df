// What a resource of the sandbox is made of. A resource lives in resources/<name>/:
//   model.ts     its state (a slice of the store) and rules; emits its events
//   types.ts     the shapes it keeps; events.ts what it emits (when others react to it)
//   handlers.ts  request in, reply out, using the model (and request.ts to read the request)
//   routes.ts    method + path template + operationId for each handler, and the Resource
// and is registered with one line in resources/index.ts. Resources do not call each other:
// they subscribe to each other's events (see events.ts and the README's import rule).

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { SandboxError } from './errors.ts';
import type { Faults } from './faults.ts';
import type { Snapshot } from './snapshot.ts';
import type { Slice, SliceDef, Store } from './store.ts';

/** What a handler returns. `body` is serialised as JSON; leave it out for an empty answer. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Sandbox-wide facts and controls, for the control endpoints. */
export interface SandboxRuntime {
  /** The sandbox's teams, in order (the first is the one of requests without a key). */
  readonly teams: readonly { readonly name: string; readonly id: string }[];
  readonly startedAt: string;
  readonly version: string;
  readonly faults: Faults;
  /** Empty every team's store; with seed 'demo', fill each with the demo data again. */
  reset(options?: { seed?: 'demo' }): void;
  /** Move the sandbox clock (all teams share it) forward; each team's store hears of it. */
  advanceClock(seconds: number): void;
  /** A snapshot (snapshot.ts) of every team, or of the teams named. */
  snapshot(teamIds?: readonly string[]): Snapshot;
}

export interface PathContext {
  /** Path parameters, percent-decoded, keyed by their template (= OpenAPI) names. */
  readonly params: Readonly<Record<string, string>>;
  /** Decoded segments matched by a final {...rest} template segment. */
  readonly rest: readonly string[];
  readonly store: Store;
}

export interface RequestContext extends PathContext {
  readonly requestId: string;
  readonly method: string;
  /** The path as sent, without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  /** Lower-cased header names. */
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when the request had none. */
  readonly body: unknown;
  /** True when the request carried the sandbox's API key (checked or, where none is needed, offered). */
  readonly authenticated: boolean;
  /** The team the request acts for: its key's (the first team's when it carries none). */
  readonly teamId: string;
  readonly sandbox: SandboxRuntime;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RouteBase {
  path: string;
  handler: Handler;
}

/** An operation of the documented API (under /v2/). */
export interface ApiRoute extends RouteBase {
  kind: 'api';
  method: HttpMethod;
  /** The operation's OpenAPI operationId; the route's method and path must match it. */
  operationId: string;
  /**
   * Checks on the path that run after authentication and before request validation, e.g.
   * an unknown collection in the path is a 404, not a validation problem. Throw SandboxError.
   */
  resolve?: (ctx: PathContext) => void;
}

/** A maker of API routes that all run `resolve` first (e.g. the object type check of a resource). */
export function routesResolvedBy(resolve: (ctx: PathContext) => void) {
  return (
    method: HttpMethod,
    path: string,
    operationId: string,
    handler: ApiRoute['handler'],
  ): ApiRoute => ({ kind: 'api', method, path, operationId, resolve, handler });
}

/**
 * A path that the hosted gateway answers itself, before authentication and before the API
 * (see resources/webhooks/routes.ts). No contract validation.
 */
export interface GatewayRoute extends RouteBase {
  kind: 'gateway';
  method: HttpMethod | '*';
}

/** A documented sandbox extension under /__sandbox/: never subject to faults or rate limits. */
export interface ControlRoute extends RouteBase {
  kind: 'control';
  method: HttpMethod;
  /** 'none' answers without an API key; default 'key'. */
  auth?: 'key' | 'none';
}

export type RouteDef = ApiRoute | GatewayRoute | ControlRoute;

/** What an upgrade route is handed besides the request and its socket. */
export interface UpgradeContext {
  readonly store: Store;
  readonly requestId: string;
  /** The query of the request's URL, decoded; a repeated name arrives as an array. */
  readonly query: Readonly<Record<string, string | string[]>>;
  /** Answer with the API's error body instead of upgrading, and close the connection. */
  refuse(error: SandboxError): void;
  /** The connection was upgraded (for the sandbox's request log). */
  upgraded(): void;
}

/**
 * A WebSocket endpoint (`GET` with `Upgrade: websocket`) at an exact path, outside the
 * contract's HTTP operations: the server hands it the request and its socket.
 */
export interface UpgradeRoute {
  path: string;
  /**
   * The team's store the request is for, among the sandbox's (a WebSocket carries no key:
   * what it carries, like a ticket, names its team); undefined for the first team's.
   */
  storeOf?(query: UpgradeContext['query'], stores: readonly Store[]): Store | undefined;
  handle(req: IncomingMessage, socket: Duplex, head: Buffer, ctx: UpgradeContext): void;
}

export interface Resource {
  name: string;
  routes: RouteDef[];
  /** WebSocket endpoints (the realtime stream). */
  upgrades?: UpgradeRoute[];
  /** Slices of the store the resource keeps its state in (loaded and checked at start). */
  slices?: SliceDef<Slice>[];
  /**
   * Subscriptions to other resources' events (src/sandbox/events.ts): called once when the
   * sandbox is assembled, after every slice is in the store and before the first request.
   */
  subscribe?: (store: Store) => void;
  /**
   * Background work: called once the sandbox listens (state restored from a data file is
   * in the store by then); the function it returns is called when the sandbox closes.
   */
  start?: (store: Store) => (() => void) | undefined;
}
