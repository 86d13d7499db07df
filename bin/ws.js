#!/usr/bin/env node
// The `ws` command: enable the module compile cache where Node has it (and source maps with
// --debug), then run the bundle.
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
  const { enableCompileCache } = require('node:module');
  if (typeof enableCompileCache === 'function') {
    try {
      enableCompileCache();
    } catch {
      // A read-only cache directory only costs speed.
    }
  }

  // With --debug (or WS_DEBUG), stack traces name ws's sources (src/*.ts) instead of
  // positions in the minified bundle: dist/ carries source maps. Enabled before the bundle
  // loads, since Node reads a file's map as it compiles it; off otherwise (reading the maps
  // costs time).
  const end = args.indexOf('--');
  const debugFlag = args.slice(0, end === -1 ? args.length : end).includes('--debug');
  // WS_DEBUG is read as src/io/streams.ts's isTruthy reads it (the bundle is not loaded yet).
  const debugEnv = process.env.WS_DEBUG;
  if (debugFlag || (debugEnv && debugEnv !== '0' && debugEnv.toLowerCase() !== 'false'))
    process.setSourceMapsEnabled(true);

  require('../dist/ws.js')
    .main(args)
    .then((code) => {
      process.exitCode = code;
    });
}
