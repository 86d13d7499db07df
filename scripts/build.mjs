// Bundles src/main.ts into dist/ in two steps:
//   1. esbuild compiles and bundles the TypeScript and the packages into ES modules, one
//      per lazily loaded part (commands' verbs, the HTTP client, the sandbox, ...), with the
//      code they share split into chunks;
//   2. rollup regroups those chunks: a module that is already loaded whenever a lazy part is
//      imported (everything `src/main.ts` imports statically) joins the main file instead of
//      a small shared chunk, so start-up reads a few files instead of dozens, and esbuild
//      minifies each output file.
// The output is CommonJS (dist/package.json says so; bin/ws.js is CommonJS too), with lazy
// parts loaded by require(): Node 20's ES module loader (its resolution, file reads through
// fs/promises and module linking) cost every command 25-30 ms of start-up, more than
// compiling and running ws's main file. The sources stay ES modules.
// The packages are bundled as published. An import that rollup cannot find in the bundle
// fails the build: dist/ is all that runs (the packages are devDependencies, and an
// installed ws has none of them).
// Source maps follow both steps (dist/**/*.js.map, no sources inlined). `--no-minify` keeps
// the code readable, for CPU profiles (node --cpu-prof) that name functions.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { rollup } from 'rollup';
import { buildConsole } from './build-console.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const stage = join(root, 'dist-stage');
const target = 'node20.19';
const minified = !process.argv.includes('--no-minify');
/** esbuild chunks smaller than this (unminified) go into one shared file. */
const SMALL_CHUNK_BYTES = 24 * 1024;

rmSync(dist, { recursive: true, force: true });
rmSync(stage, { recursive: true, force: true });

await build({
  entryPoints: { ws: join(root, 'src/main.ts') },
  outdir: stage,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target,
  // Minified names are not kept (keepNames would define `name` on every function and
  // class as it is created: 10% more code to compile and run at start-up); ws's errors name
  // themselves (src/errors.ts).
  sourcemap: 'external',
  sourcesContent: false,
  legalComments: 'none',
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
});

/** Reads esbuild's files with their source maps, so rollup's maps point at src/. */
const withSourceMaps = {
  name: 'esbuild-output',
  load(id) {
    if (!id.startsWith(stage)) return null;
    const map = `${id}.map`;
    return {
      code: readFileSync(id, 'utf8'),
      map: existsSync(map) ? readFileSync(map, 'utf8') : null,
    };
  },
};

/** Minifies each output file. */
const minify = {
  name: 'minify',
  async renderChunk(code) {
    const out = await transform(code, {
      format: 'cjs',
      target,
      minify: minified,
      legalComments: 'none',
      sourcemap: 'external',
    });
    return { code: out.code, map: out.map };
  },
};

