// The worked examples of `ws import` in docs/importing.md (the locale, look-up and dedupe
// rules), run as printed: each ```sh block of the guide that a ```text block follows is run
// by bash, with `ws` on PATH, in a directory of its own, against an emptied sandbox, and
// its stdout must be the text block (CSV's \r\n read as line ends).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { runBash, wsEnv, wsOnPath } from '../helpers/spawned.ts';

const GUIDE = new URL('../../docs/importing.md', import.meta.url).pathname;

/** The (command, output) pairs of the import guide. */
function examples(): { script: string; output: string }[] {
  const text = readFileSync(GUIDE, 'utf8');
  assert.ok(
    text.startsWith('# Importing CSV: `ws import`'),
    'docs/importing.md is the import guide',
  );
  const section = text;
  const block = '((?:(?!```)[\\s\\S])*)';
  const pair = new RegExp(`\`\`\`sh\\n${block}\`\`\`\\n\\n\`\`\`text\\n${block}\`\`\``, 'g');
  return [...section.matchAll(pair)].map((m) => ({
    script: m[1]!,
    output: m[2]!,
  }));
}

let t: TestSandbox;
let dir: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  t = await startTestSandbox();
  dir = wsOnPath('ws-readme-import-');
  env = wsEnv(t.configDir, { PATH: `${dir}:${process.env.PATH}` });
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.stop();
});

describe('the examples of ws import (docs/importing.md)', () => {
  it('the locale, look-up and dedupe rules each have a worked example', () => {
    const scripts = examples().map((e) => e.script);
    assert.equal(scripts.length, 3);
    assert.match(scripts[0]!, /--locale de-DE/);
    assert.match(scripts[1]!, /--lookup "Company=organization\.name"/);
    assert.match(scripts[2]!, /--dedupe-by email --on-duplicate last --allow-missing-key/);
  });

  for (const [i, name] of ['locale', 'look-up', 'dedupe'].entries()) {
    it(`the ${name} example prints what the guide shows`, async () => {
      const example = examples()[i]!;
      t.sandbox.reset();
      const cwd = mkdtempSync(join(dir, 'example-'));
      const r = await runBash(example.script, { cwd, env });
      // CSV rows end with \r\n; the guide shows lines.
      assert.equal(r.stdout.replace(/\r\n/g, '\n'), example.output, r.stderr);
    });
  }
});
