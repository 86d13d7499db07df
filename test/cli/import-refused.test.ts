// `ws import` when nothing gets in: a service that is not there, a key it refuses. Nothing
// was sent that a --resume could continue, so no "Stopped after 0 rows" and no resume
// command, no checkpoint left behind (the next run would call itself a resumption), and
// one progress line, not a second one repeating figures that never moved. And the words
// of two messages a new user met: a mapping file that does not exist, one unknown column.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { setFaults, startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let s: TestSandbox;
let work: string;
let csv: string;

/** Checkpoints of interrupted imports in the config directory. */
const checkpoints = (dir: string) => {
  const imports = join(dir, 'imports');
  return existsSync(imports) ? readdirSync(imports).filter((f) => f.endsWith('.json')) : [];
};

/** The lines of stderr that are the import's progress. */
const progressLines = (stderr: string) =>
  stderr.split('\n').filter((l) => l.startsWith('Importing people.csv'));

before(async () => {
  s = await startTestSandbox();
  work = mkdtempSync(join(tmpdir(), 'ws-import-refused-'));
  const rows = ['name,email'];
  for (let i = 0; i < 200; i++) rows.push(`Person ${i},person${i}@example.com`);
  csv = join(work, 'people.csv');
  writeFileSync(csv, `${rows.join('\n')}\n`);
  // The definitions are cached: the import request is the first one sent.
  const r = await runWs(['props', 'list', 'contacts'], { env: s.env });
  assert.equal(r.code, 0, r.stderr);
});
after(async () => {
  await setFaults(s.sandbox, { latency_ms: 0 });
  await s.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('ws import when nothing gets in', () => {
  it('a refused key: exit 3, no resume command, no checkpoint, the progress line once', async () => {
    // The refusal comes after the progress line's interval: no second line repeats it.
    await setFaults(s.sandbox, { latency_ms: 3500 });
    try {
      const r = await runWs(['import', 'contacts', csv], {
        env: { ...s.env, WS_API_KEY: 'wsk_not_the_key_0000' },
      });
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, /The API key was refused/);
      assert.match(r.stderr, /Nothing was imported\./);
      assert.doesNotMatch(r.stderr, /Stopped after|--resume/);
      assert.deepEqual(progressLines(r.stderr), ['Importing people.csv…']);
      assert.deepEqual(checkpoints(s.configDir), []);
    } finally {
      await setFaults(s.sandbox, { latency_ms: 0 });
    }
    // The next run is no resumption: it imports the file.
    const again = await runWs(['import', 'contacts', csv], { env: s.env });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /interrupted import/i);
    assert.match(again.stderr, /created +200/);
  });

  it('a service that is not there: exit 1, no resume command, no checkpoint', async () => {
    const gone = await startTestSandbox();
    const cached = await runWs(['props', 'list', 'contacts'], { env: gone.env });
    assert.equal(cached.code, 0, cached.stderr);
    await gone.sandbox.close();
    try {
      const r = await runWs(['import', 'contacts', csv, '--retries', '0'], { env: gone.env });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /Could not reach http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/);
      assert.match(r.stderr, /Nothing was imported\./);
      assert.doesNotMatch(r.stderr, /Stopped after|--resume/);
      assert.deepEqual(checkpoints(gone.configDir), []);
    } finally {
      rmSync(gone.configDir, { recursive: true, force: true });
    }
  });
});

describe('ws import messages', () => {
  it('a mapping file that does not exist is said so, not as ENOENT', async () => {
    const r = await runWs(['import', 'contacts', csv, '--map-file', join(work, 'nope.json')], {
      env: s.env,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /Cannot read the mapping file \S+nope\.json: it does not exist\./);
    assert.match(r.stderr, /--save-map FILE/);
    assert.doesNotMatch(r.stderr, /ENOENT/);
  });

  it('one unknown column left out: "a column that matches"', async () => {
    const file = join(work, 'extra.csv');
    writeFileSync(file, 'name,email,Shoe size\nAda,ada@example.com,38\n');
    const r = await runWs(['import', 'contacts', file, '--ignore-unknown'], { env: s.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Left out a column that matches no property: "Shoe size"\./);
  });
});
