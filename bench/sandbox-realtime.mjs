// Realtime benchmark of the sandbox: what readers of the change stream cost it.
//
//   node --expose-gc bench/sandbox-realtime.mjs [--changes N]     (default 20,000 changes)
//
// The sandbox runs in this process (src/sandbox over tsx, no build needed). Changes are
// record creates through the records model with a cause (so the event spine announces them,
// as for an API write; 2 KB of values each), in three runs of the same sandbox settings:
//   - none:    no reader;
//   - live:    one reader that reads every message (the `ws` package's client, in this
//              process), waited for until it has them all;
//   - stalled: one reader that stopped reading (its socket paused) from the start.
// Each run reports the sandbox's heap growth (after a full GC) over the writes, per change,
// and the most the sandbox queued for its reader (`buffered_bytes` of GET /__sandbox/realtime).
// The change feed keeps its window (10,000 changes) in every run, so the difference between
// `stalled` and `none` is what a stalled reader costs: a bounded buffer, not the changes.
// Medians of 3 runs each, alternating.
import { performance } from 'node:perf_hooks';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const CHANGES = Number(flag('--changes', '20000'));
const RUNS = 3;

if (typeof globalThis.gc !== 'function') {
  console.error('Run with --expose-gc: node --expose-gc bench/sandbox-realtime.mjs');
  process.exit(2);
}

const { register } = await import('tsx/esm/api');
register();
const { startSandbox } = await import('../src/sandbox/index.ts');
const { recordsOf } = await import('../src/sandbox/resources/records/model.ts');
const { WebSocket } = await import('ws');

const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function run(kind) {
  const sandbox = await startSandbox({ port: 0 });
  const headers = { 'x-api-key': sandbox.apiKey };
  let reader;
  let received = 0;
  if (kind !== 'none') {
    const res = await fetch(`${sandbox.url}/v2/realtime/ticket`, { method: 'POST', headers });
    const { ticket, ws_url } = await res.json();
    reader = new WebSocket(`${ws_url}?token=${ticket}`);
    reader.on('message', () => received++);
    await new Promise((r) => reader.once('open', r));
    if (kind === 'stalled') reader.pause();
  }
  const note = 'x'.repeat(2_000);
  const records = recordsOf(sandbox.store);
  const cause = { source: 'create', teamId: sandbox.teamId };
  const before = heap();
  const started = performance.now();
  let mostBuffered = 0;
  for (let i = 0; i < CHANGES; i++) {
    records.create('contact', { default: { name: `n${i}`, notes: note } }, cause);
    if (i % 1_000 === 999) {
      await sleep(0); // readers hear of changes between writes, as between requests
      const status = await (await fetch(`${sandbox.url}/__sandbox/realtime`, { headers })).json();
      for (const r of status.readers) mostBuffered = Math.max(mostBuffered, r.buffered_bytes);
    }
  }
  if (kind === 'live') while (received < CHANGES + 1) await sleep(5);
  const ms = performance.now() - started;
  const after = heap();
  reader?.terminate();
  await sandbox.close();
  return { growth: after - before, ms, mostBuffered };
}

const results = { none: [], live: [], stalled: [] };
for (let i = 0; i < RUNS; i++) {
  for (const kind of ['none', 'live', 'stalled']) results[kind].push(await run(kind));
}
console.log(`${CHANGES} changes of 2 KB, medians of ${RUNS} runs`);
for (const [kind, rs] of Object.entries(results)) {
  const growth = median(rs.map((r) => r.growth));
  console.log(
    `${kind.padEnd(8)} heap +${(growth / 1024 / 1024).toFixed(1).padStart(5)} MiB (${Math.round(growth / CHANGES)} B a change), ${Math.round(median(rs.map((r) => r.ms)))} ms, most queued to the reader ${Math.round(median(rs.map((r) => r.mostBuffered)) / 1024)} KiB`,
  );
}
