// Records benchmark: `ws records` (the built binary, spawned as a user runs it) against a
// sandbox started in this process, in one run:
//   1. export throughput: `ws records export contacts --format csv` of N records, with the
//      sandbox answering after 50 ms (--latency 50);
//   2. batch-update throughput on the same sandbox: N items from a CSV, chunks of 100 sent
//      one at a time (--concurrency 1) and several at once (4, 8), each with no client
//      rate limit and with the default 10 requests per second;
//   3. memory of `ws records list contacts --all --format ndjson` over 20,000 and 100,000
//      records (no latency): the peak RSS of the `ws` process, flat when pages stream.
//
//   node bench/records.mjs                  # N = 5,000
//   node bench/records.mjs --records 10000 --no-memory
//
// Needs the build (npm run build).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { startSandbox, recordsOf } = await import('../src/sandbox/index.ts');

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'ws.js');
if (!existsSync(join(root, 'dist', 'ws.js'))) {
  console.error('bench/records.mjs needs the build: run `npm run build` first.');
  process.exit(1);
}
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const N = Number(flag('--records', '5000'));
const memory = !args.includes('--no-memory');
const dir = mkdtempSync(join(tmpdir(), 'ws-bench-records-'));
const MiB = 1024 * 1024;

// Each `ws` run writes its resource usage here when it exits (peak RSS).
const usageHook = join(dir, 'usage.mjs');
writeFileSync(
  usageHook,
  `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(process.env.WS_BENCH_USAGE, JSON.stringify(process.resourceUsage())));
`,
);

async function sandboxWith(n, options) {
  const sandbox = await startSandbox({ port: 0, ...options });
  const model = recordsOf(sandbox.store);
  const cities = ['London', 'Paris', 'Berlin', 'Lisbon', 'Oslo', 'Rome'];
  const statuses = ['lead', 'customer', 'churned'];
  for (let i = 0; i < n; i++) {
    model.create('contact', {
      default: {
        name: `Contact ${i}`,
        email: `contact${i}@example.com`,
        city: cities[i % cities.length],
        status: statuses[i % statuses.length],
        tags: i % 2 ? ['vip'] : ['newsletter', 'partner'],
        score: i % 100,
      },
    });
  }
  return sandbox;
}

function configFor(sandbox, rateLimit) {
  const config = mkdtempSync(join(dir, 'config-'));
  writeFileSync(
    join(config, 'config.json'),
    JSON.stringify({
      profiles: {
        bench: {
          base_url: sandbox.url,
          team_id: sandbox.teamId,
          api_key: sandbox.apiKey,
          rate_limit: rateLimit,
        },
      },
      default_profile: 'bench',
    }),
    { mode: 0o600 },
  );
  return config;
}

/** Run `ws` with `argv`; its wall time, exit code, stderr and peak RSS. */
function ws(argv, config, stdout = 'ignore') {
  const usage = join(dir, `usage-${Math.random().toString(36).slice(2)}.json`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', usageHook, bin, ...argv], {
      env: {
        ...process.env,
        WS_CONFIG_DIR: config,
        WS_BENCH_USAGE: usage,
        NO_COLOR: '1',
        WS_NO_CACHE: '1',
      },
      stdio: ['ignore', stdout, 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      const rss = JSON.parse(readFileSync(usage, 'utf8')).maxRSS * 1024;
      if (code !== 0) reject(new Error(`ws ${argv.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ ms, rss });
    });
  });
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const line = (label, r, items) =>
  console.log(
    `${label.padEnd(52)} ${(r.ms / 1000).toFixed(2).padStart(7)} s  ${fmt((items * 1000) / r.ms).padStart(7)} records/s  peak RSS ${(r.rss / MiB).toFixed(0).padStart(4)} MiB`,
  );

try {
  console.log(`node ${process.version}; ${fmt(N)} contacts; sandbox --latency 50`);
  const slow = await sandboxWith(N, { latencyMs: 50 });
  try {
    const free = configFor(slow, 0);
    const paced = configFor(slow, 10);
    const out = join(dir, 'contacts.csv');
    const exp = await ws(
      ['records', 'export', 'contacts', '--format', 'csv', '--output', out],
      free,
    );
    line('export (csv, 50 per page, pages in sequence)', exp, N);

    const ids = [...recordsOf(slow.store).records('contact')].map((r) => r.id);
    const csv = join(dir, 'changes.csv');
    writeFileSync(
      csv,
      `id,score,status\n${ids.map((id, i) => `${id},${i % 7},customer`).join('\n')}\n`,
    );
    for (const [label, config] of [
      ['no client rate limit', free],
      ['rate limit 10/s', paced],
    ]) {
      for (const c of [1, 4, 8]) {
        const r = await ws(
          [
            'records',
            'batch-update',
            'contacts',
            '--file',
            csv,
            '--concurrency',
            String(c),
            '--quiet',
          ],
          config,
        );
        line(`batch-update --concurrency ${c}, ${label}`, r, N);
      }
    }
  } finally {
    await slow.close();
  }

  if (memory) {
    console.log('\nws records list contacts --all --format ndjson > /dev/null (no latency)');
    for (const n of [20_000, 100_000]) {
      const fast = await sandboxWith(n, {});
      try {
        const r = await ws(
          ['records', 'list', 'contacts', '--all', '--format', 'ndjson'],
          configFor(fast, 0),
        );
        line(`list --all, ${fmt(n)} records (${fmt(n / 50)} pages)`, r, n);
      } finally {
        await fast.close();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
