// A built-in module loaded where it is first needed, synchronously:
// process.getBuiltinModule (Node 20.16+) gives the module require() gives. The bundle is
// CommonJS, and an import() of a built-in left in it would start Node's ES module loader.

export function builtin<T>(name: `node:${string}`): T {
  return process.getBuiltinModule(name) as T;
}
