// Fan-out benchmark of the sandbox: how it holds up when one write asks for many webhook
// deliveries, and while an import fires webhook automations on every row.
//
//   node bench/sandbox-fanout.mjs [--runs N] [--sizes 1000,3000,10000,30000] [--rows N]
//        [--automations N] [--part abc]             (default 3 runs; every part)
//
// Three processes, as a user runs them: the built `ws sandbox start` (run `npm run build`
// first), a receiver (this file with --receiver) that answers every delivery 200 at once and
// counts them by delivery id, and this process, which drives the sandbox and asks
// GET /__sandbox/health every 10 ms on a connection of its own, timing each answer.
//
// Part A: one update of a deal fires N webhook actions (N/100 automations of 100 webhook
// actions each, all to one verified webhook). Timed from the PATCH until the receiver has
// every delivery: the time per delivery must stay flat (within 2x of N = 1,000's) as N grows,
// and the health answers' p99 under 50 ms throughout. Part B: an import of ROWS (20,000)
// contact rows, in one asynchronous job, into a sandbox with AUTOMATIONS (50) on_create
// automations each with a webhook action: 1,000,000 deliveries asked for; past 100,000
// waiting to be sent, the sandbox keeps them failed (not_sent). Timed from the import until
// its job is complete and the deliveries made are sent; health p99 throughout. Part C: a
// deal created fires an email step whose subject renders to its time limit (50 ms) for each
// of 99 recipients (the step's 5 s budget): health p99 while the worker renders.
//
// The baseline, in the same run: health answers with nothing else going on. Figures are
// medians of the runs with their spread (min-max); runs of the sizes are interleaved.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const RUNS = Number(flag('--runs', 3));
const SIZES = flag('--sizes', '1000,3000,10000,30000').split(',').map(Number);
const ROWS = Number(flag('--rows', 20_000));
const AUTOMATIONS = Number(flag('--automations', 50));
const PART = flag('--part', 'abc');
const BIN = new URL('../bin/ws.js', import.meta.url).pathname;

