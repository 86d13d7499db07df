// What `npm install -g` of ws's package installs, and that it runs: the package is packed
// (from the dist/ that `npm test` built), installed into a temporary prefix with no network
// and an empty npm cache, and the installed `ws` prints its version and starts, uses and
// stops a detached sandbox. dist/ bundles every package ws loads, so the package declares no
// dependencies and the install holds ws's own files only.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** What the package holds at its top level: package.json's `files`, README.md and itself. */
const TOP_LEVEL = ['README.md', 'bin', 'completions', 'dist', 'openapi', 'package.json'];

/** The first part of each path, once each, sorted. */
const topLevel = (paths: string[]) => [...new Set(paths.map((p) => p.split('/')[0]))].sort();

let tmp: string;
let prefix: string;
let tarball: string;
let packed: string[];

/** npm with only this test's settings: an empty cache, no user config, nothing inherited from an npm run. */
function npm(args: string[]) {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  const r = spawnSync('npm', args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      ...env,
      npm_config_cache: join(tmp, 'npm-cache'),
      npm_config_userconfig: join(tmp, 'npmrc'),
      npm_config_update_notifier: 'false',
    },
  });
  assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** The installed `ws`, run as a user would (its #! line finds this test's node first). */
function ws(args: string[]) {
  const r = spawnSync(join(prefix, 'bin', 'ws'), args, {
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}`,
      WS_CONFIG_DIR: join(tmp, 'config'),
      FORCE_COLOR: '0',
      WS_PROFILE: '',
      WS_API_KEY: '',
      WS_TEAM_ID: '',
      WS_BASE_URL: '',
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ws-package-'));
  prefix = join(tmp, 'prefix');
  // --ignore-scripts: pack the dist/ already built (`prepare` would build it again).
  const [info] = JSON.parse(
    npm(['pack', '--ignore-scripts', '--json', '--pack-destination', tmp]),
  ) as { filename: string; files: { path: string }[] }[];
  tarball = join(tmp, info!.filename);
  packed = info!.files.map((f) => f.path);
});

after(() => {
  // A sandbox left running by a failed test (none is a harmless exit 4).
  if (existsSync(join(prefix, 'bin', 'ws'))) ws(['sandbox', 'stop']);
  rmSync(tmp, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the launcher, the bundle, completions, the contract and no sources', () => {
    assert.ok(packed.includes('bin/ws.js'));
    assert.ok(packed.includes('dist/ws.js'));
    assert.ok(packed.includes('dist/package.json'));
    assert.ok(packed.includes('dist/console/app.js'), 'the sandbox console page');
    assert.ok(packed.includes('dist/console/app.css'));
    assert.ok(packed.includes('completions/ws.bash'));
    assert.deepEqual(topLevel(packed), TOP_LEVEL);
  });

  it('declares no dependencies: dist/ bundles what ws loads', () => {
    assert.equal(pkg.dependencies, undefined);
    assert.equal(pkg.optionalDependencies, undefined);
    assert.equal(pkg.peerDependencies, undefined);
  });

  it('installs globally with no network and an empty cache, and nothing but ws', () => {
    npm([
      'install',
      '--global',
      '--prefix',
      prefix,
      '--offline',
      // Nothing listens there: a fetch would fail the install.
      '--registry',
      'http://127.0.0.1:9/',
      '--no-audit',
      '--no-fund',
      tarball,
    ]);
    const lib = join(prefix, 'lib', 'node_modules');
    assert.deepEqual(readdirSync(lib), [pkg.name]);
    const installed = join(lib, pkg.name);
    // What was packed, and no node_modules.
    assert.deepEqual(readdirSync(installed).sort(), TOP_LEVEL);
  });

  it('runs from the install: --version, and a detached sandbox started, used and stopped', async () => {
    const version = ws(['--version']);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout, `${pkg.version}\n`);

    const start = ws(['sandbox', 'start', '--detach', '--port', '0', '--json']);
    assert.equal(start.code, 0, start.stderr);
    const ready = JSON.parse(start.stdout) as { url: string };
    const status = ws(['sandbox', 'status', '--json']);
    assert.equal(status.code, 0, status.stderr);
    const s = JSON.parse(status.stdout) as { status: string; url: string; pid: number };
    assert.equal(s.status, 'running');
    assert.equal(s.url, ready.url);
    // The background sandbox is the installed ws too.
    if (process.platform === 'linux') {
      const cmdline = readFileSync(`/proc/${s.pid}/cmdline`, 'utf8').split('\0');
      assert.ok(
        cmdline.some((a) => a.startsWith(join(prefix, 'lib', 'node_modules', pkg.name, 'bin'))),
        cmdline.join(' '),
      );
    }
    // A request through the HTTP client.
    const count = ws(['api', 'GET', '/v2/prism/{teamId}/contact/count']);
    assert.equal(count.code, 0, count.stderr);
    assert.deepEqual(JSON.parse(count.stdout), { total: 0 });
    // Its console, signed in with the code `ws sandbox open` prints, serves its page.
    const open = ws(['sandbox', 'open', '--no-browser', '--json']);
    assert.equal(open.code, 0, open.stderr);
    const { code } = JSON.parse(open.stdout) as { code: string };
    const login = await fetch(`${ready.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code }).toString(),
    });
    assert.equal(login.status, 200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const app = await fetch(`${ready.url}/console/assets/app.js`, { headers: { cookie } });
    assert.equal(app.status, 200);
    assert.ok((await app.text()).length > 10_000, 'the console page is served from the install');

    const stop = ws(['sandbox', 'stop']);
    assert.equal(stop.code, 0, stop.stderr);
    assert.match(stop.stderr, /Stopped the sandbox/);
    assert.equal(ws(['sandbox', 'status']).code, 4);
  });
});
