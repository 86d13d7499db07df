// Does firing automations slow writes down? The time of an import of 20,000 contact rows
// into a sandbox with 10 enabled automations of mixed kinds, half of them matching, against
// the same import with no automation, measured in this run: the goal is at most 1.3x.
//
//   node bench/sandbox-automations.mjs [--runs N] [--rows N]    (default 11 runs of 20,000 rows)
//
// The sandbox runs in this process on a real HTTP port, compiled as the build compiles it
// (esbuild, bundled, no names kept: src/ through tsx would time tsx's own wrappers of every
// function it creates). Each run resets it, writes 10,000 contacts through the model (no events), creates the
// automations (or none), then times one `POST /contact/import` of ROWS rows deduped by email:
// the first half patch those contacts (status and score change: record.updated), the second
// half create contacts (record.created); the job is read from the store until complete. The
// setups alternate, after three warm-ups of each (the code of each setup is compiled
// by then); the medians, their spread and the ratio of
// the medians are printed, for wall time and for the process's CPU time (steadier on a busy
// machine), and the number of runs each import started (checked).
//
// A third setup times the same import with 10 automations the sandbox has not compiled
// before (each run adds to every one a state condition that always holds, with an operand
// of its own): the sandbox reuses a compile while an automation's conditions and
// definitions are the same (a suite that resets and makes the same automations), so this is
// the cost of the first import after automations are made or changed.
//
// The 10 automations: 5 lifecycle on_create, of which 3 match every created row (one with a
// webhook step, one with webhook and agent steps, one waiting a day before a webhook step)
// and 2 match none (state on score > 100000, on city = Atlantis); 5 update, of which 2
// match every patched row (changeset on status; on score with `to >= 0`) and 3 match none
// (changes of phone, of title, score to > 100000). So a created row starts 3 runs and a
// patched row 2.

import { compiledSandbox } from './compiled-sandbox.mjs';
import { AUTOMATIONS, expectedRuns, median, timedImport, values } from './import-workload.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = flag('--runs', 11);
const ROWS = flag('--rows', 20000);
const EXISTING = ROWS / 2;

async function main() {
  const { startSandbox, recordsOf, runsOf, importsOf } = await compiledSandbox({
    startSandbox: 'sandbox/index.ts',
    recordsOf: 'sandbox/resources/records/model.ts',
    runsOf: 'sandbox/resources/automations/runs.ts',
    importsOf: 'sandbox/resources/imports/model.ts',
  });

  const sandbox = await startSandbox({ port: 0 });
  const base = `${sandbox.url}/v2/prism/${sandbox.teamId}`;
  const headers = { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' };
  const call = async (method, url, body) => {
    const res = await fetch(url, { method, headers, body: body && JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  const objects = Array.from({ length: ROWS }, (_, i) => ({ default: values(i, 1) }));
  const importBody = JSON.stringify({ objects, options: { dedupe_by: 'email' } });

  /** The automations with a condition of their own that always holds (never compiled before). */
  let serial = 0;
  const fresh = () => {
    const always = { score: { '>=': String(-1 - ++serial) } };
    return AUTOMATIONS.map((a) =>
      a.kind === 'lifecycle'
        ? { ...a, state: { filter: [...a.state.filter, always] } }
        : { ...a, state: { filter: [always] } },
    );
  };

  /** One timed import; returns its milliseconds and the runs it started. */
  async function once(withAutomations, automations = AUTOMATIONS) {
    await call('POST', `${sandbox.url}/__sandbox/reset`);
    const records = recordsOf(sandbox.store);
    for (let i = 0; i < EXISTING; i++) records.create('contact', { default: values(i, 0) });
    if (withAutomations) {
      for (const automation of automations) {
        await call('POST', `${base}/contact/triggered_automations`, automation);
      }
    }
    const { ms, cpu } = await timedImport(sandbox, importsOf, importBody, ROWS);
    const runs = runsOf(sandbox.store).started;
    const expected = withAutomations ? expectedRuns(ROWS, EXISTING) : 0;
    if (runs !== expected) throw new Error(`${runs} runs started, expected ${expected}`);
    return { ms, cpu, runs };
  }

  // Warm-up: the first imports of each setup compile the code paths they use.
  for (let i = 0; i < 3; i++) {
    await once(false);
    await once(true);
    await once(true, fresh());
  }
  const none = { ms: [], cpu: [] };
  const some = { ms: [], cpu: [] };
  const first = { ms: [], cpu: [] };
  let runs = 0;
  for (let i = 0; i < RUNS; i++) {
    const plain = await once(false);
    none.ms.push(plain.ms);
    none.cpu.push(plain.cpu);
    const timed = await once(true);
    some.ms.push(timed.ms);
    some.cpu.push(timed.cpu);
    const made = await once(true, fresh());
    first.ms.push(made.ms);
    first.cpu.push(made.cpu);
    runs = timed.runs;
  }
  await sandbox.close();

  const show = (label, xs) =>
    console.log(
      `${label} median ${median(xs).toFixed(0).padStart(5)} ms   (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}, ${xs.length} runs)`,
    );
  console.log(
    `import of ${ROWS} contact rows (${EXISTING} patched, ${ROWS - EXISTING} created), ${RUNS} runs each, alternating`,
  );
  show('wall, no automation           ', none.ms);
  show('wall, 10 automations (5 match) ', some.ms);
  show('wall, the same, first compiled ', first.ms);
  show('CPU,  no automation           ', none.cpu);
  show('CPU,  10 automations (5 match) ', some.cpu);
  show('CPU,  the same, first compiled ', first.cpu);
  console.log(`runs started per import   ${runs}`);
  for (const [label, key] of [
    ['wall', 'ms'],
    ['CPU ', 'cpu'],
  ]) {
    const ratio = median(some[key]) / median(none[key]);
    console.log(`ratio of medians, ${label}   ${ratio.toFixed(2)}x (goal: at most 1.30x)`);
    const firstRatio = median(first[key]) / median(none[key]);
    console.log(`  first compiled, ${label}   ${firstRatio.toFixed(2)}x`);
  }
}

await main();
