// Parse tests: argv in, the options object a verb would get out. main() runs with a
// context whose invoke keeps the options instead of loading and running the verb, so
// nothing is sent and no dependency is built.
import assert from 'node:assert/strict';
import type { CommandContext } from '../../src/command.ts';
import { main } from '../../src/main.ts';
import { testIO } from './io.ts';

export interface Parsed {
  /** The options the verb would get; undefined when parsing failed. */
  opts?: unknown;
  code: number;
  stderr: string;
}

/** Parse argv; returns the options the verb would get, or the exit code and stderr. */
export async function parse(argv: string[]): Promise<Parsed> {
  let opts: unknown;
  const context: CommandContext = {
    async invoke(_cmd, _load, o) {
      opts = o;
    },
  };
  const t = testIO();
  const code = await main(argv, {
    io: t.io,
    env: {},
    signal: new AbortController().signal,
    context,
  });
  return { opts, code, stderr: t.stderr() };
}

/** Options of a parse that must succeed (the stderr of a failure is the message). */
export async function options(argv: string[]): Promise<unknown> {
  const r = await parse(argv);
  if (r.code !== 0) throw new Error(`${argv.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return r.opts;
}

/**
 * Each argv must fail to parse as a usage error (exit 2) whose message matches, before any
 * verb gets options.
 */
export async function assertUsageErrors(cases: readonly [string[], RegExp][]): Promise<void> {
  for (const [argv, message] of cases) {
    const r = await parse(argv);
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.equal(r.opts, undefined, argv.join(' '));
    assert.match(r.stderr, message);
  }
}
