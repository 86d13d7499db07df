// Import benchmark: generates a CSV of 8 columns, then measures in one run
//   1. csv-parse alone reading it (the floor),
//   2. `ws import` into a local sandbox without latency,
//   3. `ws import` into a sandbox answering after 50 ms (--latency 50),
// and prints rows per second, the ratio to the parse-only time, and the peak RSS of the
// `ws` process. The three are measured --runs times (default 3), interleaved, and the
// medians are compared: on a shared machine one run of each can be off by a third. Each
// sandbox is started once and reset before every import (a running service, as users
// have one). Then the same without latency over 1,000,000 rows (one run), to show that
// memory does not grow with the file.
//
//   node bench/import.mjs                       # 200,000 rows, then 1,000,000
//   node bench/import.mjs --rows 50000 --runs 5 --no-million
//   node bench/import.mjs --chunk-sizes 99,500,1000,2000 --no-million   # compare chunk sizes
//
// Needs the build (npm run build). Targets: end-to-end within 2.5x the parse-only time
// without latency; peak RSS under 200 MiB. On Linux it also prints the CPU time of the
// `ws` process and of the sandbox, to tell which side bounds the rate.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'ws.js');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const rows = Number(flag('--rows', '200000'));
const chunkSizes = flag('--chunk-sizes', '')
  .split(',')
  .filter((s) => s !== '')
  .map(Number);
const million = !args.includes('--no-million');
const runs = Number(flag('--runs', '3'));
const dir = mkdtempSync(join(tmpdir(), 'ws-bench-import-'));
const MiB = 1024 * 1024;

