// The CI recipes of docs/ci.md, run as printed: each ```sh block is a job, run by bash in an
// empty directory of its own, with `ws` on PATH and a config directory of its own. Each
// starts its sandbox and stops it on exit; the job must succeed and leave no sandbox
// running. The workflow's YAML must be YAML that takes the key from the secrets.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { BIN, runBash, wsEnv } from '../helpers/spawned.ts';

const GUIDE = new URL('../../docs/ci.md', import.meta.url).pathname;
const text = readFileSync(GUIDE, 'utf8');

/** The fenced blocks of the guide in a language, each with the heading it is under. */
function blocks(lang: string): { heading: string; body: string }[] {
  const out: { heading: string; body: string }[] = [];
  let heading = '';
  const fence = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'gm');
  for (const m of text.matchAll(new RegExp(`^## .*$|${fence.source}`, 'gm'))) {
    if (m[0].startsWith('## ')) heading = m[0].slice(3);
    else out.push({ heading, body: m[1]! });
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'ws-ci-recipes-'));
const bin = join(dir, 'bin');
mkdirSync(bin);
writeFileSync(
  join(bin, 'ws'),
  `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
);
chmodSync(join(bin, 'ws'), 0o755);
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the CI recipes (docs/ci.md)', () => {
  const jobs = blocks('sh');

  it('has its three jobs', () => {
    assert.deepEqual(
      jobs.map((j) => j.heading),
      [
        'A job against a throw-away sandbox',
        'Credentials from the environment',
        'Schema and automations as code in a pull request',
      ],
    );
  });

  for (const [i, job] of jobs.entries()) {
    it(`${job.heading}: runs as printed and leaves no sandbox running`, async () => {
      const cwd = join(dir, `job-${i}`);
      mkdirSync(cwd);
      const config = join(cwd, '.ws');
      const env = wsEnv(config, { PATH: `${bin}:${process.env.PATH}` });
      const r = await runBash(job.body, { cwd, env });
      assert.equal(r.code, 0, `stdout: ${r.stdout}\nstderr: ${r.stderr}`);
      const status = spawnSync(process.execPath, [BIN, 'sandbox', 'status'], { env });
      assert.equal(status.status, 4, 'the trap stopped the sandbox');
      if (i === 0) assert.match(r.stdout, /^Grace$/m);
      if (i === 1) assert.equal(r.stdout.trim(), '00000000-0000-4000-8000-0000000000c1');
      if (i === 2) {
        assert.match(readFileSync(join(cwd, 'plan.txt'), 'utf8'), /\+ contact\.lead_source/);
      }
    });
  }

  it("the workflow's YAML parses, and takes the key from the repository's secrets", () => {
    const [workflow] = blocks('yaml');
    const doc = parse(workflow!.body) as {
      jobs: { workspace: { env: Record<string, string>; steps: { run?: string }[] } };
    };
    assert.match(doc.jobs.workspace.env['WS_API_KEY']!, /^\$\{\{ secrets\.WS_API_KEY \}\}$/);
    assert.ok(doc.jobs.workspace.steps.some((s) => s.run === 'ws auth status'));
  });
});