/** Modules `entry` imports statically, directly or not (what loads with it). */
function staticImports(entry, getModuleInfo) {
  const seen = new Set();
  const todo = [entry];
  while (todo.length > 0) {
    const id = todo.pop();
    if (seen.has(id)) continue;
    seen.add(id);
    todo.push(...(getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}
let atStartUp;
let joined;

/**
 * The files esbuild's small chunks of ws's code join (by chunk): 'ws', the main file, takes
 * what a command that sends a request and prints its answer loads (the client and its
 * one-shot transport, the API's errors and calls, output: 41 KB); 'shared' the rest of what
 * commands share (filters, values, schema files, flags, ...). A file costs a command more
 * to load than its bytes: `ws auth status` is 3 ms faster than with one shared file of
 * both, and 1 ms faster again than with the client in a file of its own; a command that
 * sends nothing (`ws profile list`) starts no slower.
 */
function joinedChunks(getModuleIds, getModuleInfo) {
  const builtinsAtStartUp = new Set(
    [...atStartUp].flatMap((m) => getModuleInfo(m)?.importedIds ?? []).filter(isBuiltin),
  );
  const sourcesOf = (id) => JSON.parse(readFileSync(`${id}.map`, 'utf8')).sources;
  const joinable = new Map();
  for (const id of getModuleIds()) {
    if (!id.startsWith(stage) || atStartUp.has(id)) continue;
    // The API client and its one-shot transport load with every command that sends a
    // request: they join the main file (two files fewer to read).
    if (/[\\/](client|node-http)-[\w-]+\.js$/.test(id)) {
      joinable.set(id, sourcesOf(id));
      continue;
    }
    if (!basename(id).startsWith('chunk-') || statSync(id).size >= SMALL_CHUNK_BYTES) continue;
    // Only ws's own modules (a package's code runs when its chunk loads, and stays with the
    // commands that use it), and none that loads a built-in module start-up does not load
    // (node:crypto, node:fs/promises, ...): every command loading the file would pay for it.
    const sources = sourcesOf(id);
    if (sources.some((s) => s.includes('node_modules'))) continue;
    const builtins = (getModuleInfo(id)?.importedIds ?? []).filter(isBuiltin);
    if (builtins.every((b) => builtinsAtStartUp.has(b))) joinable.set(id, sources);
  }
  const inMain = new Set(
    [...joinable]
      .filter(([, sources]) => sources.every((s) => /src[\\/](api|output|util)[\\/]/.test(s)))
      .map(([id]) => id),
  );
  // The main file imports nothing of 'shared' (a chunk that would is left to 'shared').
  for (let changed = true; changed; ) {
    changed = false;
    for (const id of inMain) {
      const deps = (getModuleInfo(id)?.importedIds ?? []).filter((d) => joinable.has(d));
      if (deps.some((d) => !inMain.has(d))) {
        inMain.delete(id);
        changed = true;
      }
    }
  }
  return new Map([...joinable.keys()].map((id) => [id, inMain.has(id) ? 'ws' : 'shared']));
}

const bundle = await rollup({
  input: { ws: join(stage, 'ws.js') },
  external: (id) => isBuiltin(id),
  // The entry keeps its own code (src/main.ts resolves ../bin/ws.js from its own URL).
  preserveEntrySignatures: 'allow-extension',
  plugins: [withSourceMaps],
  onwarn(warning, warn) {
    if (warning.code === 'CIRCULAR_DEPENDENCY') return;
    // Left as a require() of a package, it would fail where ws is installed.
    if (warning.code === 'UNRESOLVED_IMPORT') throw new Error(`build: ${warning.message}`);
    warn(warning);
  },
});
await bundle.write({
  dir: dist,
  format: 'cjs',
  // No empty imports of a chunk's transitive dependencies (they help browsers fetch in
  // parallel; Node reads files as it links them).
  hoistTransitiveImports: false,
  // esbuild leaves many small chunks of ws's code that commands share (output, the API's
  // record calls, filter parsing, timers, ...): they join the main file or one shared file
  // (joinedChunks), where `ws records list` would otherwise read a dozen files of a few KB each.
  // (What start-up loads anyway stays in the main file.)
  manualChunks(id, { getModuleInfo, getModuleIds }) {
    atStartUp ??= staticImports(join(stage, 'ws.js'), getModuleInfo);
    // Named like the entry, they stay in its file (a manual chunk would otherwise pull in
    // the modules its members import).
    if (atStartUp.has(id)) return 'ws';
    joined ??= joinedChunks(getModuleIds, getModuleInfo);
    return joined.get(id) ?? null;
  },
  entryFileNames: '[name].js',
  // esbuild's names carry its own hash: keep rollup's.
  chunkFileNames: (chunk) => `chunks/${chunk.name.replace(/-[A-Z0-9]{8}$/, '')}-[hash].js`,
  sourcemap: true,
  sourcemapExcludeSources: true,
  plugins: [minify],
});
await bundle.close();
rmSync(stage, { recursive: true, force: true });
// The sandbox console's page (browser code), beside the bundle.
await buildConsole(dist, { minify: minified });
// The library entry `wsadmin/sandbox` (src/sandbox/lib.ts): the sandbox alone, none of the
// CLI, in one CommonJS file (ES modules import its named exports too). import.meta.url
// (the template worker loads the module's own file; the console finds its page from it)
// becomes the file's URL.
await build({
  entryPoints: { sandbox: join(root, 'src/sandbox/lib.ts') },
  outdir: dist,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target,
  minify: minified,
  define: { 'import.meta.url': '__wsModuleUrl' },
  banner: { js: "const __wsModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  sourcemap: 'external',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
});
// Its types: lib-types.ts declares types only, so it is the .d.ts as it stands.
writeFileSync(
  join(dist, 'sandbox.d.ts'),
  `${readFileSync(join(root, 'src/sandbox/lib-types.ts'), 'utf8')}
/** Start a sandbox in this process (see StartSandboxOptions); each call, another one. */
export declare const startSandbox: StartSandbox;
`,
);
// The package is "type": "module"; dist/ is not.
writeFileSync(join(dist, 'package.json'), '{ "type": "commonjs" }\n');
// Shell completions are generated from the command tree of the build.
mkdirSync(new URL('../completions', import.meta.url), { recursive: true });
for (const [shell, file] of [
  ['bash', 'ws.bash'],
  ['zsh', '_ws'],
  ['fish', 'ws.fish'],
]) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'ws.js'), 'completion', shell], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`ws completion ${shell} failed: ${r.stderr}`);
  writeFileSync(new URL(`../completions/${file}`, import.meta.url), r.stdout);
}