async function generate(path, n) {
  const out = createWriteStream(path);
  const statuses = ['Lead', 'Customer', 'Churned'];
  const cities = ['London', 'Paris', 'Berlin', 'Lisbon', 'Oslo', 'Rome'];
  out.write('Name,Email,Phone,Job title,Company,City,Status,Score\n');
  let buf = '';
  for (let i = 0; i < n; i++) {
    buf += `Person ${i},person${i}@example.com,+44 20 ${String(i).padStart(8, '0')},Engineer ${i % 50},"Company ${i % 997}, Ltd",${cities[i % 6]},${statuses[i % 3]},${i % 1000}\n`;
    if (buf.length > 256 * 1024) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

async function parseOnly(path) {
  const { parse } = await import('csv-parse');
  const started = performance.now();
  let n = 0;
  for await (const _ of createReadStream(path).pipe(parse())) n++;
  return { ms: performance.now() - started, records: n - 1 };
}

/** Peak RSS of a process (VmHWM, Linux only), in bytes. */
function peakRss(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux, or gone
  }
  return undefined;
}

/** CPU seconds (user + system) a process used so far (Linux only). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

function run(argv, env, opts = {}) {
  const child = spawn(process.execPath, [bin, ...argv], {
    env: { ...process.env, ...env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => {
    stdout += c;
    opts.onStdout?.(stdout);
  });
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  let peak = 0;
  let cpu = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, peakRss(child.pid) ?? 0);
    cpu = cpuSeconds(child.pid) ?? cpu;
  }, 20);
  const done = new Promise((resolve) => {
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code, stdout, stderr, peak, cpu });
    });
  });
  return { child, done };
}

async function startSandbox(configDir, latency) {
  const env = { WS_CONFIG_DIR: configDir };
  let ready;
  const got = new Promise((resolve) => {
    ready = resolve;
  });
  const { child } = run(
    ['sandbox', 'start', '--port', '0', '--json', '--quiet', '--latency', String(latency)],
    env,
    {
      onStdout: (out) => {
        if (out.includes('\n')) ready(JSON.parse(out.split('\n')[0]));
      },
    },
  );
  const info = await got;
  return {
    env,
    cpu: () => cpuSeconds(child.pid),
    reset: () =>
      fetch(`${info.url}/__sandbox/reset`, {
        method: 'POST',
        headers: { 'x-api-key': info.api_key },
      }),
    stop: () => child.kill('SIGTERM'),
  };
}

/** `ws import` of `path` into `sandbox` (reset first). */
async function importInto(sandbox, path, extra = []) {
  await sandbox.reset();
  const before = sandbox.cpu() ?? 0;
  const started = performance.now();
  const { done } = run(['import', 'contact', path, '--json', '--quiet', ...extra], {
    ...sandbox.env,
    WS_NO_CACHE: '1',
  });
  const r = await done;
  const ms = performance.now() - started;
  if (r.code !== 0) throw new Error(`ws import exited ${r.code}: ${r.stderr}`);
  const summary = JSON.parse(r.stdout);
  const sandboxCpu = (sandbox.cpu() ?? before) - before;
  return { ms, peak: r.peak, summary, cpu: r.cpu, sandboxCpu };
}

/** A sandbox started for these runs only. */
async function withSandbox(latency, fn) {
  const sandbox = await startSandbox(mkdtempSync(join(dir, 'cfg-')), latency);
  try {
    return await fn(sandbox);
  } finally {
    sandbox.stop();
  }
}

/** The run of median time, with the range of times. */
function median(results) {
  const sorted = [...results].sort((a, b) => a.ms - b.ms);
  return { ...sorted[Math.floor(sorted.length / 2)], min: sorted[0].ms, max: sorted.at(-1).ms };
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const range = (r) =>
  r.min !== undefined && r.max !== r.min
    ? ` (${(r.min / 1000).toFixed(2)}-${(r.max / 1000).toFixed(2)})`
    : '';
const line = (label, ms, n, base, r = {}) =>
  console.log(
    `${label.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(7)} s${range(r)} ${fmt((n * 1000) / ms).padStart(9)} rows/s` +
      (base ? `  ${(ms / base).toFixed(2)}x parse` : '') +
      (r.peak ? `  peak RSS ${(r.peak / MiB).toFixed(0)} MiB` : '') +
      (r.cpu ? `  CPU: ws ${r.cpu.toFixed(1)} s, sandbox ${r.sandboxCpu.toFixed(1)} s` : ''),
  );

try {
  const path = join(dir, `rows-${rows}.csv`);
  await generate(path, rows);
  console.log(`${fmt(rows)} rows, 8 columns (${fmt(readFileSync(path).length / 1024)} KiB)`);
  if (chunkSizes.length > 0) {
    const parsed = await parseOnly(path);
    line('csv-parse alone', parsed.ms, rows);
    for (const latency of [0, 50]) {
      await withSandbox(latency, async (sandbox) => {
        for (const size of chunkSizes) {
          const r = await importInto(sandbox, path, ['--chunk-size', String(size)]);
          line(`ws import, latency ${latency}, chunk ${size}`, r.ms, rows, parsed.ms, r);
        }
      });
    }
  } else {
    const parses = [];
    const fast = [];
    const slow = [];
    await withSandbox(0, (sandbox0) =>
      withSandbox(50, async (sandbox50) => {
        for (let i = 0; i < runs; i++) {
          parses.push(await parseOnly(path));
          fast.push(await importInto(sandbox0, path));
          slow.push(await importInto(sandbox50, path));
        }
      }),
    );
    const parsed = median(parses);
    line(`csv-parse alone (median of ${runs})`, parsed.ms, rows, undefined, parsed);
    const f = median(fast);
    line('ws import, no latency', f.ms, rows, parsed.ms, f);
    if (fast.some((r) => r.summary.created !== rows))
      throw new Error(`created ${fast.map((r) => r.summary.created).join(', ')} of ${rows}`);
    const l = median(slow);
    line('ws import, --latency 50', l.ms, rows, parsed.ms, l);
    if (million) {
      rmSync(path, { force: true });
      const big = join(dir, 'rows-1000000.csv');
      await generate(big, 1_000_000);
      const parsedBig = await parseOnly(big);
      line('csv-parse alone, 1,000,000 rows', parsedBig.ms, 1_000_000);
      const r = await withSandbox(0, (sandbox) => importInto(sandbox, big));
      line('ws import, 1,000,000 rows', r.ms, 1_000_000, parsedBig.ms, r);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
