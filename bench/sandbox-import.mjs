// Import benchmark of the sandbox alone: the CPU time the sandbox spends per 1,000 imported
// rows, against the time to JSON.parse and JSON.stringify the same request bodies (the
// least any server must spend on them), and the ratio of the two.
//
//   node bench/sandbox-import.mjs [--bodies N]      (default 200 bodies of 1,000 rows)
//   node --cpu-prof bench/sandbox-import.mjs        (a CPU profile of the sandbox alone)
//
// The sandbox runs in this process (src/sandbox over tsx, no build needed) on a real HTTP
// port. The client runs in a child process (this file with --client), so the CPU time of
// this process, measured with process.cpuUsage() from the child's start to its exit, is the
// sandbox's own. The client sends what `ws import contact` sends for the 8 columns of
// bench/import.mjs (name, email, phone, title, company, city, the select status, the number
// score): bodies {"objects":[{"default":{...}}, ...]} of 1,000 objects, 4 in flight, each
// with an Idempotency-Key; every body starts a job, polled (from 250 ms, backing off 1.6x)
// until complete, and the client checks every row was created.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const BODIES = Number(flag('--bodies', '200'));
const ROWS = 1000;
const IN_FLIGHT = 4;

/** Body `b` (0-based): rows b*1000 .. b*1000+999, as the CLI builds them. */
function body(b) {
  const statuses = ['Lead', 'Customer', 'Churned'];
  const cities = ['London', 'Paris', 'Berlin', 'Lisbon', 'Oslo', 'Rome'];
  const objects = [];
  for (let i = b * ROWS; i < (b + 1) * ROWS; i++) {
    const values = {
      name: `Person ${i}`,
      email: `person${i}@example.com`,
      phone: `+44 20 ${String(i).padStart(8, '0')}`,
      title: `Engineer ${i % 50}`,
      company: `Company ${i % 997}, Ltd`,
      city: cities[i % 6],
      status: statuses[i % 3],
      score: i % 1000,
    };
    objects.push(`{"default":${JSON.stringify(values)}}`);
  }
  return `{"objects":[${objects.join(',')}]}`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The client: send every body, poll its job, check the results; prints how many rows. */
async function client() {
  const { URL: url, API_KEY: apiKey, TEAM_ID: teamId } = process.env;
  const base = `${url}/v2/prism/${teamId}`;
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const run = `${Date.now()}`;
  let next = 0;
  let created = 0;
  async function send(b) {
    const res = await fetch(`${base}/contact/import`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': `bench-${run}-${b}` },
      body: body(b),
    });
    let job = await res.json();
    if (res.status !== 202) throw new Error(`import: ${res.status} ${JSON.stringify(job)}`);
    for (let delay = 250; job.status === 'processing'; delay = Math.min(5000, delay * 1.6)) {
      await sleep(delay);
      const poll = await fetch(`${base}/imports/${job.job_id}`, { headers });
      job = await poll.json();
      if (poll.status !== 200) throw new Error(`poll: ${poll.status} ${JSON.stringify(job)}`);
    }
    if (job.status !== 'complete' || job.results.length !== ROWS)
      throw new Error(`job ${job.job_id}: ${job.status}, ${job.results?.length} results`);
    created += job.results.filter((r) => r.created).length;
  }
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < BODIES) await send(next++);
    }),
  );
  console.log(JSON.stringify({ created }));
}

const cpuMs = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

async function main() {
  const { register } = await import('tsx/esm/api');
  register();
  const { startSandbox } = await import('../src/sandbox/index.ts');

  // Baseline: parse and serialise the same bodies, in this process (the best of 3 passes:
  // the machine's noise only ever adds time).
  const texts = Array.from({ length: BODIES }, (_, b) => body(b));
  let bytes = 0;
  let baseline = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 3; pass++) {
    const parseStarted = process.cpuUsage();
    bytes = 0;
    for (const text of texts) bytes += JSON.stringify(JSON.parse(text)).length;
    baseline = Math.min(baseline, cpuMs(parseStarted));
  }
  texts.length = 0;

  const sandbox = await startSandbox({ port: 0 });
  const started = process.cpuUsage();
  const wallStarted = performance.now();
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--client', ...args], {
    env: { ...process.env, URL: sandbox.url, API_KEY: sandbox.apiKey, TEAM_ID: sandbox.teamId },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  const spent = cpuMs(started);
  const wall = performance.now() - wallStarted;
  await sandbox.close();
  if (code !== 0) throw new Error(`the client exited ${code}`);
  const { created } = JSON.parse(out);
  if (created !== BODIES * ROWS) throw new Error(`created ${created} of ${BODIES * ROWS} rows`);

  const per = (ms) => `${((ms * ROWS) / created).toFixed(1)} ms`;
  console.log(
    `${BODIES} bodies of ${ROWS} rows (${(bytes / BODIES / 1024).toFixed(0)} KiB each), ${created} records created in ${(wall / 1000).toFixed(1)} s`,
  );
  console.log(`sandbox CPU                 ${per(spent).padStart(9)} per 1,000 rows`);
  console.log(
    `JSON.parse + JSON.stringify ${per(baseline).padStart(9)} per 1,000 rows (best of 3)`,
  );
  console.log(`ratio                       ${(spent / baseline).toFixed(1).padStart(7)}x`);
}

if (args.includes('--client')) await client();
else await main();
