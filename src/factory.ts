// Dependencies of every command, built lazily from one place. Tests build their own.
import { setMaxListeners } from 'node:events';
import type { ApiClient, ClientOptions } from './api/client.ts';
import type { RateLimiter } from './api/ratelimit.ts';
import { type Credentials, resolveCredentials } from './config/resolve.ts';
import { ProfileStore } from './config/store.ts';
import { UsageError } from './errors.ts';
import type { Env, IOStreams } from './io/streams.ts';
import { type Format, parseFields, resolveFormat } from './output/format.ts';
import { type ShapeRequest, shapedFormat, shapeRequest } from './output/shape.ts';
import { type Prompter, terminalPrompter } from './prompt/prompter.ts';
import { VERSION } from './version.ts';

/** Flags every command accepts, before or after the subcommand. */
export interface GlobalFlags {
  profile?: string;
  json?: boolean;
  format?: string;
  fields?: string;
  jq?: string;
  template?: string;
  wide?: boolean;
  debug?: boolean;
  color?: boolean;
  quiet?: boolean;
  yes?: boolean;
  input?: boolean;
  timeout?: string;
  retries?: string;
}

export interface Clock {
  now(): Date;
}

export interface Deps {
  io: IOStreams;
  env: Env;
  clock: Clock;
  prompter: Prompter;
  /** Cancelled on Ctrl-C (SIGINT) or SIGTERM. */
  signal: AbortSignal;
  /**
   * While a handler is registered, a second Ctrl-C calls it instead of leaving at once: a
   * command that stops in steps (an import waiting for its chunks in flight) abandons what
   * it waits for and still says where it stopped. Gives the function that unregisters it.
   */
  onAbandon(handler: () => void): () => void;
  /** The output format and fields chosen by --format/--json/--fields. */
  format: Format;
  fields: string[] | undefined;
  flags: GlobalFlags;
  /** Path of bin/ws.js, for commands that start ws again (sandbox --detach). */
  binPath: string;
  /** The working directory: where files a command names or writes are resolved from. */
  cwd: string;
  config(): Promise<ProfileStore>;
  credentials(): Promise<Credentials>;
  /**
   * The API client, built on first use and the same for the whole command. Verbs do not
   * close it: main.ts closes it once the verb has returned or thrown.
   */
  client(): Promise<ApiClient>;
  /**
   * A client for other credentials than the command's (a profile being added, checked
   * before it is saved), with the same timeouts and retries; closed with the command's.
   */
  clientFor(creds: ClientCredentials): Promise<ApiClient>;
}

/** What a client needs to know of the credentials it sends. */
export type ClientCredentials = Pick<Credentials, 'baseUrl' | 'apiKey' | 'teamId' | 'rateLimit'>;

/** The dependencies of one command, and the end of their lifetime (see main.ts). */
export interface OwnedDeps extends Deps {
  /**
   * Before the verb runs: with --jq or --template, load the engine and check the
   * expression (a usage error before anything is sent), and route the JSON through it.
   */
  startOutput(): Promise<void>;
  /** Once the verb is done: what --jq or --template hold is shaped and printed. */
  endOutput(): Promise<void>;
  /** Close what was built (the API client's connections). Safe to call when nothing was. */
  close(): Promise<void>;
}

export interface DepsInit {
  io: IOStreams;
  env: Env;
  signal: AbortSignal;
  /** Registers what a second Ctrl-C does (see Deps.onAbandon); default: nothing. */
  onAbandon?: (handler: () => void) => () => void;
  /** Read when a command asks for it (working it out from the bundle's URL costs 1 ms). */
  binPath: () => string;
  cwd: string;
  clock?: Clock;
  prompter?: Prompter;
  /** Filled with the secrets in use, so that error reports can redact them. */
  secrets?: string[];
  /**
   * Passed to the API client (tests use it to skip or record backoff waits, or to send
   * through a stub).
   */
  clientOverrides?: Partial<ClientOptions>;
}

