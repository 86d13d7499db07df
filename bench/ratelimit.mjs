// Rate-limit benchmark: `ws` (the built binary, spawned as a user runs it) against a sandbox
// that allows 10 requests per second per key over a sliding second (`--rate-limit 10`, as
// the hosted service), with the profile's default client limit of 10 per second. Each run
// counts the 429 answers the sandbox gave (the goal is none: every 429 costs a second) and
// compares `list --all` with the least time the limit allows (pages / 10 per second).
// Then 200 one-request commands (`ws records count`) run in a loop, as a script runs them:
// each is its own process with its own limiter, so one may meet the places the previous
// left busy; all must exit 0 (a 429 is waited out), and the 429s are counted.
//
//   node bench/ratelimit.mjs                 # 10,000 records, a loop of 200 commands
//   node bench/ratelimit.mjs --records 2000 --loop 50     # (--loop 0: no loop)
//   node bench/ratelimit.mjs --bin /tmp/old/bin/ws.js     # an older build
//
// Needs the build (npm run build). NODE_EXTRA_CA_CERTS is unset for the ws processes.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { startSandbox, recordsOf } = await import('../src/sandbox/index.ts');

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
// --bin: another build's bin/ws.js (a copy of bin/, dist/ and package.json) to measure.
const bin = args.includes('--bin') ? args[args.indexOf('--bin') + 1] : join(root, 'bin', 'ws.js');
if (!existsSync(join(root, 'dist', 'ws.js'))) {
  console.error('bench/ratelimit.mjs needs the build: run `npm run build` first.');
  process.exit(1);
}
const N = Number(args[args.indexOf('--records') + 1]) || 10_000;
const LOOP = args.includes('--loop') ? Number(args[args.indexOf('--loop') + 1]) : 200;
const dir = mkdtempSync(join(tmpdir(), 'ws-bench-ratelimit-'));
const fmt = (n) => Math.round(n).toLocaleString('en-US');

const log = [];
const sandbox = await startSandbox({
  port: 0,
  rateLimit: 10,
  log: (line) => {
    if (!line.includes('/__sandbox/')) log.push(line);
  },
});
const config = join(dir, 'config');
mkdirSync(config);
writeFileSync(
  join(config, 'config.json'),
  JSON.stringify({
    profiles: {
      bench: { base_url: sandbox.url, team_id: sandbox.teamId, api_key: sandbox.apiKey },
    },
    default_profile: 'bench',
  }),
  { mode: 0o600 },
);

function ws(argv, input, allowFailure = false) {
  const env = { ...process.env, WS_CONFIG_DIR: config, NO_COLOR: '1', WS_NO_CACHE: '1' };
  delete env.NODE_EXTRA_CA_CERTS;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...argv], {
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0 && !allowFailure)
        reject(new Error(`ws ${argv.join(' ')} exited ${code}: ${stderr}`));
      else resolve(code === 0 ? performance.now() - started : -1);
    });
  });
}

/** Run a case; print its time, its requests and the 429s among them. */
async function measure(label, argv, input, floorMs) {
  log.length = 0;
  const ms = await ws(argv, input);
  const limited = log.filter((l) => / 429 /.test(l)).length;
  const floor =
    floorMs === undefined
      ? ''
      : `   least possible ${(floorMs / 1000).toFixed(1)} s: ${(ms / floorMs).toFixed(3)}x`;
  console.log(
    `${label.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${fmt(log.length).padStart(6)} requests  ${String(limited).padStart(3)} x 429${floor}`,
  );
  return limited;
}

try {
  const model = recordsOf(sandbox.store);
  const ids = [];
  for (let i = 0; i < N; i++) {
    ids.push(
      model.create('contact', { default: { name: `Contact ${i}`, email: `c${i}@example.com` } }).id,
    );
  }
  console.log(
    `node ${process.version}; ${fmt(N)} contacts; sandbox --rate-limit 10 (sliding second); client rate limit 10/s`,
  );
  const pages = Math.ceil(N / 50);
  let total = 0;
  total += await measure(
    'records list --all (50 a page)',
    ['records', 'list', 'contacts', '--all', '--format', 'ndjson'],
    undefined,
    (pages / 10) * 1000,
  );
  total += await measure(
    'records batch-update (100 a request)',
    ['records', 'batch-update', 'contacts', '--file', '-', '--input-format', 'csv'],
    `id,city\n${ids.map((id) => `${id},Lisbon`).join('\n')}\n`,
  );
  const csv = join(dir, 'import.csv');
  writeFileSync(
    csv,
    `name,email\n${Array.from({ length: N }, (_, i) => `New ${i},new${i}@example.com`).join('\n')}\n`,
  );
  total += await measure('import (default chunks)', ['import', 'contacts', csv]);
  total += await measure(
    'records batch-delete (100 a request)',
    ['records', 'batch-delete', 'contacts', '--file', '-', '--yes'],
    ids.join('\n'),
  );
  console.log(`429 answers in all: ${total}`);
  if (LOOP > 0) {
    log.length = 0;
    const started = performance.now();
    let failed = 0;
    for (let i = 0; i < LOOP; i++)
      if ((await ws(['records', 'count', 'contacts'], undefined, true)) < 0) failed++;
    const s = (performance.now() - started) / 1000;
    const limited = log.filter((l) => / 429 /.test(l)).length;
    console.log(
      `${`${LOOP} x records count, in a loop`.padEnd(34)} ${s.toFixed(2).padStart(6)} s  ${(LOOP / s).toFixed(1)} commands/s  ${limited} x 429  ${failed} exited non-zero`,
    );
    if (failed > 0) process.exitCode = 1;
  }
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
