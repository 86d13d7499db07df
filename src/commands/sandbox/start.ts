import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, UsageError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { plural } from '../../output/plural.ts';
import { writeFileAtomic } from '../../util/file-lock.ts';
import { sleep } from '../../util/time.ts';
import { stopped } from '../common/stop.ts';
import { logPath, type PidFile, pidPath, readPidFile } from './shared.ts';
import type { WebhookFlags } from './webhook-flags.ts';

export interface StartOptions {
  host: string;
  port: number;
  apiKey?: string | undefined;
  teamId?: string | undefined;
  data?: string | undefined;
  fsync?: 'always' | 'everysec' | 'no' | undefined;
  seed?: 'demo' | undefined;
  /** --team NAME, repeated: the sandbox's teams (the first is the one `sandbox` names). */
  teams: string[];
  /** --import FILE: start from this snapshot. */
  importFile?: string | undefined;
  /** --export-on-exit FILE: write a snapshot here when the sandbox stops. */
  exportOnExit?: string | undefined;
  /** --from PROFILE: start from a clone of that profile's workspace (with --sample, --scrub). */
  from?: string | undefined;
  sample?: number | undefined;
  scrub?: boolean | undefined;
  latency: number;
  failRate: number;
  failAfterCommit: number;
  rateLimit: number;
  maxBodyBytes?: number | undefined;
  webhooks: WebhookFlags;
  profile: boolean;
  /** Serve the console under /console (default true; --no-console). */
  console?: boolean | undefined;
  detach: boolean;
  /** The arguments as given, to start a detached copy with. */
  argv: string[];
}

interface ReadyTeam {
  name: string;
  team_id: string;
  api_key: string;
  /** The profile saved for it: `sandbox` for the first team, `sandbox-NAME` for the others. */
  profile: string;
}

/** What a started sandbox prints (one JSON line with --json; the first team's fields on top). */
interface Ready {
  url: string;
  api_key: string;
  team_id: string;
  teams: ReadyTeam[];
}

const PROFILE = 'sandbox';

/** The profile of the sandbox's team `index` (named `name`). */
function profileOf(index: number, name: string): string {
  return index === 0 ? PROFILE : `${PROFILE}-${name}`;
}

/** Save one profile per team; the lines that say so. */
async function saveProfiles(deps: Deps, ready: Ready, rateLimit: number): Promise<string[]> {
  const store = await deps.config();
  const lines: string[] = [];
  for (const team of ready.teams) {
    const isDefault = await store.set(
      team.profile,
      { base_url: ready.url, team_id: team.team_id, api_key: team.api_key, rate_limit: rateLimit },
      'if-none',
    );
    const of = ready.teams.length > 1 ? ` for team ${team.name}` : '';
    if (isDefault) lines.push(`Saved as profile "${team.profile}"${of} (the default).`);
    else if (team.profile === PROFILE) {
      lines.push(
        `Saved as profile "${PROFILE}"${of}; use it with --profile ${PROFILE} or \`ws profile use ${PROFILE}\` (the default is "${store.defaultName()}").`,
      );
    } else
      lines.push(`Saved as profile "${team.profile}"${of}; use it with --profile ${team.profile}.`);
  }
  return lines;
}

function announce(deps: Deps, ready: Ready, lines: string[]): void {
  const { io } = deps;
  const several = ready.teams.length > 1;
  if (deps.format === 'json' || deps.format === 'ndjson') {
    io.println(JSON.stringify(ready));
  } else if (deps.format === 'table') {
    io.println(`${io.out.green('Sandbox ready')} at ${io.out.bold(ready.url)}`);
    for (const team of ready.teams) {
      if (several) io.println(`  team ${io.out.bold(team.name)} (profile ${team.profile})`);
      io.println(`${several ? '    ' : '  '}team id  ${team.team_id}`);
      io.println(`${several ? '    ' : '  '}api key  ${team.api_key}`);
    }
  } else {
    io.println(`url\t${ready.url}`);
    io.println(`api_key\t${ready.api_key}`);
    io.println(`team_id\t${ready.team_id}`);
    if (several) {
      for (const team of ready.teams) {
        io.println(`team\t${team.name}\t${team.team_id}\t${team.api_key}\t${team.profile}`);
      }
    }
  }
  for (const l of lines) io.info(l);
}

