// Types of scripts/substitutes.mjs (a plain script that node runs), for the tests that
// drive it from TypeScript (test/build/substitutes.test.ts).
import type { Plugin } from 'esbuild';

export interface Substitute {
  /** The package whose module is swapped. */
  package: string;
  /** The file inside the package that imports the module, or a folder ending in `/`. */
  importer: string;
  /** The module as the importer names it. */
  request: string;
  as: 'lazy' | 'assert' | 'stub' | 'wasm';
  /** `stub`: the CommonJS source that replaces the module. */
  contents?: string;
  /** `wasm`: the name of the .wasm file written next to the chunks. */
  file?: string;
}

export const SUBSTITUTES: readonly Substitute[];
export function importerFile(x: Substitute): string;
export function unmatched(entries: readonly Substitute[], files: ReadonlySet<string>[]): string[];
export function substitutes(entries?: readonly Substitute[]): Plugin;
