// Records benchmark of the sandbox: median milliseconds per request, over real HTTP, for a
// sandbox holding 1,000 contacts and one holding 10,000, both started in this process and
// measured interleaved, with the ratio 10,000 / 1,000 of each operation.
//
//   node bench/sandbox-records.mjs [--runs N]      (default 40 runs per operation)
//
// Operations: list first page; a deep list page (page 100 at 10,000 records, the last page,
// 20, at 1,000) reached by following cursors; a query with a filter and a sort; count. The
// read-only operations are measured first (results cached since the last write: "warm"), then
// the deep page and the query "after a write": a record is written (through the store, not
// timed) before each request, so the cached result catches up with that write (it is no
// longer filtered and sorted again whole: bench/sandbox-query.mjs times that). A second table
// times the same operations on the query engine alone (runQuery in-process, no HTTP), where
// the cost of the number of records is not hidden by the cost of a request.
import { performance } from 'node:perf_hooks';
import { register } from 'tsx/esm/api';

register();
const { startSandbox, recordsOf } = await import('../src/sandbox/index.ts');
const { runQuery } = await import('../src/sandbox/resources/records/query.ts');

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 40;
const CITIES = ['Oslo', 'Paris', 'Lima', 'Kyoto', 'Austin', 'Cairo', 'Perth', 'Quito'];
const QUERY = {
  query: {
    select: ['name', 'score', 'city'],
    filter: [{ score: { '>=': '50' } }, { city: { in: ['Oslo', 'Paris', 'Lima'] } }],
    sort: [{ city: 'asc' }, { name: 'desc' }],
    limit: 50,
  },
};

/** A sandbox with `n` contacts, loaded through the store. */
async function sandboxWith(n) {
  const sandbox = await startSandbox({ port: 0 });
  const records = recordsOf(sandbox.store);
  let seed = n;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < n; i++) {
    records.create('contact', {
      default: {
        name: `Contact ${Math.floor(random() * 1e6)}`,
        email: `c${i}@bench.example`,
        score: Math.floor(random() * 100),
        city: CITIES[Math.floor(random() * CITIES.length)],
      },
    });
  }
  const base = `${sandbox.url}/v2/prism/${sandbox.teamId}/contact`;
  const headers = { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' };
  const request = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  // The cursor of the deepest page wanted, by following next_cursor.
  const depth = Math.min(100, Math.ceil(n / 50));
  let cursor;
  for (let page = 1; page < depth; page++) {
    cursor = (await request('GET', cursor === undefined ? '?limit=50' : `?cursor=${cursor}`))
      .next_cursor;
  }
  const victim = [...records.records('contact')][0].id;
  let tick = 0;
  const write = () => records.update('contact', victim, { default: { score: tick++ % 100 } });
  const engine = (spec) => () => runQuery(sandbox.store, sandbox.teamId, 'contact', spec);
  return {
    sandbox,
    depth,
    engine: {
      'list first page': engine({ limit: 50 }),
      'list deep page (cursor)': engine({ cursor }),
      'query filter + sort': engine(QUERY.query),
      count: () => records.count('contact'),
    },
    ops: {
      'list first page': () => request('GET', '?limit=50'),
      'list deep page (cursor)': () => request('GET', `?cursor=${cursor}`),
      'query filter + sort': () => request('POST', '/query', QUERY),
      count: () => request('GET', '/count'),
    },
    /** Run before each cold measurement, untimed. */
    write,
  };
}

const small = await sandboxWith(1_000);
const large = await sandboxWith(10_000);
const sizes = [
  ['small', small],
  ['large', large],
];

/** Interleaved runs of `names` on both sandboxes; `cold` writes a record before each. */
async function measure(times, kind, names, cold) {
  for (const name of names) {
    times.set(`${name}${cold ? ' (after a write)' : ''}`, { small: [], large: [] });
    for (const [, target] of sizes) await target[kind][name]();
  }
  for (let run = 0; run < runs; run++) {
    for (const name of names) {
      for (const [size, target] of sizes) {
        if (cold) target.write();
        const started = performance.now();
        await target[kind][name]();
        times
          .get(`${name}${cold ? ' (after a write)' : ''}`)
          [size].push(performance.now() - started);
      }
    }
  }
  return times;
}
const COLD = ['list deep page (cursor)', 'query filter + sort'];
const http = new Map();
await measure(http, 'ops', Object.keys(small.ops), false);
await measure(http, 'ops', COLD, true);
const inProcess = new Map();
await measure(inProcess, 'engine', Object.keys(small.engine), false);
await measure(inProcess, 'engine', COLD, true);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
function table(title, times, digits) {
  const rows = [...times].map(([label, t]) => {
    const a = median(t.small);
    const b = median(t.large);
    return [label, `${a.toFixed(digits)} ms`, `${b.toFixed(digits)} ms`, (b / a).toFixed(2)];
  });
  const header = [`${title} (median of ${runs})`, '1,000 records', '10,000 records', 'ratio'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log('');
}
table('over HTTP', http, 2);
table('query engine alone', inProcess, 3);
console.log(
  `deep page: page ${large.depth} at 10,000 records, page ${small.depth} (the last) at 1,000 records`,
);

await small.sandbox.close();
await large.sandbox.close();
