import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { ConflictError, UsageError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
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

interface Ready {
  url: string;
  api_key: string;
  team_id: string;
}

const PROFILE = 'sandbox';

async function saveProfile(deps: Deps, ready: Ready, rateLimit: number): Promise<string> {
  const store = await deps.config();
  const isDefault = await store.set(
    PROFILE,
    { base_url: ready.url, team_id: ready.team_id, api_key: ready.api_key, rate_limit: rateLimit },
    'if-none',
  );
  const def = store.defaultName();
  if (isDefault) {
    return `Saved as profile "${PROFILE}" (the default).`;
  }
  return `Saved as profile "${PROFILE}"; use it with --profile ${PROFILE} or \`ws profile use ${PROFILE}\` (the default is "${def}").`;
}

function announce(deps: Deps, ready: Ready, lines: string[]): void {
  const { io } = deps;
  if (deps.format === 'json' || deps.format === 'ndjson') {
    io.println(JSON.stringify({ url: ready.url, api_key: ready.api_key, team_id: ready.team_id }));
  } else if (deps.format === 'table') {
    io.println(`${io.out.green('Sandbox ready')} at ${io.out.bold(ready.url)}`);
    io.println(`  team id  ${ready.team_id}`);
    io.println(`  api key  ${ready.api_key}`);
  } else {
    io.println(`url\t${ready.url}`);
    io.println(`api_key\t${ready.api_key}`);
    io.println(`team_id\t${ready.team_id}`);
  }
  for (const l of lines) io.info(l);
}

/** Hosts that only this machine can reach. */
function loopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function run(opts: StartOptions, deps: Deps): Promise<void> {
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
    throw new WsError(err instanceof Error ? err.message : String(err), {
      cause: err,
      code: 'internal',
    });
  }
  const ready: Ready = { url: sandbox.url, api_key: sandbox.apiKey, team_id: sandbox.teamId };
  if (!loopback(opts.host)) {
    io.warn(
      `The sandbox listens on ${opts.host} port ${sandbox.port}: anyone who can reach this machine can reach it, and its API key is the only guard. Use --host 127.0.0.1 unless other machines need it.`,
    );
  }
  const lines: string[] = [];
  if (opts.profile) lines.push(await saveProfile(deps, ready, opts.rateLimit));
  if (opts.data) lines.push(`State is kept in ${opts.data}.`);
  if (opts.console !== false) {
    lines.push(`Console: ${sandbox.url}/console/ (sign in with \`ws sandbox open\`).`);
  }
  lines.push('Press Ctrl-C to stop.');
  announce(deps, ready, lines);

  await new Promise<void>((resolve) => {
    if (deps.signal.aborted) resolve();
    else deps.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  io.info('Sandbox stopped.');
  // Ctrl-C (or SIGTERM) is how a foreground sandbox ends: exit 130, as the contract says.
  throw stopped();
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
  if (opts.profile) lines.push(await saveProfile(deps, ready, opts.rateLimit));
  lines.push(
    `Running in the background (pid ${info.pid}, log ${log}). Stop it with \`ws sandbox stop\`.`,
  );
  announce(deps, ready, lines);
}