/** The child: a receiver answering 200 at once, counting deliveries per id. */
async function receiver() {
  const seen = new Map();
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://receiver');
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET') return res.end(url.searchParams.get('service_hook_challenge'));
      const id = req.headers['x-service-delivery-id'];
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'count') {
      let twice = 0;
      for (const n of seen.values()) if (n > 1) twice++;
      console.log(JSON.stringify({ received: seen.size, twice }));
    } else if (line === 'clear') {
      seen.clear();
      console.log('{}');
    }
  }
  process.exit(0);
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => {
  const s = sorted(xs);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const percentile = (xs, p) => {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const spread = (xs, digits = 1) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;

async function main() {
  const config = mkdtempSync(join(tmpdir(), 'ws-bench-fanout-'));
  const sandboxChild = spawn(
    process.execPath,
    [
      ...(process.env.FANOUT_NODE_ARGS ?? '').split(' ').filter(Boolean),
      BIN,
      'sandbox',
      'start',
      '--port',
      '0',
      '--json',
      '--no-profile',
    ],
    {
      // Its request log is not read.
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, WS_CONFIG_DIR: config, NO_COLOR: '1' },
    },
  );
  const sb = JSON.parse(
    (await createInterface({ input: sandboxChild.stdout })[Symbol.asyncIterator]().next()).value,
  );
  sandboxChild.stdout.resume();
  const receiverChild = spawn(process.execPath, [new URL(import.meta.url).pathname, '--receiver'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: receiverChild.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => JSON.parse((await lines.next()).value);
  const { port } = await nextLine();
  const ask = async (command) => {
    receiverChild.stdin.write(`${command}\n`);
    return nextLine();
  };

  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const http = (method, path, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        `${sb.url}${path}`,
        {
          method,
          agent,
          headers: {
            'x-api-key': sb.api_key,
            ...(payload === undefined
              ? {}
              : {
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(payload),
                }),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const prism = (rest) => `/v2/prism/${sb.team_id}/${rest}`;
  const hooks = (rest = '') => `/v2/webhooks/${sb.team_id}${rest}`;

  /** Health asked every 10 ms, one at a time, on a connection of its own, until stopped. */
  function pollHealth() {
    const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const times = [];
    let stopped = false;
    const done = (async () => {
      while (!stopped) {
        const started = performance.now();
        await new Promise((resolve, reject) => {
          const req = request(`${sb.url}/__sandbox/health`, { agent: healthAgent }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject);
          req.end();
        });
        times.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 10));
      }
      healthAgent.destroy();
    })();
    return async () => {
      stopped = true;
      await done;
      return times;
    };
  }

  async function verifiedHook() {
    const hook = (
      await http('POST', hooks(), { name: 'bench', url: `http://127.0.0.1:${port}/events` })
    ).body;
    for (;;) {
      if ((await http('GET', hooks(`/${hook.id}`))).body.verified) return hook;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async function fresh() {
    await http('POST', '/__sandbox/reset');
    await ask('clear');
    return verifiedHook();
  }

  async function waitForDeliveries(expected) {
    for (;;) {
      const { received, twice } = await ask('count');
      if (twice > 0) throw new Error(`${twice} deliveries received twice`);
      if (received >= expected) return received;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  // Baseline: health with nothing else going on.
  const stopIdle = pollHealth();
  await new Promise((r) => setTimeout(r, 3000));
  const idle = await stopIdle();
  console.log(
    `health, idle: p50 ${percentile(idle, 50).toFixed(2)} ms, p99 ${percentile(idle, 99).toFixed(2)} ms (${idle.length} answers)`,
  );

  if (PART.includes('a')) {
    const results = new Map(
      SIZES.map((n) => [n, { perDelivery: [], write: [], p99: [], max: [] }]),
    );
    for (let run = -1; run < RUNS; run++) {
      for (const n of SIZES) {
        const hook = await fresh();
        const webhook = { type: 'webhook', webhook_id: hook.id };
        for (let i = 0; i < n / 100; i++) {
          const made = await http('POST', prism('deal/triggered_automations'), {
            kind: 'update',
            name: `Fan-out ${i}`,
            changeset: { filter: [{ name: {} }] },
            actions: Array.from({ length: 100 }, () => webhook),
          });
          if (made.status !== 201) throw new Error(JSON.stringify(made.body));
        }
        const deal = (await http('POST', prism('deal'), { default: { name: 'Big' } })).body;
        const stop = pollHealth();
        const started = performance.now();
        const patched = await http('PATCH', prism(`deal/${deal.id}`), {
          default: { name: 'Bigger' },
        });
        const wrote = performance.now() - started;
        if (patched.status !== 200) throw new Error(JSON.stringify(patched.body));
        await waitForDeliveries(n);
        const ms = performance.now() - started;
        const health = await stop();
        if (run < 0) continue; // warm-up
        const r = results.get(n);
        r.perDelivery.push((ms * 1000) / n);
        r.write.push(wrote);
        r.p99.push(percentile(health, 99));
        r.max.push(Math.max(...health));
      }
    }
    const base = median(results.get(SIZES[0]).perDelivery);
    console.log(
      '\nPart A: one update firing N webhook actions (median (min-max) of',
      RUNS,
      'runs)',
    );
    console.log(
      'N        per delivery (us)       vs N=' +
        SIZES[0] +
        '   PATCH answered (ms)     health p99 (ms)     health max (ms)',
    );
    for (const [n, r] of results) {
      console.log(
        `${String(n).padEnd(8)} ${spread(r.perDelivery).padEnd(23)} ${(median(r.perDelivery) / base).toFixed(2).padEnd(9)} ${spread(r.write, 0).padEnd(23)} ${spread(r.p99).padEnd(19)} ${spread(r.max)}`,
      );
    }
  }

  if (PART.includes('b')) {
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      default: { name: `Row ${i}`, email: `row${i}@example.com` },
    }));
    const importTimes = [];
    const p99s = [];
    const maxes = [];
    const sent = [];
    const notSent = [];
    for (let run = 0; run < RUNS; run++) {
      const hook = await fresh();
      for (let i = 0; i < AUTOMATIONS; i++) {
        await http('POST', prism('contact/triggered_automations'), {
          kind: 'lifecycle',
          name: `On create ${i}`,
          on_create: true,
          state: { filter: [] },
          actions: [{ type: 'webhook', webhook_id: hook.id }],
        });
      }
      const stop = pollHealth();
      const started = performance.now();
      const job = await http('POST', prism('contact/import'), { objects: rows });
      if (job.status !== 202) throw new Error(`import answered ${job.status}`);
      for (;;) {
        const status = await http('GET', prism(`imports/${job.body.job_id}`));
        if (status.status !== 200) throw new Error(`the job's status answered ${status.status}`);
        if (status.body.status === 'complete') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const imported = performance.now() - started;
      // Every delivery made is sent (those past the bound are kept failed, not sent). The
      // listings show a delivery once its first attempt has ended, never one waiting: the
      // sending is over when the receiver has had nothing new for 3 s.
      let failed = 0;
      for (let last = -1, since = Date.now(); Date.now() - since < 3000; ) {
        const { received: now } = await ask('count');
        if (now !== last) [last, since] = [now, Date.now()];
        await new Promise((r) => setTimeout(r, 100));
      }
      for (let cursor = ''; ; ) {
        const page = await http(
          'GET',
          hooks(`/${hook.id}/deliveries?status=failed&limit=100${cursor}`),
        );
        failed += page.body.data.length;
        if (page.body.next_cursor === null) break;
        cursor = `&cursor=${page.body.next_cursor}`;
      }
      const health = await stop();
      const { received } = await ask('count');
      importTimes.push(imported);
      p99s.push(percentile(health, 99));
      maxes.push(Math.max(...health));
      sent.push(received);
      notSent.push(failed);
    }
    console.log(
      `\nPart B: import of ${ROWS} rows with ${AUTOMATIONS} webhook automations (median (min-max) of ${RUNS} runs)`,
    );
    console.log(`import complete (ms)     ${spread(importTimes, 0)}`);
    console.log(`health p99 (ms)          ${spread(p99s)}`);
    console.log(`health max (ms)          ${spread(maxes)}`);
    console.log(`deliveries received      ${spread(sent, 0)}`);
    console.log(`failed ones kept (of the latest 10,000 ended)  ${spread(notSent, 0)}`);
  }

  if (PART.includes('c')) {
    // A hostile subject: every render runs to its time limit.
    const p99s = [];
    const maxes = [];
    const writes = [];
    for (let run = 0; run < RUNS; run++) {
      await fresh();
      const view = '7f9b6a5e-1c8d-4e0f-9a2b-4c5d6e7f8091';
      await http('PUT', `/__sandbox/contact_views/${view}`, { name: 'All' });
      const defs = (await http('GET', prism('contact/properties'))).body.contact;
      const email = Object.values(defs).find((d) => d.slug === 'email').id;
      await http('POST', prism('contact/import'), {
        objects: Array.from({ length: 99 }, (_, i) => ({
          default: { name: `C${i}`, email: `c${i}@example.com` },
        })),
      });
      await http('POST', prism('deal/triggered_automations'), {
        kind: 'lifecycle',
        name: 'Hostile subject',
        on_create: true,
        state: { filter: [] },
        actions: [
          {
            type: 'email',
            recipient_view_id: view,
            recipient_view_object_type: 'contact',
            recipient_email_prop_def_id: email,
            send_as_user_id: 'u',
            template_id: view,
            subject: '{% for i in (1..5000) %}{% for j in (1..5000) %}{% endfor %}{% endfor %}',
          },
        ],
      });
      const stop = pollHealth();
      await new Promise((r) => setTimeout(r, 200));
      const started = performance.now();
      const created = await http('POST', prism('deal'), { default: { name: 'Big' } });
      if (created.status !== 201) throw new Error(JSON.stringify(created.body));
      writes.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 200));
      const health = await stop();
      p99s.push(percentile(health, 99));
      maxes.push(Math.max(...health));
    }
    console.log(
      `\nPart C: a subject that renders to its time limit, 99 recipients (median (min-max) of ${RUNS} runs)`,
    );
    console.log(`write answered (ms)      ${spread(writes, 0)}`);
    console.log(`health p99 (ms)          ${spread(p99s)}`);
    console.log(`health max (ms)          ${spread(maxes)}`);
  }

  agent.destroy();
  sandboxChild.kill('SIGTERM');
  receiverChild.kill();
  rmSync(config, { recursive: true, force: true });
}

if (process.argv.includes('--receiver')) await receiver();
else await main();
