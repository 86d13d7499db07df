#!/usr/bin/env node
// The `ws` command: Node's compile cache where Node has it (22.1 and later), then the bundle.
// This file and dist/ are CommonJS (bin/package.json, scripts/build.mjs): on Node 20 the ES
// module loader costs every command more start-up time than loading ws's own code.
const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The version is package.json's, as the bundle's is (src/version.ts): answered without
  // loading the bundle. With other arguments, the bundle parses them (`ws --version --help`).
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // With --debug (or WS_DEBUG), stack traces name ws's sources (src/*.ts), from the source
  // maps dist/ carries; enabled before the bundle loads, as Node reads a file's map when it
  // compiles it.
  const end = args.indexOf('--');
  const debugEnv = process.env.WS_DEBUG;
  if (
    args.slice(0, end === -1 ? args.length : end).includes('--debug') ||
    (debugEnv && debugEnv !== '0' && debugEnv.toLowerCase() !== 'false')
  )
    process.setSourceMapsEnabled(true);
  require('node:module').enableCompileCache?.();
  require('../dist/ws.js')
    .main(args)
    .then((code) => {
      process.exitCode = code;
    });
}
