// Kills a real `ws sandbox start --data F` process with SIGKILL while concurrent clients
// write to it, starts it again on the same file, and counts the acknowledged writes (a
// create answered 201, a patch answered 200 with its etag) that the restarted sandbox no
// longer has. Shared by test/sandbox/persist-crash.test.ts and bench/sandbox-persist.mjs.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/ws.js', import.meta.url));

export interface SandboxProcess {
  child: ChildProcess;
  url: string;
  apiKey: string;
  teamId: string;
}

/** `ws sandbox start --data file --port 0 --json`, ready to serve. */
export async function startSandboxProcess(
  file: string,
  extra: readonly string[] = [],
): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--data', file, '--port', '0', '--json', '--no-profile', ...extra],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WS_CONFIG_DIR: `${file}.config`, NO_COLOR: '1' },
    },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  child.stdout!.setEncoding('utf8');
  const ready = await new Promise<{ url: string; api_key: string; team_id: string }>(
    (resolve, reject) => {
      child.stdout!.on('data', (chunk: string) => {
        out += chunk;
        const line = out.split('\n')[0];
        if (out.includes('\n')) {
          try {
            resolve(JSON.parse(line!));
          } catch (error) {
            reject(error);
          }
        }
      });
      child.once('exit', (code) =>
        reject(new Error(`sandbox exited with ${code} before it was ready: ${err}`)),
      );
    },
  );
  child.stdout!.resume();
  return { child, url: ready.url, apiKey: ready.api_key, teamId: ready.team_id };
}

export async function kill9(sandbox: SandboxProcess): Promise<void> {
  if (sandbox.child.exitCode !== null || sandbox.child.signalCode !== null) return;
  const exited = once(sandbox.child, 'exit');
  sandbox.child.kill('SIGKILL');
  await exited;
}

/** What the clients were told: created ids, and the last etag version answered per id. */
export interface Acknowledged {
  created: Set<string>;
  versions: Map<string, number>;
}

function headersOf(sandbox: SandboxProcess): Record<string, string> {
  return { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' };
}

function base(sandbox: SandboxProcess): string {
  return `${sandbox.url}/v2/prism/${sandbox.teamId}/contact`;
}

/**
 * `clients` loops, each creating contacts and patching its own, until `stop` resolves (or a
 * request fails: the process is gone). Every answer received is recorded as acknowledged.
 */
export async function writeUntil(
  sandbox: SandboxProcess,
  clients: number,
  stop: Promise<void>,
  acknowledged: Acknowledged,
  onFirstAnswer: () => void = () => {},
): Promise<number> {
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  let writes = 0;
  const client = async (n: number) => {
    const mine: string[] = [];
    for (let i = 0; !stopped; i++) {
      try {
        if (mine.length > 0 && i % 3 === 2) {
          const id = mine[i % mine.length]!;
          const res = await fetch(`${base(sandbox)}/${id}`, {
            method: 'PATCH',
            headers: headersOf(sandbox),
            body: JSON.stringify({ default: { name: `Writer ${n} #${i} patched` } }),
          });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
          const version = Number(/^"v(\d+)"$/.exec(res.headers.get('etag') ?? '')?.[1]);
          acknowledged.versions.set(id, version);
        } else {
          const res = await fetch(base(sandbox), {
            method: 'POST',
            headers: { ...headersOf(sandbox), 'idempotency-key': `c${n}-${i}-${Math.random()}` },
            body: JSON.stringify({ default: { name: `Writer ${n} #${i}` } }),
          });
          const body = (await res.json()) as { id: string };
          if (res.status !== 201) throw new Error(`POST answered ${res.status}`);
          acknowledged.created.add(body.id);
          acknowledged.versions.set(body.id, 1);
          mine.push(body.id);
        }
        if (writes++ === 0) onFirstAnswer();
      } catch {
        return; // the process is gone (or going): no answer, nothing acknowledged
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, n) => client(n)));
  return writes;
}

/** The acknowledged writes the sandbox does not have: missing records, older versions. */
export async function countLost(sandbox: SandboxProcess, acknowledged: Acknowledged) {
  const ids = [...acknowledged.versions.keys()];
  const found = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 50) {
    const res = await fetch(`${base(sandbox)}/query`, {
      method: 'POST',
      headers: headersOf(sandbox),
      body: JSON.stringify({ id: ids.slice(i, i + 50), query: { select: [], limit: 50 } }),
    });
    const page = (await res.json()) as { data: { id: string }[] };
    if (res.status !== 200) throw new Error(`query answered ${res.status}`);
    for (const row of page.data) found.set(row.id, 0);
  }
  let lostCreates = 0;
  let lostPatches = 0;
  const stale: string[] = [];
  for (const [id, version] of acknowledged.versions) {
    if (!found.has(id)) {
      if (acknowledged.created.has(id)) lostCreates++;
      else lostPatches++;
      continue;
    }
    if (version > 1) stale.push(id);
  }
  for (const id of stale) {
    const res = await fetch(`${base(sandbox)}/${id}`, { headers: headersOf(sandbox) });
    await res.arrayBuffer();
    const version = Number(/^"v(\d+)"$/.exec(res.headers.get('etag') ?? '')?.[1]);
    if (!(version >= acknowledged.versions.get(id)!)) lostPatches++;
  }
  return { lostCreates, lostPatches, lost: lostCreates + lostPatches };
}

export interface KillRound {
  writes: number;
  lost: number;
  lostCreates: number;
  lostPatches: number;
}

/**
 * `rounds` times: start the sandbox on `file`, write with `clients` clients for a random
 * time in [minMs, maxMs) after the first answer, kill -9; then start again and count what the clients were told
 * and the file lost. One round per kill, each checked against the writes of that round.
 */
export async function killRounds(
  file: string,
  options: { rounds: number; clients: number; minMs: number; maxMs: number },
): Promise<KillRound[]> {
  const rounds: KillRound[] = [];
  let sandbox = await startSandboxProcess(file);
  try {
    for (let r = 0; r < options.rounds; r++) {
      const acknowledged: Acknowledged = { created: new Set(), versions: new Map() };
      const ms = options.minMs + Math.random() * (options.maxMs - options.minMs);
      let writing: () => void = () => {};
      const killed = new Promise<void>((resolve) => {
        writing = () =>
          setTimeout(() => {
            kill9(sandbox).then(resolve, resolve);
          }, ms);
      });
      // The kill falls `ms` after the first answer (the first write of a process compiles
      // the request checks: it takes longer than the others).
      const writes = await writeUntil(sandbox, options.clients, killed, acknowledged, writing);
      await killed;
      sandbox = await startSandboxProcess(file);
      rounds.push({ writes, ...(await countLost(sandbox, acknowledged)) });
    }
  } finally {
    await kill9(sandbox);
  }
  return rounds;
}

/** Kills during writes per test file (two files: 20 kills; the benchmark makes more). */
export const ROUNDS = 10;

/** ROUNDS kill rounds on `file`: the clients wrote, and no acknowledged write was lost. */
export async function assertNothingLost(file: string): Promise<void> {
  const rounds = await killRounds(file, { rounds: ROUNDS, clients: 6, minMs: 30, maxMs: 300 });
  const writes = rounds.reduce((sum, round) => sum + round.writes, 0);
  const lost = rounds.filter((round) => round.lost > 0);
  assert.ok(writes > ROUNDS, `the clients wrote (${writes} acknowledged writes)`);
  assert.deepEqual(lost, [], `acknowledged writes lost after ${lost.length} of ${ROUNDS} kills`);
}
