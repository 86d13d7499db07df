// Import benchmark: the figures the import is held to, each against a baseline measured in
// the same run. A CSV of four columns (an email, an amount, a select value, free text) is
// generated, then `ws import contact` (the build, spawned as a user runs it) is measured
// against a sandbox started in this process:
//
//   rate    N rows at the default client rate limit (10 requests a second) into a sandbox
//           that also allows 10 a second: rows per second, requests sent (imports, polls)
//           and 429 answers (there must be none); the ratio is to the most the limit allows
//           with these chunks (one POST and one poll per chunk).
//   cpu     N rows with no client rate limit: the CPU time and the wall time of `ws`
//           against those of csv-parse reading the same file and discarding its rows (a
//           Node process of its own, like `ws`); also `ws import validate` (no sending).
//   memory  the peak RSS of `ws` over 200,000 and 1,000,000 rows (no rate limit), against
//           that of the csv-parse process.
//
// Every measured process runs without NODE_EXTRA_CA_CERTS (a machine that sets it makes
// each Node process slower to start); `ws` runs with its defaults unless told otherwise.
// The variants of a case run --runs times (default 3), interleaved, and the medians are
// compared, with the range (min-max) of the runs: on a shared machine one run can be off
// by a third. Peak RSS and CPU come from each process's own resource usage at its exit.
//
//   node bench/import.mjs                                  # every case, this Node
//   node bench/import.mjs --case cpu --runs 5
//   node bench/import.mjs --case memory --node /path/to/node24   # ws on another Node
//   node bench/import.mjs --case memory --memory-rows 200000     # (default: --rows and 1,000,000)
//   node bench/import.mjs --case rate --chunk-sizes 2000,5000,10000 --concurrency 2,4,8
//   node bench/import.mjs --case cpu --baseline-bin /tmp/old/bin/ws.js   # an older build too
//
// --node (repeatable) runs `ws` and csv-parse on that Node; the sandbox stays on the Node
// that runs this file. --chunk-sizes and --concurrency add a variant per combination.
// Needs the build (npm run build).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);

if (args[0] === '--version-only') {
  process.stdout.write(`${process.version}\n`);
  process.exit(0);
}
if (args[0] === '--parse-only') {
  // The baseline process: csv-parse reading the file, every row discarded.
  const { parse } = await import('csv-parse');
  const parser = createReadStream(args[1]).pipe(parse());
  let n = 0;
  parser.on('readable', () => {
    while (parser.read() !== null) n++;
  });
  await once(parser, 'end');
  process.stdout.write(`${n - 1}\n`);
  process.exit(0);
}

const { register } = await import('tsx/esm/api');
register();
const { startSandbox } = await import('../src/sandbox/index.ts');

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'ws.js');
if (!existsSync(join(root, 'dist', 'ws.js'))) {
  console.error('bench/import.mjs needs the build: run `npm run build` first.');
  process.exit(1);
}
const self = new URL(import.meta.url).pathname;
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const flags = (name) => args.flatMap((a, i) => (a === name ? [args[i + 1]] : []));
const list = (name) =>
  (flag(name, '') ?? '')
    .split(',')
    .filter((s) => s !== '')
    .map(Number);
const ROWS = Number(flag('--rows', '200000'));
const RUNS = Number(flag('--runs', '3'));
const cases = (flag('--case', 'rate,cpu,memory') ?? '').split(',');
const nodes = flags('--node');
if (nodes.length === 0) nodes.push(process.execPath);
const baselineBin = flag('--baseline-bin', undefined);
const chunkSizes = list('--chunk-sizes');
const concurrencies = list('--concurrency');
const memoryRows = list('--memory-rows');
if (memoryRows.length === 0) memoryRows.push(ROWS, 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'ws-bench-import-'));
const MiB = 1024 * 1024;

// Each measured process writes its resource usage (CPU, peak RSS) here when it exits.
const usageHook = join(dir, 'usage.cjs');
writeFileSync(
  usageHook,
  `process.on('exit', () => require('node:fs').writeFileSync(process.env.WS_BENCH_USAGE, JSON.stringify(process.resourceUsage())));\n`,
);

const env = { ...process.env, NO_COLOR: '1', WS_NO_CACHE: '1' };
delete env.NODE_EXTRA_CA_CERTS;
delete env.NODE_OPTIONS;

