// The library entry `wsadmin/sandbox`: the sandbox in a user's own test process.
//
//   import { startSandbox } from 'wsadmin/sandbox';
//   const sb = await startSandbox({ teams: ['acme', 'globex'], seed: 'demo' });
//   // … point the code under test at sb.url with sb.team('acme').key …
//   await sb.stop();
//
// Each call starts an independent sandbox (its own port, teams, clock and data). The entry
// loads the sandbox alone, none of the CLI. Its types (lib-types.ts) ship as its .d.ts.

import { checkFaultSettings } from './faults.ts';
import type {
  Sandbox,
  SandboxFaults,
  SandboxSeed,
  SandboxSnapshot,
  StartSandbox,
  StartSandboxOptions,
} from './lib-types.ts';
import { launchSandbox } from './sandbox.ts';
import { type Snapshot, snapshotText } from './snapshot.ts';

export type * from './lib-types.ts';

export const startSandbox: StartSandbox = async (options: StartSandboxOptions = {}) => {
  const faults = options.faults ?? {};
  checkFaults(faults);
  const running = await launchSandbox({
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.teams === undefined ? {} : { teams: options.teams }),
    ...(options.snapshot === undefined ? {} : { snapshot: options.snapshot as string | Snapshot }),
    ...(options.dataFile === undefined ? {} : { dataFile: options.dataFile }),
    ...(options.log === undefined ? {} : { log: options.log }),
    ...faults,
  });
  const { runtime } = running;
  if (options.clock !== undefined) {
    const at = new Date(options.clock).getTime();
    if (!Number.isFinite(at)) {
      await running.close();
      throw new RangeError(
        `clock must be a date or an ISO-8601 time, got ${String(options.clock)}`,
      );
    }
    running.store.clock.setOffsetMs(at - Date.now());
  }
  const teams = running.teams.map(({ name, id, key }) => ({ name, id, key }));
  const sandbox: Sandbox = {
    url: running.url,
    teams,
    teamId: running.teamId,
    key: running.apiKey,
    team(name) {
      const team = teams.find((t) => t.name === name);
      if (team === undefined) {
        throw new Error(
          `The sandbox has no team ${name}; its teams: ${teams.map((t) => t.name).join(', ')}.`,
        );
      }
      return team;
    },
    reset: (resetOptions = {}) => runtime.reset(resetOptions),
    clock: {
      now: () => running.store.clock.now(),
      advance(seconds) {
        runtime.advanceClock(seconds);
        return running.store.clock.now();
      },
    },
    faults: {
      set(patch) {
        checkFaults(patch);
        runtime.faults.update(patch);
      },
      get: () => ({ ...runtime.faults.settings }),
    },
    async seed(records: SandboxSeed, seedOptions = {}) {
      const team = seedOptions.team === undefined ? teams[0]! : sandbox.team(seedOptions.team);
      const res = await fetch(`${running.url}/__sandbox/seed`, {
        method: 'POST',
        headers: { 'x-api-key': team.key, 'content-type': 'application/json' },
        body: JSON.stringify(records),
      });
      const body = (await res.json()) as { error?: { message: string } } & Awaited<
        ReturnType<Sandbox['seed']>
      >;
      if (!res.ok) throw new Error(body.error?.message ?? `The seed was answered ${res.status}.`);
      return { created: body.created, ids: body.ids };
    },
    snapshot: () => running.snapshot() as SandboxSnapshot,
    snapshotText: () => snapshotText(running.snapshot()),
    stop: () => running.close(),
  };
  return sandbox;
};

function checkFaults(faults: Partial<SandboxFaults>): void {
  const problems = checkFaultSettings(faults, 'camel');
  if (problems.length > 0) {
    throw new RangeError(`Invalid faults: ${problems.map((p) => p.message).join('; ')}`);
  }
}
