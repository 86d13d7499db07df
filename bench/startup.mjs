// Start-up benchmark: wall time of `ws --version` and `ws auth status` (against a
// running sandbox) against `node -e 0`, measured in the same run, interleaved.
// Usage: node bench/startup.mjs [--runs N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 30;
const bin = new URL('../bin/ws.js', import.meta.url).pathname;
const configDir = mkdtempSync(join(tmpdir(), 'ws-bench-'));

const sandbox = spawn(
  process.execPath,
  [bin, 'sandbox', 'start', '--port', '0', '--json', '--no-profile', '--quiet'],
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
};

const cases = {
  'node -e 0': [process.execPath, ['-e', '0']],
  'ws --version': [process.execPath, [bin, '--version']],
  'ws auth status': [process.execPath, [bin, 'auth', 'status']],
};

function once(cmd, args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
// Warm the file cache (and the compile cache where Node has one) before measuring.
for (const [cmd, args] of Object.values(cases)) for (let i = 0; i < 3; i++) once(cmd, args);
for (let i = 0; i < runs; i++) {
  for (const [name, [cmd, args]] of Object.entries(cases)) times[name].push(once(cmd, args));
}
sandbox.kill('SIGTERM');
rmSync(configDir, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const baseline = median(times['node -e 0']);
console.log(`node ${process.version}, ${runs} runs each, median wall time`);
for (const [name, xs] of Object.entries(times)) {
  const m = median(xs);
  const over = name === 'node -e 0' ? '' : `   (+${(m - baseline).toFixed(1)} ms)`;
  console.log(
    `${name.padEnd(16)} ${m.toFixed(1).padStart(7)} ms   ${(m / baseline).toFixed(2)}x node -e 0${over}`,
  );
}
// Node 20 reads the certificates NODE_EXTRA_CA_CERTS names as every process starts, node -e 0
// included: the ratios then compare ws's own time against a larger baseline.
if (process.env.NODE_EXTRA_CA_CERTS)
  console.log(
    `NODE_EXTRA_CA_CERTS is set (${process.env.NODE_EXTRA_CA_CERTS}): every process above loaded it; run with it unset to compare without it.`,
  );
