// A built-in module loaded where it is first needed (node:http and node:zlib, which a
// command that sends no request never loads), synchronously: process.getBuiltinModule gives
// the module require() gives. The bundle is CommonJS (scripts/build.mjs), where rollup would
// leave an import() of a built-in as it is, and that would load Node's ES module loader.

export function builtin<T>(name: `node:${string}`): T {
  return process.getBuiltinModule(name) as T;
}
