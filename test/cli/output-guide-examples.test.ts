// The scripting guide's examples of --jq and --template (docs/scripting.md), run as printed: each `ws …` line of the
// block in "Shaping JSON" is run by bash, with `ws` on PATH, against a sandbox seeded with
// the demo workspace; it must succeed and print the `# ` lines under it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { wsEnv, wsOnPath } from '../helpers/spawned.ts';

const run = promisify(execFile);
const GUIDE = new URL('../../docs/scripting.md', import.meta.url).pathname;

/** The commands of the section's block, each with the output printed under it. */
function examples(): { command: string; output: string }[] {
  const text = readFileSync(GUIDE, 'utf8');
  const start = text.indexOf('## Shaping JSON: `--jq` and `--template`');
  assert.ok(start >= 0, 'docs/scripting.md has the section');
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(start))![1]!;
  const out: { command: string; output: string }[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('ws ')) out.push({ command: line, output: '' });
    else if (line.startsWith('# ')) out[out.length - 1]!.output += `${line.slice(2)}\n`;
  }
  return out;
}

let t: TestSandbox;
let dir: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  dir = wsOnPath('ws-readme-shaping-');
  env = wsEnv(t.configDir, { PATH: `${dir}:${process.env.PATH}` });
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.stop();
});

describe("the scripting guide's examples of --jq and --template", () => {
  it('print what the guide shows', async () => {
    const all = examples();
    assert.ok(all.some((e) => e.command.includes('--jq')));
    assert.ok(all.some((e) => e.command.includes('--template')));
    for (const { command, output } of all) {
      assert.notEqual(output, '', `${command} shows its output`);
      // The sandbox runs in this process: the command runs beside it, not blocking it.
      const r = await run('bash', ['-c', command], { cwd: dir, env, encoding: 'utf8' });
      assert.equal(r.stdout, output, `${command}\n${r.stderr}`);
    }
  });
});