/** The four columns of the issue: Email, Score (an amount), Status (select), Notes (text). */
async function generate(path, n) {
  const out = createWriteStream(path);
  const statuses = ['Lead', 'Customer', 'Churned'];
  const words = ['call', 'back', 'about', 'renewal', 'pricing', 'demo', 'next', 'week', 'team'];
  out.write('Email,Score,Status,Notes\n');
  let buf = '';
  for (let i = 0; i < n; i++) {
    const amount = `${(i * 7919) % 100_000}.${String(i % 100).padStart(2, '0')}`;
    let note = `Met at event ${i % 311}: ${words[i % 9]} ${words[(i * 7) % 9]} ${words[(i * 5) % 9]}`;
    if (i % 10 === 0) note = `"${note}, said ""maybe"" to the ${words[i % 7]} offer"`;
    else if (i % 2 === 0) note += ` and ${words[(i >> 3) % 9]} ${i}`;
    buf += `person${i}@example.com,${amount},${statuses[i % 3]},${note}\n`;
    if (buf.length > 256 * 1024) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

/**
 * The environment of `ws` for `sandbox` at this client rate limit: the credentials in
 * WS_BASE_URL, WS_TEAM_ID and WS_API_KEY, the rate limit in the default profile of a config
 * directory of its own.
 */
function clientFor(sandbox, rateLimit) {
  const config = mkdtempSync(join(dir, 'config-'));
  const profile = { profiles: { bench: { rate_limit: rateLimit } }, default_profile: 'bench' };
  writeFileSync(join(config, 'config.json'), JSON.stringify(profile), { mode: 0o600 });
  return {
    WS_CONFIG_DIR: config,
    WS_BASE_URL: sandbox.url,
    WS_TEAM_ID: sandbox.teamId,
    WS_API_KEY: sandbox.apiKey,
  };
}

/**
 * Run `node [--require hook] script ...argv`: wall time, CPU seconds (user + system) and peak
 * RSS from the process's own resource usage, its stdout.
 */
function measure(node, script, argv, extraEnv = {}) {
  const usage = join(dir, `usage-${Math.random().toString(36).slice(2)}.json`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, ['--require', usageHook, script, ...argv], {
      env: { ...env, ...extraEnv, WS_BENCH_USAGE: usage },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`${script} ${argv.join(' ')} exited ${code}: ${stderr}`));
        return;
      }
      const u = JSON.parse(readFileSync(usage, 'utf8'));
      rmSync(usage, { force: true });
      resolve({ ms, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rss: u.maxRSS * 1024, stdout });
    });
  });
}

const parseOnly = (node, path) => measure(node, self, ['--parse-only', path]);

async function importWith(node, variant, sandbox, client, path, extra = []) {
  sandbox.reset();
  sandbox.counts = { post: 0, poll: 0, 429: 0, other: 0 };
  const cpuBefore = process.cpuUsage();
  const r = await measure(
    node,
    variant.bin,
    ['import', 'contact', path, '--json', '--quiet', ...variant.args, ...extra],
    client,
  );
  const spent = process.cpuUsage(cpuBefore);
  const summary = JSON.parse(r.stdout);
  const want = extra.includes('--dry-run') ? 0 : sandbox.expect;
  if (summary.created !== want || summary.failed !== 0)
    throw new Error(
      `${variant.label}: created ${summary.created} of ${want}, ${summary.failed} failed`,
    );
  return { ...r, sandboxCpu: (spent.user + spent.system) / 1e6, requests: { ...sandbox.counts } };
}

/** A sandbox in this process whose log counts the requests. */
async function sandboxFor(rateLimit) {
  const holder = {};
  const sandbox = await startSandbox({
    port: 0,
    rateLimit,
    log: (line) => {
      const c = holder.counts;
      if (c === undefined) return;
      const m = /^(\w+) (\S+) (\d{3}) /.exec(line);
      if (!m) return;
      if (m[3] === '429') c[429]++;
      else if (m[1] === 'POST' && m[2].endsWith('/import')) c.post++;
      else if (m[1] === 'GET' && m[2].includes('/imports/')) c.poll++;
      else c.other++;
    },
  });
  return Object.assign(holder, {
    url: sandbox.url,
    teamId: sandbox.teamId,
    apiKey: sandbox.apiKey,
    expect: 0,
    reset: () => sandbox.reset(),
    close: () => sandbox.close(),
  });
}

