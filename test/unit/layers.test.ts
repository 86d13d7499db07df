// src/api/ is the HTTP layer: the client and thin typed calls over it. It must not reach up
// into what is built on it (commands, import, output, config, schema, the factory, ...), so
// this reads the imports of every file in src/api/ and checks each against what is welcome.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';

const src = new URL('../../src/', import.meta.url).pathname;
const apiDir = join(src, 'api');

/** Every module specifier of a file: static imports and re-exports, and dynamic imports. */
function importsOf(text: string): { spec: string; typeOnly: boolean }[] {
  const out: { spec: string; typeOnly: boolean }[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(statement)) out.push({ spec: m[3]!, typeOnly: m[2] !== undefined });
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g))
    out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

/** Where src/api/ may import from, as paths below src/ (a trailing / means a folder). */
const WELCOME = ['api/', 'errors.ts', 'generated/', 'util/'];
/** Welcome for types only: the client writes its debug traces through IOStreams. */
const TYPES_ONLY = ['io/streams.ts'];

function below(path: string, list: readonly string[]): boolean {
  return list.some((w) => (w.endsWith('/') ? path.startsWith(w) : path === w));
}

describe('layers', () => {
  it('src/api/ imports nothing above the HTTP layer', () => {
    const files = readdirSync(apiDir).filter((f) => f.endsWith('.ts'));
    assert.ok(files.includes('client.ts'), 'src/api/ is read');
    const unwelcome: string[] = [];
    let relativeImports = 0;
    for (const file of files) {
      const path = join(apiDir, file);
      for (const { spec, typeOnly } of importsOf(readFileSync(path, 'utf8'))) {
        if (!spec.startsWith('.')) continue; // node: built-ins and packages
        relativeImports++;
        const target = relative(src, join(dirname(path), spec));
        if (below(target, WELCOME) || (typeOnly && below(target, TYPES_ONLY))) continue;
        unwelcome.push(`src/api/${file} imports ${spec}${typeOnly ? ' (types)' : ''}`);
      }
    }
    assert.ok(relativeImports > 10, `the imports of src/api/ are found (${relativeImports})`);
    assert.deepEqual(unwelcome, []);
  });

  it('the import reader sees what it must judge', () => {
    const seen = importsOf(
      [
        "import type { Deps } from '../factory.ts';",
        "import { a, type B } from '../commands/x.ts';",
        "export { C } from './c.ts';",
        "import './side-effect.ts';",
        "const m = await import('../output/render.ts');",
      ].join('\n'),
    );
    assert.deepEqual(seen, [
      { spec: '../factory.ts', typeOnly: true },
      { spec: '../commands/x.ts', typeOnly: false },
      { spec: './c.ts', typeOnly: false },
      { spec: './side-effect.ts', typeOnly: false },
      { spec: '../output/render.ts', typeOnly: false },
    ]);
  });
});
