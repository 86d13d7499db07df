// Persistence benchmark of the sandbox's data file (--data), at 100,000 records, each figure
// against a sandbox without --data measured in the same run:
//
//   node bench/sandbox-persist.mjs [--records N] [--runs N] [--kills N] [--only SECTION]
//   (defaults: 100,000 records, 5 runs, 20 kills; `npm run build` first: the kills run bin/ws.js;
//   SECTION: stall (1 and 3), fsync, kills or growth)
//
// On a busy machine, read the CPU time of the load and the ratios rather than wall times.
//
// 1. Stall: health GET latency (p50, p99) while 10 writes/s go on, without --data, with
//    --data, and with --data while the file is rewritten back to back (a compaction always
//    under way). The goal: p99 with --data within 2x of the one without.
// 2. Write cost per fsync policy: median ms of a create over HTTP, without --data and with
//    each of `no`, `everysec`, `always`.
// 3. Save (a full rewrite, in the background) and load (start on the file) at N records;
//    load against a start without --data.
// 4. Acknowledged writes lost per kill -9 (six clients creating and patching) of a real
//    `ws sandbox start --data` process holding N records.
// 5. Growth: bytes appended to the data file per write as the runs, deliveries and import
//    jobs kept grow (100 runs and deliveries, then 5,000 with 5 import jobs more): a create
//    that fires 10 automations (each a webhook step to a local receiver, so a run and a
//    delivery each, and the delivery's attempt), and an import job of 1,000 rows. Beside each,
//    what journaling the changed slices whole (the format before runs, deliveries and jobs
//    were keyed) appends for the same changes: a listener writes each slice the changes
//    touched once per turn of the event loop, as that journal's commit did.
// Medians of --runs runs; spread is min..max.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { register } from 'tsx/esm/api';

