// The types of the library entry `wsadmin/sandbox` (lib.ts), as its users see them. This
// file declares types only, so it is also the entry's .d.ts as shipped (the build copies it
// to dist/sandbox.d.ts with the declaration of startSandbox); lib.ts is checked against it.

/** A team of the sandbox: its name, its team id (in every API path) and its API key. */
export interface SandboxTeamInfo {
  readonly name: string;
  readonly id: string;
  readonly key: string;
}

/** A team asked for: a name, or a name with the id and key it should have. */
export type SandboxTeamOption = string | { name: string; id?: string; key?: string };

/** Faults the sandbox injects into API answers (never into its control endpoints). */
export interface SandboxFaults {
  /** 0..1: answer 500, 502, 503 or drop the connection, before doing anything. */
  failRate: number;
  /** 0..1: on writes, do the work, then drop the connection unanswered. */
  failAfterCommit: number;
  /** Added before every API answer (ms). */
  latencyMs: number;
  /** Requests per second per key, then 429 with Retry-After (0: no limit). */
  rateLimit: number;
  /** Request bodies over this many bytes are answered 413 (at most 10 MiB). */
  maxBodyBytes: number;
}

/** A snapshot of a sandbox, as `ws sandbox export` writes it (JSON; see the sandbox docs). */
export interface SandboxSnapshot {
  format: 'ws-sandbox-snapshot';
  version: 1;
  clock_offset_ms: number;
  teams: { name: string; id: string; slices: Record<string, unknown> }[];
}

/** Records to seed: by object type, each with its values (and the id it should have). */
export interface SandboxSeed {
  records: Record<
    string,
    {
      id?: string;
      default: Record<string, unknown>;
      list?: Record<string, Record<string, unknown>>;
    }[]
  >;
}

export interface StartSandboxOptions {
  /** Fill each team with the demo workspace. */
  seed?: 'demo';
  /** Start from a snapshot: a file's path, or the object `snapshot()` gave. Nothing in it fires. */
  snapshot?: string | SandboxSnapshot;
  /** The teams (default one, named "default"); each has its own key and data. */
  teams?: readonly SandboxTeamOption[];
  /** Where the sandbox clock starts (default: now); it then runs with real time. */
  clock?: string | Date;
  /** Faults to inject from the start (see faults.set). */
  faults?: Partial<SandboxFaults>;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Keep the state in this file (mode 0600), loaded at start. Default: memory only. */
  dataFile?: string;
  /** One line per request and unexpected errors (default: silent). */
  log?: (line: string) => void;
}

export interface Sandbox {
  /** The base URL of the API, e.g. http://127.0.0.1:41234 (a profile's base_url). */
  readonly url: string;
  /** Every team, the first first. */
  readonly teams: readonly SandboxTeamInfo[];
  /** The first team's id and key. */
  readonly teamId: string;
  readonly key: string;
  /** The team named `name` (an Error names the teams there are when there is none). */
  team(name: string): SandboxTeamInfo;
  /** Empty every team (keys and teams stay); with seed 'demo', refill them. */
  reset(options?: { seed?: 'demo' }): void;
  readonly clock: {
    /** The sandbox's time. */
    now(): Date;
    /** Move it forward (never back) by `seconds`: waits that fall due proceed. Its new time. */
    advance(seconds: number): Date;
  };
  readonly faults: {
    /** Change some faults (the others stay); a RangeError for a value out of range. */
    set(faults: Partial<SandboxFaults>): void;
    get(): SandboxFaults;
  };
  /** Records written into a team (default the first) firing no automation and no delivery. */
  seed(
    records: SandboxSeed,
    options?: { team?: string },
  ): Promise<{ created: Record<string, number>; ids: string[] }>;
  /** The snapshot of every team (what `ws sandbox export` writes). */
  snapshot(): SandboxSnapshot;
  /** The snapshot as its file holds it: sorted keys, 2 spaces, a final newline. */
  snapshotText(): string;
  /** Stop: the port is closed and the data file (if any) flushed. */
  stop(): Promise<void>;
}

export type StartSandbox = (options?: StartSandboxOptions) => Promise<Sandbox>;
