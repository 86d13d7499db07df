// A built-in module loaded where it is first needed. The bundle is CommonJS, and an import()
// left in it would need an ES module loader at run time (Node 20's costs start-up, and
// bin/ws.js compiles the bundle's files with a code cache on Node 20, where import() is not
// available to them). process.getBuiltinModule (Node 20.16+) gives the module require()
// gives, without making a require function from a file URL (node:url and node:module's
// createRequire, 1 ms of a command's start-up). As with require, node:http's lazy exports
// (Node's own fetch, node:http2, tls, zlib, ...) do not run.

export function builtin<T>(name: `node:${string}`): T {
  return process.getBuiltinModule(name) as T;
}