register();
const { startSandbox, recordsOf } = await import('../src/sandbox/index.ts');
const { killRounds } = await import('../test/sandbox/crash-writers.ts');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const N = arg('--records', 100_000);
const RUNS = arg('--runs', 5);
const KILLS = arg('--kills', 20);
const onlyAt = process.argv.indexOf('--only');
const want = (section) => onlyAt < 0 || process.argv[onlyAt + 1] === section;
const dir = mkdtempSync(join(tmpdir(), 'ws-bench-persist-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};
const spread = (xs) => `${Math.min(...xs).toFixed(1)}..${Math.max(...xs).toFixed(1)}`;

function fill(sandbox, n) {
  const records = recordsOf(sandbox.store);
  for (let i = 0; i < n; i++) {
    records.create('contact', {
      default: { name: `Contact ${i}`, email: `c${i}@bench.example`, job_title: 'Engineer' },
    });
  }
}

async function request(sandbox, method, path, body) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

const createPath = (s) => `/v2/prism/${s.teamId}/contact`;

/** Health GET latencies over `ms` while 10 writes/s go on. */
async function stall(sandbox, ms, whileRunning = () => {}) {
  const latencies = [];
  const end = performance.now() + ms;
  const writer = setInterval(() => {
    void request(sandbox, 'POST', createPath(sandbox), { default: { name: 'W' } });
  }, 100);
  while (performance.now() < end) {
    whileRunning();
    const t = performance.now();
    await request(sandbox, 'GET', '/__sandbox/health');
    latencies.push(performance.now() - t);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  clearInterval(writer);
  return latencies;
}

async function sandboxOf(n, options) {
  const sandbox = await startSandbox({ port: 0, ...options });
  fill(sandbox, n);
  await sandbox.flush();
  await request(sandbox, 'POST', createPath(sandbox), { default: { name: 'warm-up' } });
  return sandbox;
}

// 1. Stall
console.log(`# sandbox persistence at ${N.toLocaleString('en')} records, ${RUNS} runs`);
if (want('stall')) {
  const plain = await sandboxOf(N, {});
  const file = join(dir, 'stall.data');
  const kept = await sandboxOf(N, { dataFile: file });
  const p99 = { plain: [], data: [], rewriting: [] };
  const p50 = { plain: [], data: [], rewriting: [] };
  for (let r = 0; r < RUNS; r++) {
    for (const [name, sandbox, during] of [
      ['plain', plain, undefined],
      ['data', kept, undefined],
      ['rewriting', kept, () => void kept.journal.compact()],
    ]) {
      const l = await stall(sandbox, 3000, during);
      p99[name].push(pct(l, 0.99));
      p50[name].push(pct(l, 0.5));
    }
  }
  await kept.journal.compact();
  console.log('\n## health GET under 10 writes/s (ms; median of runs, spread)');
  console.log('sandbox                     p50     p99   p99 spread    p99 ratio');
  for (const name of ['plain', 'data', 'rewriting']) {
    const label = {
      plain: 'without --data',
      data: 'with --data',
      rewriting: 'with --data, rewriting',
    }[name];
    console.log(
      `${label.padEnd(26)} ${median(p50[name]).toFixed(2).padStart(6)} ${median(p99[name]).toFixed(2).padStart(7)}   ${spread(p99[name]).padEnd(12)} ${(median(p99[name]) / median(p99.plain)).toFixed(2)}x`,
    );
  }

  // 3. Save: a full rewrite of the file, in the background.
  const saves = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    await kept.journal.compact();
    saves.push(performance.now() - t);
  }
  const size = statSync(file).size;
  await kept.close();
  await plain.close();

  // Load: start on the file, against a start without it. CPU time too: on a busy machine
  // the wall time says more about the machine than about the load.
  const loads = [];
  const loadCpu = [];
  const starts = [];
  for (let r = 0; r < RUNS; r++) {
    let t = performance.now();
    const cpu = process.cpuUsage();
    const loaded = await startSandbox({ port: 0, dataFile: file });
    loads.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    loadCpu.push((used.user + used.system) / 1000);
    if (recordsOf(loaded.store).count('contact') < N) throw new Error('load lost records');
    await loaded.close();
    t = performance.now();
    const empty = await startSandbox({ port: 0 });
    starts.push(performance.now() - t);
    await empty.close();
  }
  console.log(`\n## save and load (${(size / 2 ** 20).toFixed(1)} MiB file)`);
  console.log(
    `rewrite (background, between requests)  ${median(saves).toFixed(0)} ms  (${spread(saves)})`,
  );
  console.log(
    `load at start                            ${median(loads).toFixed(0)} ms  (${spread(loads)}), CPU ${median(loadCpu).toFixed(0)} ms; start without --data ${median(starts).toFixed(0)} ms`,
  );
}

// 2. Write cost per fsync policy
if (want('fsync')) {
  const policies = [undefined, 'no', 'everysec', 'always'];
  const sandboxes = [];
  for (const policy of policies) {
    const options =
      policy === undefined ? {} : { dataFile: join(dir, `w-${policy}.data`), fsync: policy };
    sandboxes.push(await sandboxOf(1000, options));
  }
  const times = policies.map(() => []);
  for (let r = 0; r < RUNS * 40; r++) {
    for (const [i, sandbox] of sandboxes.entries()) {
      const t = performance.now();
      await request(sandbox, 'POST', createPath(sandbox), { default: { name: `N ${r}` } });
      times[i].push(performance.now() - t);
    }
  }
  console.log('\n## create over HTTP, per fsync policy (median ms of requests, p99, ratio)');
  const base = median(times[0]);
  for (const [i, policy] of policies.entries()) {
    console.log(
      `${(policy === undefined ? 'without --data' : `--fsync ${policy}`).padEnd(18)} ${median(times[i]).toFixed(2).padStart(6)}  p99 ${pct(times[i], 0.99).toFixed(2).padStart(6)}  ${(median(times[i]) / base).toFixed(2)}x`,
    );
  }
  for (const sandbox of sandboxes) await sandbox.close();
}

// 4. Kills of a process holding N records
if (want('kills')) {
  const file = join(dir, 'kill.data');
  const filled = await startSandbox({ dataFile: file });
  fill(filled, N);
  await filled.close();
  const rounds = await killRounds(file, { rounds: KILLS, clients: 6, minMs: 300, maxMs: 1500 });
  const writes = rounds.map((r) => r.writes);
  const lost = rounds.map((r) => r.lost);
  console.log(`\n## kill -9 during 6 writers, ${N.toLocaleString('en')} records, ${KILLS} kills`);
  console.log(
    `acknowledged writes per kill: median ${median(writes)} (${spread(writes)}); lost per kill: median ${median(lost)}, max ${Math.max(...lost)}, total ${lost.reduce((a, b) => a + b, 0)}`,
  );
}

// 5. Bytes per write as runs, deliveries and jobs grow
if (want('growth')) {
  const { createServer } = await import('node:http');
  let posts = 0;
  const receiver = createServer((req, res) => {
    const challenge = new URL(req.url, 'http://receiver').searchParams.get(
      'service_hook_challenge',
    );
    if (req.method === 'POST') posts++;
    req.resume();
    req.on('end', () => res.end(challenge ?? 'ok'));
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const file = join(dir, 'growth.data');
  const sandbox = await startSandbox({ port: 0, dataFile: file, compactMinBytes: 2 ** 50 });
  const prism = (rest) => `/v2/prism/${sandbox.teamId}/${rest}`;
  const send = async (method, path, body) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => undefined);
    if (res.status >= 300)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return { json, location: res.headers.get('location') };
  };
  const waitFor = async (what, check) => {
    const end = Date.now() + 120_000;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const hook = (
    await send('POST', `/v2/webhooks/${sandbox.teamId}`, {
      name: 'bench',
      url: `http://127.0.0.1:${receiver.address().port}/hook`,
    })
  ).json;
  await waitFor('the handshake', async () => {
    const read = await send('GET', `/v2/webhooks/${sandbox.teamId}/${hook.id}`);
    return read.json.verified;
  });
  for (let i = 0; i < 10; i++) {
    await send('POST', prism('contact/triggered_automations'), {
      kind: 'lifecycle',
      name: `tell ${i}`,
      on_create: true,
      state: { filter: [] },
      actions: [{ type: 'webhook', webhook_id: hook.id }],
    });
  }

  // What journaling whole slices appends: each slice a change touched, once per turn.
  const whole = new Map();
  const touched = new Set();
  sandbox.store.onChange((change) => {
    if (change.kind !== 'slice' || sandbox.store.isKeyed(change.name) === false) return;
    if (change.name === 'records' || change.name === 'idempotency') return;
    if (touched.size === 0) {
      setImmediate(() => {
        for (const name of touched) {
          const line = `${JSON.stringify({ s: name, w: sandbox.store.sliceJSON(name) })}\n`;
          whole.set(name, (whole.get(name) ?? 0) + Buffer.byteLength(line));
        }
        touched.clear();
      });
    }
    touched.add(change.name);
  });
  const wholeBytes = () => [...whole.values()].reduce((a, b) => a + b, 0);
  const settled = async () => {
    await waitFor('deliveries attempted', async () => {
      const list = await send(
        'GET',
        `/v2/webhooks/${sandbox.teamId}/${hook.id}/deliveries?limit=100`,
      );
      return list.json.data.every((d) => d.status !== 'pending');
    });
    await sandbox.flush();
    await new Promise((resolve) => setImmediate(resolve));
  };
  const runsKept = async () => sandbox.store.sliceJSON('automation_runs').runs.length;
  const importJob = async (type, rows) => {
    const objects = Array.from({ length: rows }, (_, i) => ({ default: { name: `Row ${i}` } }));
    const started = await send('POST', prism(`${type}/import`), { objects });
    await waitFor('the import job', async () => {
      const read = await send('GET', started.location);
      return read.json.status !== 'processing';
    });
  };

  console.log('\n## bytes appended per write as runs, deliveries and import jobs grow');
  console.log(
    'runs   deliveries  jobs   create firing 10 automations: file (whole)      import of 1,000 rows, per row: file (whole)',
  );
  console.log(
    '(file: bytes the data file grew, records included; whole: the changed slices other than records, journaled whole)',
  );
  let jobs = 0;
  const results = [];
  for (const target of [100, 5_000]) {
    // Fill: contacts imported 100 at a time (1,000 runs and deliveries each), then creates.
    while ((await runsKept()) + 1_000 <= target) {
      await importJob('contact', 100);
      jobs++;
    }
    while ((await runsKept()) < target)
      await send('POST', prism('contact'), { default: { name: 'F' } });
    await settled();
    const runs = await runsKept();
    const deliveries = sandbox.store.sliceJSON('webhooks').deliveries.length;
    const creates = [];
    const createsWhole = [];
    for (let r = 0; r < RUNS * 2; r++) {
      const size = statSync(file).size;
      const before = wholeBytes();
      const seen = posts;
      await send('POST', prism('contact'), { default: { name: `Write ${r}` } });
      await waitFor('10 deliveries', () => posts >= seen + 10);
      await settled();
      creates.push(statSync(file).size - size);
      createsWhole.push(wholeBytes() - before);
    }
    const imports = [];
    const importsWhole = [];
    for (let r = 0; r < RUNS; r++) {
      const size = statSync(file).size;
      const before = wholeBytes();
      await importJob('deal', 1_000);
      jobs++;
      await settled();
      imports.push((statSync(file).size - size) / 1_000);
      importsWhole.push((wholeBytes() - before) / 1_000);
    }
    results.push({ creates: median(creates), createsWhole: median(createsWhole) });
    const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
    console.log(
      `${String(runs).padEnd(6)} ${String(deliveries).padEnd(11)} ${String(jobs).padEnd(6)} ${kib(median(creates)).padStart(10)} (${spread(creates.map((b) => b / 1024))}) (${kib(median(createsWhole))})`.padEnd(
        78,
      ) +
        `${median(imports).toFixed(0)} B (${spread(imports)}) (${median(importsWhole).toFixed(0)} B)`,
    );
  }
  const [small, large] = results;
  console.log(
    `create firing 10 automations, 5,000 vs 100 runs: keyed ${(large.creates / small.creates).toFixed(2)}x, whole ${(large.createsWhole / small.createsWhole).toFixed(2)}x`,
  );
  await sandbox.close();
  receiver.close();
}
