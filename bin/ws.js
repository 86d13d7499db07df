#!/usr/bin/env node
// The `ws` command: enable the module compile cache where Node has it, then run the bundle.
import module from 'node:module';

if (typeof module.enableCompileCache === 'function') {
  try {
    module.enableCompileCache();
  } catch {
    // A read-only cache directory only costs speed.
  }
}

const { main } = await import('../dist/ws.js');
process.exitCode = await main(process.argv.slice(2));
