// The build swaps modules inside undici, chalk and commander by their paths inside those
// packages (scripts/substitutes.mjs). These tests run that plugin through esbuild over the
// installed packages: the real list matches every entry, and an entry that no longer matches
// (a package whose files moved) fails the build, naming the entry and the package's version.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { build } from 'esbuild';
import { SUBSTITUTES, substitutes, unmatched } from '../../scripts/substitutes.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
const pinned = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  .devDependencies as Record<string, string>;

type Entry = (typeof SUBSTITUTES)[number];

/** Bundles what ws imports of the three packages, with `entries` substituted. */
function bundle(entries: readonly Entry[]) {
  return build({
    stdin: {
      contents: "import 'undici'; import 'chalk'; import 'commander';",
      resolveDir: ROOT,
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    plugins: [substitutes(entries)],
  });
}

/** The message of the build's rejection. */
async function failure(entries: readonly Entry[]): Promise<string> {
  try {
    await bundle(entries);
  } catch (err) {
    return (err as Error).message;
  }
  assert.fail('the build succeeded');
}

describe('the build substitutes modules inside its dependencies', () => {
  it('every entry matches the installed packages, and each stands in for its module', async () => {
    const result = await bundle(SUBSTITUTES);
    assert.deepEqual(result.errors, []);
    const code = result.outputFiles[0]!.text;
    // The stand-ins are in; what they replace is not.
    assert.match(code, /llhttp-simd\.wasm/);
    assert.match(code, /maxHeaderSize: 16 \* 1024/);
    assert.doesNotMatch(code, /AGFzbQEAAAAB/, 'no llhttp as base64 text');
  });

  it('fails naming the entry and the package version when an importer path matches nothing', async () => {
    const moved = SUBSTITUTES.map((x) =>
      x.request === './client-h2.js' ? { ...x, importer: 'lib/dispatcher/client-moved.js' } : x,
    );
    const message = await failure(moved);
    assert.match(
      message,
      /substitute for '\.\/client-h2\.js' in undici\/lib\/dispatcher\/client-moved\.js \(lazy\) matched no import in undici (\S+)\./,
    );
    assert.equal(message.match(/in undici (\S+)\./)![1], pinned['undici']);
    assert.match(message, /update SUBSTITUTES in scripts\/substitutes\.mjs/);
    // Only that entry is named.
    assert.equal(message.match(/substitute for/g)!.length, 1);
  });

  it('fails when a request is no longer imported, for each package', async () => {
    for (const pkg of ['chalk', 'commander']) {
      const renamed = SUBSTITUTES.map((x) =>
        x.package === pkg ? { ...x, request: `${x.request}-renamed` } : x,
      );
      const message = await failure(renamed);
      assert.match(message, new RegExp(`in ${pkg}/\\S+ \\(\\w+\\) matched no import in ${pkg} `));
      assert.ok(message.includes(`${pkg} ${pinned[pkg]}.`), message);
    }
  });

  it('fails when an entry that names one file matches several (two copies of the package)', () => {
    const i = SUBSTITUTES.findIndex((x) => x.request === './client-h2.js');
    const files = SUBSTITUTES.map((_, j) => new Set([`/a/node_modules/x${j}.js`]));
    assert.deepEqual(unmatched(SUBSTITUTES, files), []);
    files[i] = new Set([
      '/a/node_modules/undici/lib/dispatcher/client.js',
      '/a/node_modules/b/node_modules/undici/lib/dispatcher/client.js',
    ]);
    const problems = unmatched(SUBSTITUTES, files);
    assert.equal(problems.length, 1);
    assert.match(
      problems[0]!,
      /^substitute for '\.\/client-h2\.js' in undici\/lib\/dispatcher\/client\.js \(lazy\) matched imports in 2 files, expected 1: \/a\/node_modules\/undici\/lib\/dispatcher\/client\.js, \/a\/node_modules\/b\/node_modules\/undici\/lib\/dispatcher\/client\.js in undici /,
    );
    // A folder entry may match any number of files.
    const folder = SUBSTITUTES.findIndex((x) => x.importer.endsWith('/'));
    files[i] = new Set(['/a/node_modules/undici/lib/dispatcher/client.js']);
    files[folder] = new Set(['/a/1.js', '/a/2.js', '/a/3.js']);
    assert.deepEqual(unmatched(SUBSTITUTES, files), []);
  });
});