/** The variants of `ws` to measure: the build's defaults, then any asked for. */
function variants() {
  const out = [{ label: 'ws (defaults)', bin, args: [] }];
  if (baselineBin) out.push({ label: 'ws (baseline build)', bin: baselineBin, args: [] });
  const sizes = chunkSizes.length > 0 ? chunkSizes : [undefined];
  const concs = concurrencies.length > 0 ? concurrencies : [undefined];
  for (const s of sizes) {
    for (const c of concs) {
      if (s === undefined && c === undefined) continue;
      const a = [];
      if (s !== undefined) a.push('--chunk-size', String(s));
      if (c !== undefined) a.push('--concurrency', String(c));
      out.push({ label: `ws ${a.join(' ')}`, bin, args: a });
    }
  }
  return out;
}

/** The median of `key` over runs, with their range. */
function stats(runs, key) {
  const v = runs.map((r) => r[key]).sort((a, b) => a - b);
  return { median: v[Math.floor(v.length / 2)], min: v[0], max: v.at(-1) };
}
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const spread = (s, unit = (x) => x.toFixed(2)) =>
  s.min === s.max ? '' : ` (${unit(s.min)}-${unit(s.max)})`;
const nodeName = (node) =>
  node === process.execPath ? process.version : `${node.split('/').slice(-4).join('/')}`;

async function nodeVersion(node) {
  const r = await measure(node, self, ['--version-only']).catch(() => undefined);
  return r?.stdout.trim() ?? nodeName(node);
}

/** Run each of `steps` --runs times, interleaved (one of each, then again): results by step. */
async function interleaved(steps) {
  const results = steps.map(() => []);
  for (let run = 0; run < RUNS; run++) {
    for (const [i, step] of steps.entries()) results[i].push(await step());
  }
  return results;
}

