// The workload the sandbox's import benches share: contact rows (each row's values for a
// round: a later round changes status and score), and 10 automations of mixed kinds, half of
// them matching (see bench/sandbox-automations.mjs): a created row starts 3 runs and a
// patched row 2.

const statuses = ['lead', 'customer', 'churned'];

export function values(i, round) {
  return {
    name: `Person ${i}`,
    email: `person${i}@example.com`,
    phone: `+44 20 ${String(i).padStart(8, '0')}`,
    title: `Engineer ${i % 50}`,
    company: `Company ${i % 997}, Ltd`,
    city: ['London', 'Paris', 'Berlin'][i % 3],
    status: statuses[(i + round) % 3],
    score: (i + round) % 1000,
  };
}

const WEBHOOK = '2f1c9a4e-8d4b-4c1e-9a43-0c5e4b7f6d21';
const AGENT = '7a3e1f52-6b9d-4e0c-8f1a-3d2c5b6e7f80';
const webhook = { type: 'webhook', webhook_id: WEBHOOK };
const lifecycle = (name, filter, actions) => ({
  kind: 'lifecycle',
  name,
  on_create: true,
  state: { filter },
  actions,
});
const update = (name, filter, actions) => ({
  kind: 'update',
  name,
  changeset: { filter },
  actions,
});
export const AUTOMATIONS = [
  lifecycle('Every new contact', [{ email: { exists: true } }], [webhook]),
  lifecycle('Scored', [{ score: { '>=': '0' } }], [webhook, { type: 'agent', agent_id: AGENT }]),
  lifecycle(
    'Follow up tomorrow',
    [{ status: { in: statuses } }],
    [{ type: 'wait', delay_seconds: 86400 }, webhook],
  ),
  lifecycle('Whales', [{ score: { '>': '100000' } }], [webhook]),
  lifecycle('Atlantis', [{ city: { '=': 'Atlantis' } }], [webhook]),
  update('Status moved', [{ status: {} }], [webhook]),
  update('Score set', [{ score: { to: { '>=': '0' } } }], [{ type: 'agent', agent_id: AGENT }]),
  update('Phone changed', [{ phone: {} }], [webhook]),
  update('Title changed', [{ title: {} }], [webhook]),
  update('Score soared', [{ score: { to: { '>': '100000' } } }], [webhook]),
];

/** Runs an import of `rows` rows, of which `existing` patch contacts, starts. */
export function expectedRuns(rows, existing) {
  return (rows - existing) * 3 + existing * 2;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Time one import of `body` (JSON text) into `sandbox`'s contacts: wall milliseconds and this
 * process's CPU milliseconds until the job is complete. The job's state is read from the
 * store (no poll requests, whose cost would grow with the import's time and count against
 * the slower setup). Fails unless every one of `rows` rows was imported.
 */
export async function timedImport(sandbox, importsOf, body, rows) {
  global.gc?.();
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  const res = await fetch(`${sandbox.url}/v2/prism/${sandbox.teamId}/contact/import`, {
    method: 'POST',
    headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
    body,
  });
  let job = await res.json();
  while (job.status === 'processing') {
    await sleep(2);
    job = importsOf(sandbox.store).lookup(job.job_id).job;
  }
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpuStarted);
  if (job.status !== 'complete' || job.succeeded !== rows) {
    throw new Error(`import ${job.status}: ${job.succeeded} of ${rows} rows`);
  }
  return { ms, cpu: (user + system) / 1000 };
}
