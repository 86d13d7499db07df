// The `yaml` package, loaded when a command needs it. Bundled, its CommonJS build comes
// back from a dynamic import as the default export only; from source, as named exports.
export type Yaml = typeof import('yaml');

export async function loadYaml(): Promise<Yaml> {
  const mod = (await import('yaml')) as Yaml & { default?: Yaml };
  return mod.default && typeof mod.default.parse === 'function' ? mod.default : mod;
}