/** `fn(sandbox)` with a sandbox that limits clients to `rateLimit` requests a second. */
async function withSandbox(rateLimit, fn) {
  const sandbox = await sandboxFor(rateLimit);
  try {
    await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

/** The machine's load (1-minute average) when the runs of a heading ended: other work slows them. */
const heading = async (node, what = '') =>
  console.log(
    `node ${await nodeVersion(node)}${what}, medians of ${RUNS} runs (range); load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
  );

function caseRate(path) {
  console.log(
    `\n== rate: ${fmt(ROWS)} rows, client rate limit 10/s (the default), sandbox limit 10/s`,
  );
  return withSandbox(10, async (sandbox) => {
    sandbox.expect = ROWS;
    const client = clientFor(sandbox, 10);
    for (const node of nodes) {
      const vs = variants();
      const results = await interleaved(
        vs.map((v) => async () => {
          const r = await importWith(node, v, sandbox, client, path);
          // Let the sandbox's window of the last second empty before the next import.
          await new Promise((resolve) => setTimeout(resolve, 1100));
          return {
            ...r,
            rate: (ROWS * 1000) / r.ms,
            posts: r.requests.post,
            polls: r.requests.poll,
          };
        }),
      );
      await heading(node);
      for (const [i, v] of vs.entries()) {
        const rate = stats(results[i], 'rate');
        const posts = stats(results[i], 'posts');
        const polls = stats(results[i], 'polls');
        const throttled = Math.max(...results[i].map((r) => r.requests[429]));
        // The most 10 requests a second allow with these chunks: a POST and a poll each.
        const ceiling = (10 * (ROWS / posts.median)) / 2;
        console.log(
          `  ${v.label.padEnd(40)} ${fmt(rate.median).padStart(7)} rows/s${spread(rate, fmt)}  ${posts.median} POST + ${polls.median} polls${spread(polls, fmt)}  429: ${throttled}  ${(rate.median / 25_000).toFixed(2)}x the 25,000 goal, ${(rate.median / ceiling).toFixed(2)}x of ${fmt(ceiling)} (10/s, a POST and a poll per chunk)`,
        );
        if (throttled > 0) console.log(`  !! ${v.label}: the sandbox answered 429`);
      }
    }
  });
}

function caseCpu(path) {
  console.log(`\n== cpu: ${fmt(ROWS)} rows, no client rate limit (ratios to csv-parse alone)`);
  return withSandbox(0, async (sandbox) => {
    sandbox.expect = ROWS;
    const client = clientFor(sandbox, 0);
    for (const node of nodes) {
      // Each variant imports; the builds as they are also check with --dry-run (the chunk
      // size does not change its work).
      const runs = [];
      for (const v of variants()) {
        runs.push({ label: v.label, run: () => importWith(node, v, sandbox, client, path) });
        if (v.args.length > 0) continue;
        const dry = () => importWith(node, v, sandbox, client, path, ['--dry-run']);
        runs.push({ label: `${v.label} --dry-run`, run: dry });
      }
      const [parses, ...imports] = await interleaved([
        () => parseOnly(node, path),
        ...runs.map((r) => r.run),
      ]);
      const pw = stats(parses, 'ms');
      const pc = stats(parses, 'cpu');
      await heading(node);
      console.log(
        `  ${'csv-parse alone'.padEnd(40)} wall ${(pw.median / 1000).toFixed(2)} s${spread(pw, (x) => (x / 1000).toFixed(2))}  CPU ${pc.median.toFixed(2)} s${spread(pc)}`,
      );
      for (const [i, { label }] of runs.entries()) {
        const w = stats(imports[i], 'ms');
        const c = stats(imports[i], 'cpu');
        const sb = stats(imports[i], 'sandboxCpu');
        const { post, poll, other } = imports[i].at(-1).requests;
        const ratio = (x, base) => (x / base).toFixed(2);
        console.log(
          `  ${label.padEnd(40)} wall ${(w.median / 1000).toFixed(2)} s = ${ratio(w.median, pw.median)}x${spread({ min: w.min / pw.median, max: w.max / pw.median })}  CPU ${c.median.toFixed(2)} s = ${ratio(c.median, pc.median)}x${spread({ min: c.min / pc.median, max: c.max / pc.median })}  sandbox CPU ${sb.median.toFixed(2)} s  ${fmt((ROWS * 1000) / w.median)} rows/s  (last run: ${post} POST, ${poll} polls, ${other} other)`,
        );
      }
    }
  });
}

function caseMemory() {
  console.log('\n== memory: peak RSS, no client rate limit (ratios to csv-parse alone)');
  return withSandbox(0, async (sandbox) => {
    const client = clientFor(sandbox, 0);
    for (const rows of memoryRows) {
      const file = join(dir, `rows-${rows}.csv`);
      if (!existsSync(file)) await generate(file, rows);
      sandbox.expect = rows;
      for (const node of nodes) {
        const vs = variants();
        const [parses, ...imports] = await interleaved([
          () => parseOnly(node, file),
          ...vs.map((v) => () => importWith(node, v, sandbox, client, file)),
        ]);
        const p = stats(parses, 'rss');
        const mib = (x) => (x / MiB).toFixed(0);
        await heading(node, `, ${fmt(rows)} rows`);
        console.log(
          `  ${'csv-parse alone'.padEnd(40)} peak RSS ${mib(p.median)} MiB${spread(p, mib)}`,
        );
        for (const [i, v] of vs.entries()) {
          const r = stats(imports[i], 'rss');
          const w = stats(imports[i], 'ms');
          console.log(
            `  ${v.label.padEnd(40)} peak RSS ${mib(r.median)} MiB${spread(r, mib)} = ${(r.median / p.median).toFixed(2)}x  ${fmt((rows * 1000) / w.median)} rows/s${r.max >= 200 * MiB ? '  !! over 200 MiB' : ''}`,
          );
        }
      }
    }
  });
}

try {
  const path = join(dir, `rows-${ROWS}.csv`);
  await generate(path, ROWS);
  console.log(
    `${fmt(ROWS)} rows of Email,Score,Status,Notes (${fmt(readFileSync(path).length / 1024)} KiB); NODE_EXTRA_CA_CERTS unset for every measured process`,
  );
  if (cases.includes('rate')) await caseRate(path);
  if (cases.includes('cpu')) await caseCpu(path);
  if (cases.includes('memory')) await caseMemory();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
