#!/usr/bin/env node
// The `ws` command: compile the bundle with a code cache (or with source maps, with --debug),
// then run it.
// This file and dist/ are CommonJS (see bin/package.json and scripts/build.mjs): Node 20's
// ES module loader alone costs a command more start-up time than the rest of ws's loading.
const args = process.argv.slice(2);

// `ws --version` alone is answered before anything else loads: the version is package.json's,
// as the bundle's is (src/version.ts), and the bundle need not be read and compiled to print
// it. With other arguments, the bundle parses them (`ws --version --help`, ...).
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  run();
}

function run() {
  // With --debug (or WS_DEBUG), stack traces name ws's sources (src/*.ts) instead of
  // positions in the minified bundle: dist/ carries source maps. Enabled before the bundle
  // loads, since Node reads a file's map as it compiles it; off otherwise (reading the maps
  // costs time).
  const end = args.indexOf('--');
  const debugFlag = args.slice(0, end === -1 ? args.length : end).includes('--debug');
  // WS_DEBUG is read as src/io/streams.ts's isTruthy reads it (the bundle is not loaded yet).
  const debugEnv = process.env.WS_DEBUG;
  const debug = debugFlag || (debugEnv && debugEnv !== '0' && debugEnv.toLowerCase() !== 'false');
  if (debug) process.setSourceMapsEnabled(true);
  const load = withCodeCache(debug);

  const ws = load === undefined ? require('../dist/ws.js') : load('ws.js', module);
  // The process ends as the command returns: the API client leaves its idle connections
  // to the system, which closes them as the process ends.
  ws.main(args, { processEnds: true }).then((code) => {
    process.exitCode = code;
    // The command is done: the process ends now (its 'exit' listeners run, the code cache's
    // among them) rather than once Node finds nothing left to do, ~1 ms later (the teardown
    // of an environment about to be dropped).
    // Not while output is still on its way (a pipe on macOS), which would be lost: the
    // idle connections it left then close as the process ends, or as the server drops them.
    if (ws.outputFlushed()) process.exit(code);
  });
}

/**
 * Compiling the bundle's files is a good part of a command's start-up. They are compiled here
 * with V8's code cache, kept on disk and written as the process ends, so that it holds the
 * functions the command compiled as it ran: more than Node's own compile cache (Node 22+,
 * module.enableCompileCache) keeps, which is written as each file compiles, before any of
 * its functions ran (auth status: 2.16x of node -e 0 on Node 24 this way, 2.38x with Node's;
 * see bench/startup.mjs). NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's.
 * Each command (noun and verb) has entries of its own, written by its first run that
 * succeeds: data written by another command lacks the functions this one runs, which V8
 * then compiles on every run (`records list` 3 ms slower with the data `auth status` left).
 *
 * Returns the loader of dist/'s files (none without the cache): the bundle's require() of
 * its chunks goes to them by path, without Node's resolution of a request (a stat and a
 * real path per file, the package scope's type; 1.4 ms of `auth status`, which loads three
 * files). dist/ requires nothing but its own files and Node's built-ins (scripts/build.mjs
 * refuses a package left unbundled).
 */
function withCodeCache(debug) {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  // Source maps are read by Node's own compile step: with --debug, files compile as usual.
  if (debug) return;
  const fs = require('node:fs');
  const path = require('node:path');
  const base = codeCacheDir(fs, path);
  if (base === undefined) return;
  const dir = path.join(base, commandOf(args));
  // The CommonJS loader's Module, as require('node:module') gives it, without loading that
  // module's public face (0.6 ms).
  const Module = module.constructor;
  const vm = require('node:vm');
  const dist = path.join(__dirname, '..', 'dist') + path.sep;
  const cache = Module._cache;
  const toWrite = [];
  // A file of dist/ (its path there, as ws.js or chunks/x.js), loaded for `parent` as
  // Node's require() would: one module per file, in require.cache, its exports returned.
  const load = (name, parent) => {
    const filename = path.join(dist, name);
    const known = cache[filename];
    if (known !== undefined) return known.exports;
    const m = new Module(filename, parent);
    m.filename = filename;
    m.paths = [];
    cache[filename] = m;
    try {
      const content = fs.readFileSync(filename, 'utf8');
      // Named by the file, its size and its time, in a directory of this Node and this ws
      // (V8 also refuses data made by another V8 or for a source of another length).
      const stat = fs.statSync(filename);
      const key = encodeURIComponent(name.replaceAll(path.sep, '/'));
      const entry = path.join(dir, `${key}-${stat.size}-${Math.floor(stat.mtimeMs)}`);
      let cachedData;
      try {
        cachedData = fs.readFileSync(entry);
      } catch {}
      // dist/ has no import(), which would need an ES module loader that vm.Script has only
      // behind an experimental flag: scripts/build.mjs refuses to write one.
      const script = new vm.Script(Module.wrap(content), { filename, cachedData });
      if (cachedData === undefined || script.cachedDataRejected) {
        // Written as the process ends, so that the data holds the functions the command
        // compiled; not after a failure, whose data would hold the way the command failed.
        // (No listener when every file had its entry: the common case costs nothing more.)
        if (toWrite.length === 0)
          process.once(
            'exit',
            (code) => code === 0 && writeEntries(fs, path, { base, dir, dist }, toWrite),
          );
        toWrite.push([entry, script]);
      }
      const fn = script.runInThisContext({ displayErrors: true });
      const here = path.dirname(name);
      // A relative request names another file of dist/ (46: '.'); any other, a built-in.
      const require = (id) => {
        const other = id.charCodeAt(0) === 46 && id.endsWith('.js') && path.join(here, id);
        return other && !other.startsWith('..') ? load(other, m) : m.require(id);
      };
      require.resolve = (request, options) => Module._resolveFilename(request, m, false, options);
      require.main = process.mainModule;
      require.cache = cache;
      fn.call(m.exports, m.exports, require, m, filename, path.dirname(filename));
    } catch (err) {
      delete cache[filename];
      throw err;
    }
    m.loaded = true;
    return m.exports;
  };
  return load;
}

