// Bundles src/main.ts into dist/ in two steps:
//   1. esbuild compiles and bundles the TypeScript and the packages into ES modules, one
//      per lazily loaded part (commands' verbs, the HTTP client, the sandbox, ...), with the
//      code they share split into chunks;
//   2. rollup regroups those chunks: a module that is already loaded whenever a lazy part is
//      imported (everything `src/main.ts` imports statically) joins the main file instead of
//      a small shared chunk, so start-up reads a few files instead of dozens, and esbuild
//      minifies each output file.
// Source maps follow both steps (dist/**/*.js.map, no sources inlined). `--no-minify` keeps
// the code readable, for CPU profiles (node --cpu-prof) that name functions.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { rollup } from 'rollup';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const stage = join(root, 'dist-stage');
const target = 'node20.19';
const minified = !process.argv.includes('--no-minify');
/** esbuild chunks smaller than this (unminified) go into one shared file. */
const SMALL_CHUNK_BYTES = 24 * 1024;

const undiciLib = join(root, 'node_modules', 'undici', 'lib');

/**
 * Modules that packages require at load time but that ws's start-up does not need:
 * - `lazy`: bundled behind a stand-in that loads it on first use (a call or a property
 *   read). undici requires its HTTP/2 client, and with it node:http2, node:tls and
 *   node:crypto, as soon as its HTTP/1 client loads; that code runs only for a connection
 *   that negotiates HTTP/2, which ws never enables (`allowH2`): about a third of the
 *   built-in modules a request would load. commander requires node:child_process (and with
 *   it node:net and node:dgram) for subcommands that are separate executables, which ws
 *   does not have.
 * - `file`: left out of the bundle, copied next to the chunks and required from there.
 *   undici carries llhttp compiled twice, as base64 text: with SIMD instructions, and
 *   without them for machines that lack them; the second (72 KB of text Node would read and
 *   compile with the HTTP client on every request) is read only on such a machine.
 */
const SUBSTITUTES = [
  {
    importer: join('undici', 'lib', 'dispatcher', 'client.js'),
    request: './client-h2.js',
    as: 'lazy',
  },
  { importer: join('commander', 'lib', 'command.js'), request: 'node:child_process', as: 'lazy' },
  {
    importer: join('undici', 'lib', 'dispatcher', 'client-h1.js'),
    request: '../llhttp/llhttp-wasm.js',
    as: 'file',
    from: join(undiciLib, 'llhttp', 'llhttp-wasm.js'),
    file: 'llhttp-wasm.cjs',
  },
];

const substitutes = {
  name: 'substitutes',
  setup(b) {
    const literal = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const filter = new RegExp(`^(${SUBSTITUTES.map((x) => literal(x.request)).join('|')})$`);
    b.onResolve({ filter }, (args) => {
      if (args.namespace === 'lazy') return null;
      const x = SUBSTITUTES.find(
        (x) => x.request === args.path && args.importer.endsWith(x.importer),
      );
      if (x === undefined) return null;
      if (x.as === 'file') return { path: `./${x.file}`, external: true };
      return { path: args.path, namespace: 'lazy', pluginData: args.resolveDir };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
      contents: `let real;
const load = () => (real ??= require(${JSON.stringify(args.path)}));
module.exports = new Proxy(function () {}, {
  apply: (_target, self, argv) => Reflect.apply(load(), self, argv),
  get: (_target, key) => load()[key],
});`,
      loader: 'js',
      resolveDir: args.pluginData,
    }));
  },
};
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
  keepNames: true,
  sourcemap: 'external',
  sourcesContent: false,
  legalComments: 'none',
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
  plugins: [substitutes],
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
      format: 'esm',
      target,
      minify: minified,
      keepNames: true,
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
let builtinsAtStartUp;

const bundle = await rollup({
  input: { ws: join(stage, 'ws.js') },
  external: (id) => isBuiltin(id),
  // The entry keeps its own code (src/main.ts resolves ../bin/ws.js from its own URL).
  preserveEntrySignatures: 'allow-extension',
  plugins: [withSourceMaps],
  onwarn(warning, warn) {
    if (warning.code === 'CIRCULAR_DEPENDENCY') return;
    warn(warning);
  },
});
await bundle.write({
  dir: dist,
  format: 'es',
  // No empty imports of a chunk's transitive dependencies (they help browsers fetch in
  // parallel; Node reads files as it links them).
  hoistTransitiveImports: false,
  // esbuild leaves many small chunks of ws's code that commands share (output, the API's
  // record calls, filter parsing, timers, ...): one file for all of them is read once, where
  // `ws records list` would otherwise read a dozen files of a few KB each.
  // (What start-up loads anyway stays in the main file.)
  manualChunks(id, { getModuleInfo }) {
    atStartUp ??= staticImports(join(stage, 'ws.js'), getModuleInfo);
    // Named like the entry, they stay in its file (a manual chunk would otherwise pull in
    // the modules its members import).
    if (atStartUp.has(id)) return 'ws';
    if (!basename(id).startsWith('chunk-') || statSync(id).size >= SMALL_CHUNK_BYTES) return null;
    // Only ws's own modules (a package's code runs when its chunk loads, and stays with the
    // commands that use it), and none that loads a built-in module start-up does not load
    // (node:crypto, node:fs/promises, ...): every command loading the shared file would
    // pay for it.
    const { sources } = JSON.parse(readFileSync(`${id}.map`, 'utf8'));
    if (sources.some((s) => s.includes('node_modules'))) return null;
    builtinsAtStartUp ??= new Set(
      [...atStartUp].flatMap((m) => getModuleInfo(m)?.importedIds ?? []).filter(isBuiltin),
    );
    const builtins = (getModuleInfo(id)?.importedIds ?? []).filter(isBuiltin);
    return builtins.every((b) => builtinsAtStartUp.has(b)) ? 'shared' : null;
  },
  entryFileNames: '[name].js',
  // esbuild's names carry its own hash: keep rollup's.
  chunkFileNames: (chunk) => `chunks/${chunk.name.replace(/-[A-Z0-9]{8}$/, '')}-[hash].js`,
  sourcemap: true,
  sourcemapExcludeSources: true,
  // Bundled CommonJS packages (undici, cli-table3) call require() for node builtins.
  banner:
    "import { createRequire as __wsCreateRequire } from 'node:module'; const require = __wsCreateRequire(import.meta.url);",
  plugins: [minify],
});
await bundle.close();
// Required relative to the chunk that holds their importer (createRequire of its own URL).
for (const x of SUBSTITUTES)
  if (x.as === 'file') copyFileSync(x.from, join(dist, 'chunks', x.file));
rmSync(stage, { recursive: true, force: true });
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
