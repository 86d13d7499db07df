// End to end: the built `ws` binary, spawned as a user runs it, against a sandbox it
// started itself.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { tempConfigDir } from '../helpers/run.ts';

const BIN = new URL('../../bin/ws.js', import.meta.url).pathname;
const ROOT = new URL('../..', import.meta.url).pathname;

let dir: string;
let cleanup: () => void;
const env = () => ({
  ...process.env,
  WS_CONFIG_DIR: dir,
  FORCE_COLOR: '0',
  NO_COLOR: '',
  WS_PROFILE: '',
  WS_API_KEY: '',
  WS_TEAM_ID: '',
  WS_BASE_URL: '',
});

function ws(args: string[], input?: string, extra: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...env(), ...extra },
    input: input ?? '',
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function startForeground(args: string[]): Promise<{
  child: ChildProcess;
  ready: { url: string; api_key: string; team_id: string };
  stderr: () => string;
}> {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--port', '0', '--json', ...args],
    {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const ready = await new Promise<{ url: string; api_key: string; team_id: string }>(
    (resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
      child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${err}`)));
    },
  );
  return { child, ready, stderr: () => err };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

before(() => {
  ({ dir, cleanup } = tempConfigDir());
});
after(() => {
  ws(['sandbox', 'stop']);
  cleanup();
});

describe('the ws binary', () => {
  it('prints its version and help', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const v = ws(['--version']);
    assert.equal(v.code, 0);
    assert.equal(v.stdout, `${pkg.version}\n`);
    // Alone, it is answered before the bundle loads; with other flags, by the bundle.
    const hook = join(dir, 'files-hook.cjs');
    writeFileSync(
      hook,
      "process.on('exit', () => process.stderr.write(JSON.stringify(Object.keys(require.cache))));",
    );
    const loadedFiles = (args: string[]) => {
      const r = spawnSync(process.execPath, ['-r', hook, BIN, ...args], {
        env: env(),
        encoding: 'utf8',
      });
      return { stdout: r.stdout, files: JSON.parse(r.stderr) as string[] };
    };
    for (const flag of ['--version', '-V']) {
      const alone = loadedFiles([flag]);
      assert.equal(alone.stdout, `${pkg.version}\n`);
      assert.deepEqual(
        alone.files.filter((f) => f.includes(`${ROOT}dist`)),
        [],
        flag,
      );
    }
    const parsed = loadedFiles(['--version', '--no-color']);
    assert.equal(parsed.stdout, `${pkg.version}\n`);
    assert.ok(parsed.files.some((f) => f.endsWith('dist/ws.js')));
    const h = ws(['--help']);
    assert.equal(h.code, 0);
    assert.match(h.stdout, /Usage: ws \[flags\] \[command\]/);
    for (const noun of ['profile', 'auth', 'whoami', 'api', 'sandbox', 'completion'])
      assert.match(h.stdout, new RegExp(`\\n  ${noun}\\b`));
    assert.equal(h.stderr, '');
  });

  it('with --debug or WS_DEBUG, a stack trace names the sources (src/*.ts), not the bundle', () => {
    const plain = ws(['profile', 'show', '--bogus']);
    assert.equal(plain.code, 2);
    assert.doesNotMatch(plain.stderr, /\n\s+at /);
    for (const r of [
      ws(['profile', 'show', '--bogus', '--debug']),
      ws(['profile', 'show', '--bogus'], '', { WS_DEBUG: '1' }),
    ]) {
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        /UsageError: Unknown option '--bogus'\n\s+at .*\bsrc\/[\w/]+\.ts:\d+:\d+/,
      );
      assert.doesNotMatch(r.stderr, /dist\/ws\.js:/);
    }
  });

  it('starts a sandbox in the foreground: one JSON line, a saved profile, and a clean stop on SIGINT', async () => {
    const { child, ready } = await startForeground(['--quiet']);
    assert.match(ready.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(ready.api_key, /^wsk_sandbox_[0-9a-f]{32}$/);
    assert.match(ready.team_id, /^[0-9a-f-]{36}$/);
    const status = ws(['auth', 'status', '--json']);
    assert.equal(status.code, 0, status.stderr);
    assert.deepEqual(
      { ...JSON.parse(status.stdout), request_id: 'x' },
      {
        profile: 'sandbox',
        base_url: ready.url,
        team_id: ready.team_id,
        api_key: `…${ready.api_key.slice(-4)}`,
        api_key_source: 'profile sandbox',
        status: 'ok',
        request_id: 'x',
      },
    );
    assert.equal(statSync(join(dir, 'config.json')).mode & 0o777, 0o600);
    child.kill('SIGINT');
    assert.equal(await exited(child), 130, 'Ctrl-C ends a foreground sandbox: exit 130');
  });

  it('keeps state in --data across a stop and a start', async () => {
    const data = join(dir, 'state.json');
    const first = await startForeground([
      '--quiet',
      '--no-profile',
      '--data',
      data,
      '--seed',
      'demo',
    ]);
    first.child.kill('SIGTERM');
    assert.equal(await exited(first.child), 130, 'SIGTERM ends it as Ctrl-C does');
    assert.ok(existsSync(data));
    assert.equal(statSync(data).mode & 0o777, 0o600);
    const second = await startForeground(['--quiet', '--no-profile', '--data', data]);
    try {
      assert.equal(second.ready.api_key, first.ready.api_key, 'the key is kept in the data file');
      assert.equal(second.ready.team_id, first.ready.team_id);
      const res = await fetch(
        `${second.ready.url}/v2/prism/${second.ready.team_id}/contact/count`,
        {
          headers: { 'x-api-key': second.ready.api_key },
        },
      );
      assert.ok(
        ((await res.json()) as { total: number }).total > 0,
        'the seeded contacts are back',
      );
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
  });

  it('runs detached: status, a second start refused, stop', () => {
    // The config directory does not exist yet: ws creates it.
    dir = join(dir, 'not-yet');
    const start = ws(['sandbox', 'start', '--detach', '--port', '0', '--json']);
    assert.equal(start.code, 0, start.stderr);
    const ready = JSON.parse(start.stdout);
    const status = ws(['sandbox', 'status', '--json']);
    assert.equal(status.code, 0, status.stderr);
    const s = JSON.parse(status.stdout);
    assert.equal(s.status, 'running');
    assert.equal(s.url, ready.url);
    const again = ws(['sandbox', 'start', '--detach', '--port', '0']);
    assert.equal(again.code, 6);
    assert.match(again.stderr, /already running/);
    const count = ws(['api', 'GET', '/v2/prism/{teamId}/contact/count']);
    assert.equal(count.code, 0, count.stderr);
    assert.deepEqual(JSON.parse(count.stdout), { total: 0 });
    const stop = ws(['sandbox', 'stop']);
    assert.equal(stop.code, 0);
    assert.match(stop.stderr, /Stopped the sandbox/);
    const none = ws(['sandbox', 'status']);
    assert.equal(none.code, 4);
    assert.match(none.stderr, /No detached sandbox is running/);
  });

  it('a port in use is a clear conflict', async () => {
    const { child, ready } = await startForeground(['--quiet', '--no-profile']);
    try {
      const port = new URL(ready.url).port;
      const r = ws(['sandbox', 'start', '--port', port, '--no-profile']);
      assert.equal(r.code, 6);
      assert.match(r.stderr, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
  });

  it('loads its lazily imported modules from the bundle: yaml, csv-parse, the table layout', async () => {
    const { child, ready } = await startForeground(['--quiet', '--no-profile', '--seed', 'demo']);
    const run = (args: string[], input?: string) => {
      const r = spawnSync(process.execPath, [BIN, ...args], {
        env: {
          ...env(),
          WS_BASE_URL: ready.url,
          WS_TEAM_ID: ready.team_id,
          WS_API_KEY: ready.api_key,
        },
        input: input ?? '',
        encoding: 'utf8',
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    try {
      const apply = run(['props', 'apply', '-f', join(ROOT, 'examples', 'schema.yaml'), '--yes']);
      assert.equal(apply.code, 0, apply.stderr);
      const exported = run(['props', 'export']);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(exported.stdout, /^version: 1\n/m);
      const csv = run([
        'records',
        'export',
        'contacts',
        '--format',
        'csv',
        '--select',
        'name,score',
      ]);
      assert.equal(csv.code, 0, csv.stderr);
      const lines = csv.stdout.trim().split(/\r?\n/);
      assert.equal(lines[0], 'id,name,score');
      const id = lines[1]!.split(',')[0]!;
      const update = run(
        ['records', 'batch-update', 'contacts', '--file', '-'],
        `id,score\n${id},77\n`,
      );
      assert.equal(update.code, 0, update.stderr);
      const table = run([
        'records',
        'get',
        'contacts',
        id,
        '--format',
        'table',
        '--fields',
        'id,score',
      ]);
      assert.equal(table.code, 0, table.stderr);
      assert.match(table.stdout, /score\s+77/);
      const list = run([
        'records',
        'list',
        'contacts',
        '--format',
        'table',
        '--fields',
        'id,score',
      ]);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, new RegExp(`^ID +SCORE\n(.*\n)*${id} +77\n`));
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
  });

  it('keeps start-up light: built-in modules loaded by --version and auth status', async () => {
    // What each command makes Node load, read from process.moduleLoadList after main()
    // returns; bench/startup.mjs measures what these modules cost.
    const loaded = (args: string[], extra: Record<string, string> = {}, stdout?: number) => {
      const script = `const { main } = require(${JSON.stringify(`${ROOT}dist/ws.js`)});
main(${JSON.stringify(args)}).then((code) => {
  const modules = [...process.moduleLoadList];
  const files = Object.keys(require.cache);
  process.stderr.write(JSON.stringify({ code, modules, files }));
});`;
      const r = spawnSync(process.execPath, ['-e', script], {
        env: { ...env(), ...extra },
        encoding: 'utf8',
        ...(stdout === undefined ? {} : { stdio: ['pipe', stdout, 'pipe'] }),
      });
      const out = JSON.parse(r.stderr.slice(r.stderr.lastIndexOf('{"code"'))) as {
        code: number;
        modules: string[];
        files: string[];
      };
      assert.equal(out.code, 0, r.stderr);
      return Object.assign(new Set(out.modules.map((m) => m.replace(/^NativeModule /, ''))), {
        files: out.files,
      });
    };
    const version = loaded(['--version']);
    for (const m of ['http', 'crypto', 'fs/promises', 'perf_hooks'])
      assert.ok(!version.has(m), `ws --version loads ${m}`);
    // Printed into a file.
    const file = join(dir, 'version.txt');
    const fd = openSync(file, 'w');
    try {
      loaded(['--version'], {}, fd);
    } finally {
      closeSync(fd);
    }
    assert.match(readFileSync(file, 'utf8'), /^\d+\.\d+\.\d+\n$/);
    const { child, ready } = await startForeground(['--quiet', '--no-profile']);
    try {
      const auth = loaded(['auth', 'status'], {
        WS_BASE_URL: ready.url,
        WS_TEAM_ID: ready.team_id,
        WS_API_KEY: ready.api_key,
      });
      assert.ok(auth.has('http'), 'the request went through node:http');
      // An http:// base URL loads nothing of TLS, HTTP/2, compression (the answer is small)
      // or the proxy tunnel, nor node:crypto or node:assert.
      for (const m of ['https', 'http2', 'tls', 'crypto', 'zlib', 'perf_hooks', 'assert'])
        assert.ok(!auth.has(m), `ws auth status loads ${m}`);
      const tunnel = auth.files.filter((f) => /hpagent/.test(f));
      assert.deepEqual(tunnel, [], 'ws auth status loads the proxy tunnel');
      // A page of records loads no more: the
      // records verbs' file, cache and editor code reach for node:fs/promises and
      // node:crypto only when they run.
      const list = loaded(['records', 'list', 'contacts', '--limit', '5', '--json'], {
        WS_BASE_URL: ready.url,
        WS_TEAM_ID: ready.team_id,
        WS_API_KEY: ready.api_key,
      });
      for (const m of ['fs/promises', 'crypto', 'readline', 'tls', 'assert'])
        assert.ok(!list.has(m), `ws records list loads ${m}`);
      // jq (WebAssembly) and Liquid load only with --jq and --template: the bundle's files
      // that hold them are known by their source maps.
      const creds = {
        WS_BASE_URL: ready.url,
        WS_TEAM_ID: ready.team_id,
        WS_API_KEY: ready.api_key,
      };
      const packages = (files: string[]) =>
        new Set(
          files
            .filter((f) => f.startsWith(`${ROOT}dist`))
            .flatMap((f) => JSON.parse(readFileSync(`${f}.map`, 'utf8')).sources as string[])
            .flatMap((src) => /node_modules\/(jq-wasm|liquidjs)\//.exec(src)?.[1] ?? []),
        );
      assert.deepEqual(packages(list.files), new Set(), 'ws records list --json');
      assert.deepEqual(packages(auth.files), new Set(), 'ws auth status');
      const jq = loaded(
        ['records', 'list', 'contacts', '--limit', '5', '--jq', '.[] | .id'],
        creds,
      );
      assert.deepEqual(packages(jq.files), new Set(['jq-wasm']), '--jq');
      const liquid = loaded(['auth', 'status', '--template', '{{ team_id }}'], creds);
      assert.deepEqual(packages(liquid.files), new Set(['liquidjs']), '--template');
      // The sandbox console (its server, and its page in dist/console) loads with `ws sandbox`
      // alone: no file these commands read holds its code (its cookie's name is a string the
      // build keeps).
      const chunks = join(ROOT, 'dist', 'chunks');
      assert.ok(
        readdirSync(chunks).some((f) =>
          readFileSync(join(chunks, f), 'utf8').includes('ws_console_'),
        ),
        'the console is in the build',
      );
      for (const [name, files] of [
        ['auth status', auth.files],
        ['records list', list.files],
      ] as const) {
        const consoleFiles = files.filter(
          (f) =>
            f.includes(`${ROOT}dist`) &&
            (f.includes(`dist${sep}console${sep}`) ||
              readFileSync(f, 'utf8').includes('ws_console_')),
        );
        assert.deepEqual(consoleFiles, [], `ws ${name} loads the sandbox console`);
      }
      // ... where the status text is still there when one is shown.
      const head = spawnSync(process.execPath, [BIN, 'api', 'GET', '/v2/nowhere', '-i'], {
        env: {
          ...env(),
          WS_BASE_URL: ready.url,
          WS_TEAM_ID: ready.team_id,
          WS_API_KEY: ready.api_key,
        },
        encoding: 'utf8',
      });
      assert.equal(head.status, 4, head.stderr);
      assert.match(head.stdout, /^HTTP\/1\.1 404 Not Found\n/);
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
  });

  it('ships the completion scripts that ws completion prints (the build writes them)', () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = ws(['completion', shell]);
      assert.equal(r.code, 0);
      const file = join(ROOT, 'completions', shell === 'zsh' ? '_ws' : `ws.${shell}`);
      assert.equal(
        readFileSync(file, 'utf8'),
        r.stdout,
        `${file} is up to date (npm run build writes it)`,
      );
    }
    // What they ask at each Tab (test/e2e/completion.test.ts drives the shells themselves).
    const r = ws(['__complete', 'fish', 'sandbox', 'st']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.replace(/\t.*/g, ''), ':\nstart\nstatus\nstop\n');
  });
});
