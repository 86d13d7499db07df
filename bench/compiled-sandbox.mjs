// The sandbox's modules a bench needs, compiled as the build compiles them (esbuild,
// bundled, no names kept: src/ through tsx would time tsx's own wrappers of every function
// it creates). `modules` maps each export's name to its file under src/. The bundle is
// written under bench/.out (kept out of git), where the console finds its page (dist/console).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export async function compiledSandbox(modules) {
  const src = new URL('../src/', import.meta.url).pathname;
  const dir = join(new URL('.out/', import.meta.url).pathname, `sandbox-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      Object.entries(modules)
        .map(([name, file]) => `export { ${name} } from ${JSON.stringify(`${src}${file}`)};`)
        .join('\n'),
    );
    const outfile = join(dir, 'sandbox.mjs');
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      logLevel: 'error',
      // Packages written as CommonJS require Node's built-ins.
      banner: {
        js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      },
    });
    return await import(outfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
