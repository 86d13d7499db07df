// Imports run down, never up. src/api/ is the HTTP layer: the client and thin typed calls
// over it; it must not reach up into what is built on it (commands, import, output, config,
// schema, the factory, ...). src/commands/ is the top: nothing below it (all of src/ but the
// entry point and the command tree) imports a command's file, and a noun's files import their
// own noun, src/commands/common/ and the layers below, never another noun's files (logic two
// nouns share moves down to where both can import it). This reads the imports of every file
// and checks each against what is welcome.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
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

/** Every .ts and .tsx file below `dir`, as paths below src/. */
function sourcesBelow(dir: string): string[] {
  return readdirSync(join(src, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(src, path)).isDirectory()) return sourcesBelow(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The relative imports of a file below src/, as paths below src/. */
function importedBy(file: string): { target: string; spec: string }[] {
  return importsOf(readFileSync(join(src, file), 'utf8'))
    .filter(({ spec }) => spec.startsWith('.'))
    .map(({ spec }) => ({ spec, target: relative(src, join(src, dirname(file), spec)) }));
}

/** What may import a command's files: the entry point and the command tree. */
const ABOVE_COMMANDS = ['main.ts', 'root.ts'];

/**
 * Crossings between nouns not yet moved down, each as `from -> to`. None is left; a new
 * one is a failure of the test below, not an entry here. The test fails when one listed
 * is gone, so that the list only shrinks.
 */
const NOT_YET_MOVED: readonly string[] = [];

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

  it('nothing below src/commands/ imports a command', () => {
    const files = readdirSync(src)
      .filter((d) => d !== 'commands' && d !== 'generated')
      .flatMap((d) => (statSync(join(src, d)).isDirectory() ? sourcesBelow(d) : [d]))
      .filter((f) => /\.tsx?$/.test(f) && !ABOVE_COMMANDS.includes(f));
    assert.ok(files.length > 200, `src/ is read (${files.length} files)`);
    const upward = files.flatMap((file) =>
      importedBy(file)
        .filter(({ target }) => target.startsWith('commands/'))
        .map(({ spec }) => `src/${file} imports ${spec}`),
    );
    assert.deepEqual(upward, []);
  });

  it("a noun's commands import their own noun, common/ and the layers below", () => {
    const files = sourcesBelow('commands');
    const crossings: string[] = [];
    for (const file of files) {
      const noun = file.split('/')[1];
      if (noun === 'common' || !file.includes('/', 'commands/'.length)) continue;
      for (const { target } of importedBy(file)) {
        const [top, other] = target.split('/');
        if (top === 'commands' && other !== noun && other !== 'common')
          crossings.push(`${file} -> ${target}`);
      }
    }
    assert.ok(files.length > 150, `src/commands/ is read (${files.length} files)`);
    assert.deepEqual(
      crossings.filter((c) => !NOT_YET_MOVED.includes(c)),
      [],
      "a noun's command reaches into another noun's files",
    );
    assert.deepEqual(
      NOT_YET_MOVED.filter((c) => !crossings.includes(c)),
      [],
      'a crossing listed as not yet moved is gone: take it off the list',
    );
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