/** Hosts that only this machine can reach. */
function loopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function run(given: StartOptions, deps: Deps): Promise<void> {
  const opts = given.from === undefined ? given : await cloneFirst(given, deps);
  if (opts.detach) return detach(opts, deps);
  const { io } = deps;
  const { startSandbox } = await import('../../sandbox/index.ts');
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      host: opts.host,
      port: opts.port,
      ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
      ...(opts.teamId ? { teamId: opts.teamId } : {}),
      ...(opts.data ? { dataFile: opts.data } : {}),
      ...(opts.fsync ? { fsync: opts.fsync } : {}),
      ...(opts.seed ? { seed: opts.seed } : {}),
      ...(opts.teams.length > 0 ? { teams: opts.teams } : {}),
      ...(opts.importFile ? { snapshot: opts.importFile } : {}),
      latencyMs: opts.latency,
      failRate: opts.failRate,
      failAfterCommit: opts.failAfterCommit,
      rateLimit: opts.rateLimit,
      ...(opts.maxBodyBytes !== undefined ? { maxBodyBytes: opts.maxBodyBytes } : {}),
      webhooks: opts.webhooks,
      console: opts.console !== false,
      ...(io.quiet ? {} : { log: (line: string) => io.stderr.write(`${io.err.dim(line)}\n`) }),
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { cause?: { code?: string } };
    const code = e.code ?? e.cause?.code;
    if (code === 'EADDRINUSE') {
      throw new ConflictError(
        `Port ${opts.port} on ${opts.host} is already in use.`,
        'Pick another with --port N, or --port 0 for any free port.',
      );
    }
    if (e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL') {
      throw new UsageError(
        `Cannot listen on ${opts.host}:${opts.port} (${e.code}).`,
        'Use --host 127.0.0.1 and a port above 1024.',
      );
    }
    if (err instanceof WsError) throw err;
    // A --data file that cannot be read or is not a sandbox's: bad input, named by a flag.
    if (err instanceof Error && err.name === 'DataFileError')
      throw new UsageError(err.message, 'Check the file given with --data.');
    if (err instanceof Error && err.name === 'SnapshotFileError') {
      throw new UsageError(
        err.message,
        'Check the file given with --import: a snapshot is written by `ws sandbox export FILE` or --export-on-exit (the file was left as it is).',
      );
    }
    throw new WsError(err instanceof Error ? err.message : String(err), {
      cause: err,
      code: 'internal',
    });
  }
  const ready: Ready = {
    url: sandbox.url,
    api_key: sandbox.apiKey,
    team_id: sandbox.teamId,
    teams: sandbox.teams.map((team, i) => ({
      name: team.name,
      team_id: team.id,
      api_key: team.key,
      profile: profileOf(i, team.name),
    })),
  };
  if (!loopback(opts.host)) {
    io.warn(
      `The sandbox listens on ${opts.host} port ${sandbox.port}: anyone who can reach this machine can reach it, and its API key is the only guard. Use --host 127.0.0.1 unless other machines need it.`,
    );
  }
  const lines: string[] = [];
  if (opts.profile) lines.push(...(await saveProfiles(deps, ready, opts.rateLimit)));
  if (opts.importFile) lines.push(`Started from the snapshot ${opts.importFile}.`);
  if (opts.data) lines.push(`State is kept in ${opts.data}.`);
  if (opts.exportOnExit) lines.push(`A snapshot goes to ${opts.exportOnExit} when it stops.`);
  if (opts.console !== false) {
    lines.push(`Console: ${sandbox.url}/console/ (sign in with \`ws sandbox open\`).`);
  }
  lines.push('Press Ctrl-C to stop.');
  announce(deps, ready, lines);

  await new Promise<void>((resolve) => {
    if (deps.signal.aborted) resolve();
    else deps.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  let exported: unknown;
  if (opts.exportOnExit) {
    try {
      const { snapshotText } = await import('../../sandbox/snapshot.ts');
      writeFileAtomic(opts.exportOnExit, snapshotText(sandbox.snapshot()));
    } catch (err) {
      exported = err;
    }
  }
  await sandbox.close();
  if (exported !== undefined) {
    throw new WsError(
      `The sandbox stopped, but its snapshot could not be written to ${opts.exportOnExit}: ${(exported as Error).message}`,
      { cause: exported, hint: 'Check the directory exists and can be written to.' },
    );
  }
  if (opts.exportOnExit) io.info(`Snapshot written to ${opts.exportOnExit}.`);
  io.info('Sandbox stopped.');
  // Ctrl-C (or SIGTERM) is how a foreground sandbox ends: exit 130, as the contract says.
  throw stopped();
}

/**
 * --from PROFILE: clone that workspace (src/clone/clone.ts, as `ws sandbox clone` does) into
 * clone-PROFILE.json of the config directory, then start from it as from --import. An
 * interrupted clone continues from its checkpoint when started again.
 */
async function cloneFirst(opts: StartOptions, deps: Deps): Promise<StartOptions> {
  const store = await deps.config();
  mkdirSync(store.dir, { recursive: true, mode: 0o700 });
  const file = join(store.dir, `clone-${opts.from!.replace(/[^\w.-]/g, '_')}.json`);
  const { cloneWorkspace } = await import('../../clone/clone.ts');
  const summary = await cloneWorkspace(
    {
      profile: opts.from!,
      to: file,
      ...(opts.sample === undefined ? {} : { sample: opts.sample }),
      scrub: opts.scrub === true,
      force: true,
    },
    deps,
  );
  const records = Object.values(summary.copied.records).reduce((n, c) => n + (c ?? 0), 0);
  deps.io.info(
    `Cloned ${summary.profile}'s workspace (${plural(records, 'record')}, ${plural(summary.requests.spent, 'request')}) into ${file}${summary.left_out.length > 0 ? `; left out: ${summary.left_out.length} (\`ws sandbox clone ${summary.profile} --to FILE\` lists them)` : ''}.`,
  );
  return { ...opts, from: undefined, importFile: file, argv: [...opts.argv, '--import', file] };
}

async function detach(opts: StartOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const running = readPidFile(store.dir);
  if (running) {
    throw new ConflictError(
      `A sandbox is already running at ${running.url} (pid ${running.pid}).`,
      'Stop it first with `ws sandbox stop`.',
    );
  }
  mkdirSync(store.dir, { recursive: true, mode: 0o700 });
  const log = logPath(store.dir);
  const fd = openSync(log, 'w', 0o600);
  const args = opts.argv.filter((a) => a !== '--detach' && a !== '--json' && a !== '--no-profile');
  const child = spawn(
    process.execPath,
    [deps.binPath, 'sandbox', 'start', ...args, '--json', '--no-profile'],
    {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: { ...deps.env, FORCE_COLOR: '0' },
    },
  );
  closeSync(fd);
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? 1;
  });
  let ready: Ready | undefined;
  for (let waited = 0; waited < 20_000 && !ready; waited += 100) {
    await sleep(100, deps.signal);
    const text = readFileSync(log, 'utf8');
    const line = text.split('\n').find((l) => l.startsWith('{"url"'));
    if (line) ready = JSON.parse(line) as Ready;
    else if (exited !== null) {
      const tail = text.trim().split('\n').slice(-5).join('\n');
      throw new WsError(`The sandbox did not start (exit ${exited}).`, {
        hint: tail || `See ${log}.`,
      });
    }
  }
  if (!ready) {
    child.kill('SIGTERM');
    throw new WsError('The sandbox did not become ready within 20 seconds.', {
      hint: `See ${log}.`,
    });
  }
  child.unref();
  const info: PidFile = {
    pid: child.pid!,
    url: ready.url,
    team_id: ready.team_id,
    started_at: deps.clock.now().toISOString(),
    log,
    data: opts.data,
  };
  writeFileSync(pidPath(store.dir), JSON.stringify(info, null, 2), { mode: 0o600 });
  const lines: string[] = [];
  if (opts.profile) lines.push(...(await saveProfiles(deps, ready, opts.rateLimit)));
  lines.push(
    `Running in the background (pid ${info.pid}, log ${log}). Stop it with \`ws sandbox stop\`.`,
  );
  announce(deps, ready, lines);
}
