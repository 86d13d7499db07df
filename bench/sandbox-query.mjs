// Query benchmark of the sandbox: milliseconds per query of the record query engine
// (runQuery in-process, no HTTP) over 100,000 contacts, each query right after a write, so no
// result computed before the write can be returned as it was. A baseline is measured in the
// same run, interleaved with the rest: the engine's former way, kept here as a reference
// function (filter every record, sort every match with sortRecords, slice the page). Each
// operation prints its median, its spread (10th to 90th percentile) and its ratio to the
// baseline's median.
//
//   node bench/sandbox-query.mjs [--runs N] [--records N]     (default 30 runs, 100,000)
//   node --expose-gc bench/sandbox-query.mjs                    (also: the memory queries keep)
//
// The write before each query changes the score and city of a contact drawn at random
// (through the store, untimed), so records enter and leave the filter. Operations:
// - filtered + sorted first page: the same query each time (the goal: 5 ms or less);
// - the same over HTTP (POST …/contact/query on the sandbox's port, the client in-process);
// - a filtered + sorted first page of a query never asked before (its filter differs each
//   time, so nothing is cached for it);
// - sorted first page, no filter: every record is a match;
// - page 21 by cursor, sorted, no filter: a cursor walk's later page;
// - floor: an unsorted, filtered first page (it stops scanning at the end of the page).
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { register } from 'tsx/esm/api';

register();
const { startSandbox, recordsOf } = await import('../src/sandbox/index.ts');
const { runQuery } = await import('../src/sandbox/resources/records/query.ts');
const { compileFilter, compileSort, sortRecords } = await import(
  '../src/sandbox/resources/records/filter.ts'
);

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const runs = flag('--runs', 30);
const n = flag('--records', 100_000);
const CITIES = ['Oslo', 'Paris', 'Lima', 'Kyoto', 'Austin', 'Cairo', 'Perth', 'Quito'];
const FILTER = [{ score: { '>=': '50' } }, { city: { in: ['Oslo', 'Paris', 'Lima'] } }];
const SORT = [{ city: 'asc' }, { name: 'desc' }];
const GOAL = { select: ['name', 'score', 'city'], filter: FILTER, sort: SORT, limit: 50 };
const BY_NAME = { select: ['name'], sort: [{ name: 'asc' }], limit: 50 };

const sandbox = await startSandbox({ port: 0 });
const records = recordsOf(sandbox.store);
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const ids = [];
for (let i = 0; i < n; i++) {
  const record = records.create('contact', {
    default: {
      name: `Contact ${Math.floor(random() * 1e6)}`,
      email: `c${i}@bench.example`,
      score: Math.floor(random() * 100),
      city: CITIES[Math.floor(random() * CITIES.length)],
    },
  });
  ids.push(record.id);
}
const write = () => {
  const id = ids[Math.floor(random() * ids.length)];
  const city = CITIES[Math.floor(random() * CITIES.length)];
  records.update('contact', id, { default: { score: Math.floor(random() * 100), city } });
};
const query = (spec) => runQuery(sandbox.store, sandbox.teamId, 'contact', spec);

/** The engine's former way to a page: every match, fully sorted, then sliced. */
const scope = { store: sandbox.store, teamId: sandbox.teamId, type: 'contact', listId: null };
const referenceKeep = compileFilter(scope, FILTER, 'AND', (path) => path);
const referenceSort = compileSort(scope, SORT, (path) => path);
function reference() {
  const matches = [];
  for (const record of records.records('contact')) if (referenceKeep(record)) matches.push(record);
  return sortRecords(matches, referenceSort).slice(0, 50);
}

/** Heap in use after a full collection (with --expose-gc), else undefined. */
const heapUsed = () => {
  if (globalThis.gc === undefined) return undefined;
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const heapBefore = heapUsed();

// The reference agrees with the engine, and the cursor of page 21 (sorted by name).
const engineIds = query(GOAL).data.map((row) => row.id);
const referenceIds = reference().map((record) => record.id);
if (JSON.stringify(engineIds) !== JSON.stringify(referenceIds)) {
  throw new Error('the engine and the reference disagree on the first page');
}
let cursor;
for (let page = 1; page <= 20; page++) {
  cursor = query(cursor === undefined ? BY_NAME : { ...BY_NAME, cursor }).next_cursor;
}
const url = `${sandbox.url}/v2/prism/${sandbox.teamId}/contact/query`;
const headers = { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' };
const body = JSON.stringify({ query: GOAL });
let fresh = 0;

/**
 * POST `payload` on a connection of its own (the engine's former sorts held the event loop
 * long enough for a kept-alive connection to time out under the next request).
 */
function post(target, payload) {
  return new Promise((resolve, reject) => {
    const req = request(target, { method: 'POST', headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200) reject(new Error(`query: ${res.statusCode} ${text}`));
        else resolve(JSON.parse(text));
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const BASELINE = 'baseline: filter all, sort all (before)';
const ops = {
  [BASELINE]: reference,
  'filtered + sorted first page': () => query(GOAL),
  'the same over HTTP': () => post(url, body),
  'filtered + sorted, a new query': () =>
    query({
      ...GOAL,
      filter: [{ score: { '>=': String(20 + (fresh++ % 1e6) / 1e6) } }, FILTER[1]],
    }),
  'sorted first page, no filter': () => query(BY_NAME),
  'page 21 by cursor, sorted': () => query({ ...BY_NAME, cursor }),
  'floor: unsorted filtered page': () => query({ select: GOAL.select, filter: FILTER, limit: 50 }),
};

const times = new Map(Object.keys(ops).map((name) => [name, []]));
for (const op of Object.values(ops)) await op();
for (let run = 0; run < runs; run++) {
  for (const [name, op] of Object.entries(ops)) {
    write();
    const started = performance.now();
    await op();
    times.get(name).push(performance.now() - started);
  }
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.ceil(at)] - sorted[low]) * (at - low);
};
const base = quantile(times.get(BASELINE), 0.5);
const header = [
  `after a write, ${n.toLocaleString('en')} contacts, ${runs} runs`,
  'median',
  'p10 – p90',
  'vs baseline',
];
const rows = [...times].map(([name, t]) => [
  name,
  `${quantile(t, 0.5).toFixed(2)} ms`,
  `${quantile(t, 0.1).toFixed(2)} – ${quantile(t, 0.9).toFixed(2)} ms`,
  name === BASELINE ? '1' : (quantile(t, 0.5) / base).toFixed(3),
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));
const goal = quantile(times.get('filtered + sorted first page'), 0.5);
console.log(
  `\ngoal: a filtered, sorted first page after a write in 5 ms or less: ${goal <= 5 ? 'met' : 'not met'} (${goal.toFixed(2)} ms)`,
);
const heapAfter = heapUsed();
if (heapAfter !== undefined) {
  const mib = (heapAfter - heapBefore) / 2 ** 20;
  console.log(
    `memory the queries keep after the runs (result sets, creation places): ${mib.toFixed(1)} MiB`,
  );
}
await sandbox.close();