/**
 * Writes the entries of the files compiled without one (atomically: a temporary file
 * renamed), then removes those of files dist/ no longer has. A cache that cannot be written
 * only costs speed.
 */
function writeEntries(fs, path, { base, dir, dist }, toWrite) {
  try {
    // The directory of this Node and ws made now: the directories of this Node's other
    // versions of ws are left from before an upgrade (or a downgrade), and are removed.
    const made = fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (made !== undefined && made !== dir) {
      const mine = path.basename(base);
      const others = `code-${process.version}-`;
      for (const n of fs.readdirSync(path.dirname(base)))
        if (n.startsWith(others) && n !== mine)
          fs.rmSync(path.join(path.dirname(base), n), { recursive: true, force: true });
    }
    for (const [entry, script] of toWrite) {
      const tmp = `${entry}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(tmp, entry);
    }
    pruneEntries(fs, path, dir, dist);
  } catch {
    // A cache that cannot be written only costs speed.
  }
}

/**
 * Removes the entries of a command's directory whose file dist/ no longer has, or has at
 * another size or time (a build since, in a checkout of ws).
 */
function pruneEntries(fs, path, dir, dist) {
  for (const entry of fs.readdirSync(dir)) {
    const m = /^(.+)-(\d+)-(\d+)$/.exec(entry);
    if (m === null) continue;
    let stat;
    try {
      stat = fs.statSync(path.join(dist, decodeURIComponent(m[1])));
    } catch {}
    if (
      stat === undefined ||
      stat.size !== Number(m[2]) ||
      Math.floor(stat.mtimeMs) !== Number(m[3])
    )
      fs.rmSync(path.join(dir, entry), { force: true });
  }
}

/**
 * The name of a command's entries: its first words (noun and verb) up to the first flag,
 * and `help` when it shows help. The few words a command tree has, not operands.
 */
function commandOf(args) {
  const words = [];
  for (const a of args) {
    if (words.length === 2 || !isWord(a)) break;
    words.push(a.toLowerCase());
  }
  if (args.includes('-h') || args.includes('--help')) words.push('help');
  return words.length === 0 ? 'ws' : words.join('-');
}

/** A letter, then up to 31 letters, digits or dashes (tested without a regular expression, which costs a command 0.3 ms to compile). */
function isWord(a) {
  if (a.length === 0 || a.length > 32) return false;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    const letter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
    if (!letter && (i === 0 || !((c >= 0x30 && c <= 0x39) || c === 0x2d))) return false;
  }
  return true;
}

/**
 * The value of package.json's "version", read without a regular expression (which V8
 * compiles as it first runs it, 0.1 ms); undefined when it has none.
 */
function versionIn(text) {
  const key = text.indexOf('"version"');
  if (key === -1) return undefined;
  let i = key + '"version"'.length;
  const skipSpace = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  skipSpace();
  if (text[i] !== ':') return undefined;
  i++;
  skipSpace();
  if (text[i] !== '"') return undefined;
  const end = text.indexOf('"', i + 1);
  return end > i + 1 ? text.slice(i + 1, end) : undefined;
}

/**
 * The code cache's directory: ws's in the user's cache directory (not a shared temporary
 * directory), one per Node and ws version. None when it exists but another user owns it or
 * others may write to it: its data is code that would run.
 */
function codeCacheDir(fs, path) {
  const env = process.env;
  // os.homedir() is $HOME where that is set (but on Windows): node:os need not load for it.
  const home = (process.platform !== 'win32' && env.HOME) || require('node:os').homedir();
  const base =
    process.platform === 'win32'
      ? path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'ws', 'Cache')
      : process.platform === 'darwin'
        ? path.join(home, 'Library', 'Caches', 'ws')
        : path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'ws');
  // Read as text: require() of a JSON file costs more than the rest of this function.
  let version;
  try {
    version = versionIn(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  } catch {}
  // dist/ copied without ws's package.json: no version to key the cache by.
  if (version === undefined) return undefined;
  const dir = path.join(base, `code-${process.version}-${version}`);
  try {
    const stat = fs.statSync(dir);
    if (process.getuid && (stat.uid !== process.getuid() || (stat.mode & 0o022) !== 0))
      return undefined;
  } catch {
    // Not made yet: made with mode 0700 when the first entries are written.
  }
  return dir;
}
