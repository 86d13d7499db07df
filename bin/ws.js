#!/usr/bin/env node
// The `ws` command: enable the module compile cache where Node has it, then run the bundle.
// This file and dist/ are CommonJS (see bin/package.json and scripts/build.mjs): Node 20's
// ES module loader alone costs a command more start-up time than the rest of ws's loading.
const { enableCompileCache } = require('node:module');

if (typeof enableCompileCache === 'function') {
  try {
    enableCompileCache();
  } catch {
    // A read-only cache directory only costs speed.
  }
}

require('../dist/ws.js')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
