// Bundles src/main.ts into dist/ with esbuild. Commands and heavy packages sit in
// their own chunks and load only when a command needs them (see src/root.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { ws: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  minify: true,
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  // Bundled CommonJS packages (undici, cli-table3) call require() for node builtins.
  banner: {
    js: "import { createRequire as __wsCreateRequire } from 'node:module'; const require = __wsCreateRequire(import.meta.url);",
  },
});

// Shell completions are generated from the command tree of the build.
mkdirSync(new URL('../completions', import.meta.url), { recursive: true });
for (const [shell, file] of [
  ['bash', 'ws.bash'],
  ['zsh', '_ws'],
  ['fish', 'ws.fish'],
]) {
  const r = spawnSync(process.execPath, ['bin/ws.js', 'completion', shell], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ws completion ${shell} failed: ${r.stderr}`);
  writeFileSync(new URL(`../completions/${file}`, import.meta.url), r.stdout);
}
