// The worked example of `ws automations` in docs/automations.md, run as printed: its ```sh
// block runs in bash (set -e: every command succeeds), with `ws` on PATH,
// against a sandbox seeded with the demo data; what the `#` lines under `ws automations get`
// show is what it prints, and nothing warns (no deprecated flag in the manual).
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { runBash, wsEnv, wsOnPath } from '../helpers/spawned.ts';

const GUIDE = new URL('../../docs/automations.md', import.meta.url).pathname;

/** The worked example's shell block. */
function example(): string {
  const text = readFileSync(GUIDE, 'utf8');
  const start = text.indexOf('# Automations: `ws automations`');
  assert.ok(start >= 0, 'docs/automations.md has its title');
  const at = text.indexOf('A worked example', start);
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at));
  assert.ok(block, 'the worked example has a sh block');
  return block[1]!;
}

let t: TestSandbox;
let dir: string;

before(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  dir = wsOnPath('ws-readme-automations-');
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.stop();
});

describe('the worked example of ws automations (docs/automations.md)', () => {
  it('runs as printed, without a warning, and get prints what the guide shows', async () => {
    const script = example();
    const env = wsEnv(t.configDir, { PATH: `${dir}:${process.env.PATH}` });
    const r = await runBash(script, { cwd: dir, env, stopOnError: true });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /warning:/);
    // The `#   when …` and `#         --wait 1d` lines under `ws automations get`.
    const shown = script
      .split('ws automations get deal "Deal won"\n')[1]!
      .split('\n')
      .filter((l) => l.startsWith('#   ') || l.startsWith('#         '))
      .slice(0, 3)
      .map((l) => l.replace(/^#\s+/, '').replace(/\s+/g, ' ').trim());
    assert.deepEqual(shown, [
      'when --on-change stage:to=won',
      "then --webhook 'Deal alerts'",
      '--wait 1d',
    ]);
    // Piped, `get` prints key<TAB>value lines, a value's lines joined by ";".
    assert.match(r.stdout, /^when\t--on-change stage:to=won$/m);
    assert.match(r.stdout, /^then\t--webhook 'Deal alerts';--wait 1d$/m);
  });
});