function positiveNumber(
  flag: string,
  value: string | undefined,
  fallback: number,
  allowZero = false,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw new UsageError(
      `${flag} takes a ${allowZero ? 'non-negative' : 'positive'} number, not "${value}".`,
    );
  }
  return n;
}

/** One process has one rate limiter per service and key, shared by every request. */
const limiters = new Map<string, RateLimiter>();

export function createDeps(init: DepsInit, flags: GlobalFlags): OwnedDeps {
  const { io, env } = init;
  io.configure({
    color: flags.color !== false,
    quiet: flags.quiet ?? false,
    debug: flags.debug ?? false,
    yes: flags.yes ?? false,
    noInput: flags.input === false,
  });
  const shape: ShapeRequest | undefined = shapeRequest(flags);
  const format = shape ? shapedFormat(flags) : resolveFormat(flags, io);
  io.wide = flags.wide ?? false;
  const fields = parseFields(flags.fields);
  const timeoutMs = positiveNumber('--timeout', flags.timeout, 30) * 1000;
  const retries = Math.floor(positiveNumber('--retries', flags.retries, 3, true));

  let store: Promise<ProfileStore> | undefined;
  let creds: Promise<Credentials> | undefined;
  let client: Promise<ApiClient> | undefined;
  let shaping: { end(): Promise<void> } | undefined;
  const others: Promise<ApiClient>[] = [];
  // The HTTP client loads only for commands that send requests.
  const build = async (c: ClientCredentials): Promise<ApiClient> => {
    const { ApiClient, RateLimiter } = await import('./api/client.ts');
    const key = `${c.baseUrl}\n${c.apiKey}\n${c.rateLimit}`;
    let limiter = limiters.get(key);
    if (limiter === undefined) {
      limiter = new RateLimiter(c.rateLimit);
      limiters.set(key, limiter);
    }
    return new ApiClient({
      baseUrl: c.baseUrl,
      apiKey: c.apiKey,
      teamId: c.teamId,
      io,
      limiter,
      timeoutMs,
      retries,
      signal: init.signal,
      env,
      userAgent: `ws/${VERSION} node/${process.versions.node}`,
      ...init.clientOverrides,
    });
  };
  const deps: OwnedDeps = {
    io,
    env,
    signal: init.signal,
    onAbandon: init.onAbandon ?? (() => () => {}),
    get binPath() {
      return init.binPath();
    },
    cwd: init.cwd,
    clock: init.clock ?? { now: () => new Date() },
    prompter: init.prompter ?? terminalPrompter(io),
    format,
    fields,
    flags,
    config() {
      store ??= ProfileStore.open(env);
      return store;
    },
    credentials() {
      creds ??= deps.config().then((s) => {
        const c = resolveCredentials(s, env, flags.profile);
        init.secrets?.push(c.apiKey);
        return c;
      });
      return creds;
    },
    async client() {
      client ??= deps.credentials().then(build);
      const made = await client;
      // Every request in flight listens to the command's signal; an import keeps up to 32 at
      // once and batch work up to 16 (--concurrency), past Node's default of 10 listeners and
      // its leak warning.
      setMaxListeners(100, init.signal);
      return made;
    },
    async startOutput() {
      if (shape === undefined || shaping !== undefined) return;
      const { startShaping } = await import('./output/shaping.ts');
      shaping = await startShaping(shape, {
        io,
        format,
        cwd: init.cwd,
        now: () => deps.clock.now(),
      });
    },
    async endOutput() {
      const s = shaping;
      shaping = undefined;
      await s?.end();
    },
    clientFor(c) {
      init.secrets?.push(c.apiKey);
      const made = build(c);
      others.push(made);
      return made;
    },
    async close() {
      const built = [client, ...others.splice(0)];
      client = undefined;
      for (const made of built) {
        const c = await made?.catch(() => undefined);
        await c?.close().catch((err: unknown) => {
          io.debug(`closing the API client: ${(err as Error).message}`);
        });
      }
    },
  };
  return deps;
}
