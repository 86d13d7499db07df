// undici, loaded in part: its connection pool (Agent) and the promise-returning request
// API over it. ws uses nothing else of undici (not fetch, WebSocket, the cache or the
// mocks), and loading the whole package would more than double the start-up time of
// every command that sends a request (measured with bench/startup.mjs).
//
// undici parses HTTP with llhttp compiled to WebAssembly. V8's optimising compiler
// would compile that module in the background, and Node waits for it before the
// process exits: over 100 ms on every command. The baseline compiler alone is ready at
// once; the flag is set before this module's imports (below) compile llhttp.
import './liftoff.ts';
import type { Dispatcher } from 'undici';
import requestModule from 'undici/lib/api/api-request.js';
import AgentModule from 'undici/lib/dispatcher/agent.js';

export type AgentClass = new (opts?: import('undici').Agent.Options) => Dispatcher;
export type RequestFn = (
  this: Dispatcher,
  opts: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

export const Agent = AgentModule as AgentClass;
export const request = requestModule as RequestFn;
