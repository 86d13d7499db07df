// Builds the sandbox console's page (src/console/: Preact, TSX) into dist/console: app.js,
// one minified ES module for browsers with Preact inside it, and app.css. The sandbox
// serves these files under /console/assets (src/sandbox/console/server.ts); nothing is
// fetched from elsewhere at run time. Only `ws sandbox start` (the sandbox) ever reads them:
// the CLI's bundle does not import src/console.
//
//   node scripts/build-console.mjs            (scripts/build.mjs runs it after the CLI's bundle)
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Build the console into `<dist>/console`. */
export async function buildConsole(dist = join(root, 'dist'), { minify = true } = {}) {
  await build({
    entryPoints: { app: join(root, 'src/console/main.tsx') },
    outdir: join(dist, 'console'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // Browsers of the last few years (EventSource, ES modules, :focus-visible).
    target: ['chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildConsole();
