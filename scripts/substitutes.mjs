// The modules that scripts/build.mjs swaps inside ws's dependencies (undici, chalk,
// commander), and the esbuild plugin that swaps them. An entry names a module by its path
// inside the package, which a new version of the package may change: the plugin counts what
// each entry matched and fails the build, naming the entry and the package's version, when
// one matched nothing (or, for an entry that names one file, more than one file), so that
// an upgrade cannot silently turn a substitution off. package.json pins these packages
// exactly: an upgrade is a deliberate change that this check reviews.
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Modules that packages require at load time but that ws's start-up does not need. Each
 * entry is the module `request` as `package` requires it from `importer` (a file inside the
 * package, or a folder ending in `/` for every file under it), and what stands in for it:
 * - `lazy`: bundled behind a stand-in that loads it on first use (a call or a property
 *   read). undici requires its HTTP/2 client, and with it node:http2, node:tls and
 *   node:crypto, as soon as its HTTP/1 client loads; that code runs only for a connection
 *   that negotiates HTTP/2, which ws never enables (`allowH2`): about a third of the
 *   built-in modules a request would load. commander requires node:child_process (and with
 *   it node:net and node:dgram) for subcommands that are separate executables, which ws
 *   does not have.
 * - `assert`: undici checks its own invariants with `assert(value)`; the stand-in checks the
 *   value itself and loads node:assert (2 ms of every request's start-up) only to throw
 *   its AssertionError when one fails. Any other use of the module loads it.
 * - `stub`: replaced by the given CommonJS source. chalk detects colour support when it
 *   loads, through node:tty (which loads node:net and node:stream); ws decides colour
 *   itself (`colorLevel` in src/io/streams.ts: --no-color, NO_COLOR, FORCE_COLOR, the
 *   terminal) and gives every chalk instance its level, so chalk's own detection says none.
 *   undici reads two things of node:http (2 ms of every request's start-up) as it loads: the
 *   default limit on response headers, Node's 16 KiB unless node runs with
 *   --max-http-header-size, which ws does not; and the class of node:http's incoming
 *   messages, to unhook one from its socket when it is destroyed as a request body, which
 *   ws never sends.
 * - `wasm`: undici carries llhttp compiled to WebAssembly twice, as base64 text in
 *   JavaScript: with SIMD instructions, and without them for machines that lack them (or
 *   with UNDICI_NO_WASM_SIMD=1). Each is written next to the chunks as a .wasm file that the
 *   stand-in reads from its chunk's directory (`__dirname`: the output is CommonJS), so a
 *   request neither compiles 2 × 72 KB of text nor decodes it, and the second file is read
 *   only on such a machine.
 */
export const SUBSTITUTES = [
  {
    package: 'undici',
    importer: 'lib/dispatcher/client.js',
    request: './client-h2.js',
    as: 'lazy',
  },
  { package: 'commander', importer: 'lib/command.js', request: 'node:child_process', as: 'lazy' },
  { package: 'undici', importer: 'lib/', request: 'node:assert', as: 'assert' },
  {
    package: 'chalk',
    importer: 'source/index.js',
    request: '#supports-color',
    as: 'stub',
    contents: 'module.exports = { stdout: false, stderr: false };',
  },
  {
    package: 'undici',
    importer: 'lib/dispatcher/client.js',
    request: 'node:http',
    as: 'stub',
    contents: 'module.exports = { maxHeaderSize: 16 * 1024 };',
  },
  {
    package: 'undici',
    importer: 'lib/core/util.js',
    request: 'node:http',
    as: 'stub',
    contents: 'module.exports = { IncomingMessage: class IncomingMessage {} };',
  },
  {
    package: 'undici',
    importer: 'lib/dispatcher/client-h1.js',
    request: '../llhttp/llhttp_simd-wasm.js',
    as: 'wasm',
    file: 'llhttp-simd',
  },
  {
    package: 'undici',
    importer: 'lib/dispatcher/client-h1.js',
    request: '../llhttp/llhttp-wasm.js',
    as: 'wasm',
    file: 'llhttp',
  },
];

/** The path of `x.importer` below a node_modules folder (a folder keeps its trailing separator). */
function importerPath(x) {
  const path = join(sep, 'node_modules', x.package, ...x.importer.split('/'));
  return x.importer.endsWith('/') ? path + sep : path;
}

/** The file `x.importer` of the installed package, to require `x.request` from. */
export function importerFile(x) {
  return join(root, 'node_modules', x.package, ...x.importer.split('/'));
}

/** The CommonJS source that stands in for `x.request`. */
function standIn(x) {
  // The real module, required when first used; `apply` decides what a call does.
  const proxy = (apply) => `let real;
const load = () => (real ??= require(${JSON.stringify(x.request)}));
module.exports = new Proxy(function () {}, {
  apply: ${apply},
  get: (_target, key) => load()[key],
});`;
  switch (x.as) {
    case 'stub':
      return x.contents;
    case 'wasm':
      return `module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(`${x.file}.wasm`)}));`;
    case 'assert':
      return proxy(
        '(_target, self, argv) => (argv[0] ? undefined : Reflect.apply(load(), self, argv))',
      );
    case 'lazy':
      return proxy('(_target, self, argv) => Reflect.apply(load(), self, argv)');
    default:
      throw new Error(`unknown substitute kind ${x.as}`);
  }
}

/** `undici 7.30.2`, from the installed package. */
function installed(name) {
  const file = join(root, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return `${name} (not installed)`;
  return `${name} ${JSON.parse(readFileSync(file, 'utf8')).version}`;
}

/**
 * What is wrong with what each entry matched (`files[i]`: the files whose import of
 * `entries[i].request` it replaced): an entry must match at least one file, and an entry
 * that names a file exactly one.
 */
export function unmatched(entries, files) {
  return entries.flatMap((x, i) => {
    const n = files[i]?.size ?? 0;
    const folder = x.importer.endsWith('/');
    if (n === 1 || (folder && n > 1)) return [];
    const what = `substitute for '${x.request}' in ${x.package}/${x.importer} (${x.as})`;
    const found =
      n === 0
        ? 'matched no import'
        : `matched imports in ${n} files, expected 1: ${[...files[i]].join(', ')}`;
    return [
      `${what} ${found} in ${installed(x.package)}. Its files have moved or changed: update SUBSTITUTES in scripts/substitutes.mjs for this version.`,
    ];
  });
}

/** The esbuild plugin that swaps `entries` (SUBSTITUTES unless told) and checks each matched. */
export function substitutes(entries = SUBSTITUTES) {
  return {
    name: 'substitutes',
    setup(b) {
      const literal = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      const filter = new RegExp(`^(${entries.map((x) => literal(x.request)).join('|')})$`);
      const paths = entries.map(importerPath);
      let files = [];
      b.onStart(() => {
        files = entries.map(() => new Set());
      });
      b.onResolve({ filter }, (args) => {
        if (args.namespace === 'stand-in') return null;
        const i = entries.findIndex(
          (x, i) =>
            x.request === args.path &&
            (paths[i].endsWith(sep)
              ? args.importer.includes(paths[i])
              : args.importer.endsWith(paths[i])),
        );
        if (i === -1) return null;
        files[i].add(args.importer);
        // One module per entry (two entries may stand in for the same request).
        return {
          path: `${args.path}#${i}`,
          namespace: 'stand-in',
          pluginData: { resolveDir: args.resolveDir, x: entries[i] },
        };
      });
      b.onLoad({ filter: /.*/, namespace: 'stand-in' }, (args) => ({
        contents: standIn(args.pluginData.x),
        loader: 'js',
        resolveDir: args.pluginData.resolveDir,
      }));
      // Only a build that otherwise succeeded has seen every import.
      b.onEnd((result) => {
        if (result.errors.length > 0) return undefined;
        return { errors: unmatched(entries, files).map((text) => ({ text })) };
      });
    },
  };
}
