// A built-in module loaded where it is first needed, through require(): the bundle is
// CommonJS, and an import() left in it would need an ES module loader at run time (Node
// 20's costs start-up, and bin/ws.js compiles the bundle's files with a code cache on Node
// 20, where import() is not available to them). On Node 24, require also keeps node:http
// from running its lazy exports (Node's own fetch, node:http2, tls, zlib, ...).
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export function builtin<T>(name: `node:${string}`): T {
  return load(name) as T;
}
