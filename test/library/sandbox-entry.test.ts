// The library entry loads the sandbox alone: none of the CLI's code, and its types are the
// shipped .d.ts (the example beside this file is type-checked against it by `npm run typecheck`).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

test('wsadmin/sandbox loads one file of dist/ and none of the CLI', () => {
  const script = `
    const { startSandbox } = require('wsadmin/sandbox');
    startSandbox().then(async (sb) => {
      await sb.stop();
      const loaded = Object.keys(require.cache).filter((f) => !f.includes('node_modules'));
      console.log(JSON.stringify(loaded));
    });`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const loaded = JSON.parse(r.stdout) as string[];
  assert.deepEqual(
    loaded.map((f) => f.replace(/^.*[\\/]dist[\\/]/, 'dist/')),
    ['dist/sandbox.js'],
  );
  // What went into the file, by its source map: the sandbox's code and its packages.
  const { sources } = JSON.parse(readFileSync(`${loaded[0]}.map`, 'utf8')) as { sources: string[] };
  const cli = sources.filter((s) =>
    /src\/(commands|output|import|main\.ts)|node_modules\/(commander|@inquirer|cli-table3|chalk|ora)\//.test(
      s,
    ),
  );
  assert.deepEqual(cli, [], 'no CLI module or package is bundled in');
  assert.ok(sources.some((s) => s.includes('src/sandbox/lib.ts')));
});

test('the package exports the entry with its types, and ES modules import it by name', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  assert.deepEqual(pkg.exports['./sandbox'], {
    types: './dist/sandbox.d.ts',
    default: './dist/sandbox.js',
  });
  const types = readFileSync('dist/sandbox.d.ts', 'utf8');
  assert.match(types, /export declare const startSandbox: StartSandbox;/);
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import { startSandbox } from 'wsadmin/sandbox'; console.log(typeof startSandbox);",
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'function');
});
