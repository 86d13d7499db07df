// `ws sandbox start --team … --import … --export-on-exit …`, `ws sandbox export` and
// `ws sandbox seed`, run as a user runs them: the built ws, spawned, against its own sandbox.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempConfigDir } from '../helpers/run.ts';
import { BIN, spawnWs, wsEnv } from '../helpers/spawned.ts';

let config: { dir: string; cleanup: () => void };
before(() => {
  config = tempConfigDir();
});
after(() => config.cleanup());

/** ws run to its end. */
function ws(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env: wsEnv(config.dir),
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface ReadyTeam {
  name: string;
  team_id: string;
  api_key: string;
  profile: string;
}

/** A foreground `ws sandbox start` with `args`; its ready line, and a stop that awaits the exit. */
async function start(args: string[]) {
  const child = spawnWs(['sandbox', 'start', '--port', '0', '--json', ...args], wsEnv(config.dir));
  const line = await child.waitFor((l) => l.startsWith('{'), 'the ready line');
  const ready = JSON.parse(line) as { url: string; team_id: string; teams: ReadyTeam[] };
  return {
    ready,
    child,
    stop: async () => {
      child.child.kill('SIGINT');
      return child.exited;
    },
  };
}

describe('ws sandbox start with teams, snapshots and seeds', () => {
  it('serves two teams, saves a profile for each, and a key acts for its own team only', async () => {
    const sb = await start(['--team', 'acme', '--team', 'globex']);
    try {
      assert.deepEqual(
        sb.ready.teams.map((t) => [t.name, t.profile]),
        [
          ['acme', 'sandbox'],
          ['globex', 'sandbox-globex'],
        ],
      );
      const profiles = JSON.parse(ws(['profile', 'list', '--json']).stdout) as { name: string }[];
      assert.ok(profiles.some((p) => p.name === 'sandbox'));
      assert.ok(profiles.some((p) => p.name === 'sandbox-globex'));
      const made = ws([
        'records',
        'create',
        'contact',
        '--set',
        'name=Ada',
        '--profile',
        'sandbox',
        '--json',
      ]);
      assert.equal(made.code, 0, made.stderr);
      const acme = sb.ready.teams[0]!;
      const across = ws([
        'api',
        'GET',
        `/v2/prism/${acme.team_id}/contact`,
        '--profile',
        'sandbox-globex',
      ]);
      assert.equal(across.code, 3, across.stderr);
      assert.match(across.stderr, /403/);
      const count = ws(['records', 'count', 'contact', '--profile', 'sandbox-globex', '--json']);
      assert.equal(count.code, 0, count.stderr);
      assert.equal(JSON.parse(count.stdout).total ?? JSON.parse(count.stdout).count, 0);
    } finally {
      assert.equal(await sb.stop(), 130);
    }
    const bad = ws(['sandbox', 'start', '--team', 'Not A Name', '--port', '0']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--team "Not A Name" is not a team name/);
  });

  it('seeds quietly, exports, and starts again from the export: the same bytes', async () => {
    const first = join(config.dir, 'first.json');
    const onExit = join(config.dir, 'on-exit.json');
    const seedFile = join(config.dir, 'seed.json');
    writeFileSync(
      seedFile,
      JSON.stringify({
        records: {
          contact: Array.from({ length: 50 }, (_, i) => ({ default: { name: `Person ${i}` } })),
        },
      }),
    );
    const sb = await start(['--export-on-exit', onExit]);
    try {
      const seeded = ws(['sandbox', 'seed', seedFile, '--profile', 'sandbox']);
      assert.equal(seeded.code, 0, seeded.stderr);
      assert.match(
        seeded.stderr,
        /Seeded 50 contact records: no automation ran and no delivery was made/,
      );
      const exported = ws(['sandbox', 'export', first, '--profile', 'sandbox']);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(exported.stderr, /Exported a snapshot of 1 team \(50 records\) to /);
      assert.equal(statSync(first).mode & 0o777, 0o600);
    } finally {
      assert.equal(await sb.stop(), 130);
    }
    assert.equal(readFileSync(onExit, 'utf8'), readFileSync(first, 'utf8'));
    const again = await start(['--import', first, '--no-profile']);
    try {
      const env = wsEnv(config.dir, {
        WS_BASE_URL: again.ready.url,
        WS_API_KEY: again.ready.teams[0]!.api_key,
        WS_TEAM_ID: again.ready.team_id,
      });
      const r = spawnSync(process.execPath, [BIN, 'sandbox', 'export', '-'], {
        env,
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, readFileSync(first, 'utf8'));
    } finally {
      await again.stop();
    }
  });

  it("starts from a clone of a profile's workspace with --from", async () => {
    // The workspace: a sandbox with the demo data, saved as profile "sandbox".
    const source = await start(['--seed', 'demo']);
    try {
      const clone = await start(['--from', 'sandbox', '--sample', '5', '--no-profile']);
      try {
        assert.match(
          clone.child.stderr(),
          /Cloned sandbox's workspace \(\d+ records, \d+ requests\) into /,
        );
        const env = wsEnv(config.dir, {
          WS_BASE_URL: clone.ready.url,
          WS_API_KEY: clone.ready.teams[0]!.api_key,
          WS_TEAM_ID: clone.ready.team_id,
        });
        const count = (type: string, e: NodeJS.ProcessEnv) => {
          const r = spawnSync(process.execPath, [BIN, 'records', 'count', type, '--json'], {
            env: e,
            encoding: 'utf8',
          });
          assert.equal(r.status, 0, r.stderr);
          return JSON.parse(r.stdout).total as number;
        };
        const inClone = count('deal', env);
        assert.ok(inClone >= 1 && inClone <= 5, `${inClone} deals`);
        assert.ok(count('deal', wsEnv(config.dir, { WS_PROFILE: 'sandbox' })) > inClone);
      } finally {
        await clone.stop();
      }
    } finally {
      await source.stop();
    }
    const both = ws(['sandbox', 'start', '--from', 'sandbox', '--import', 'x.json']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--from and --import both say what the sandbox starts from/);
  });

  it('refuses a damaged snapshot with the reason and leaves the file as it was', () => {
    const file = join(config.dir, 'damaged.json');
    const text = '{"format":"ws-sandbox-snapshot","version":1,"clock_offset_ms":0,"teams":[]}';
    writeFileSync(file, text);
    const r = ws(['sandbox', 'start', '--port', '0', '--import', file]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /is damaged: it has no teams/);
    assert.match(r.stderr, /Check the file given with --import/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(readFileSync(file, 'utf8'), text);
    const seedBad = join(config.dir, 'seed-bad.json');
    writeFileSync(seedBad, '{"records": {"contact": [');
    const s = ws(['sandbox', 'seed', seedBad]);
    assert.equal(s.code, 2);
    assert.match(s.stderr, /is not JSON/);
  });
});
