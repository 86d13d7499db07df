// Reading --file F|- (stdin) as text.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { readAll } from '../../io/stdin.ts';

export interface Input {
  text: string;
  /** How messages name it: `--file items.csv` or `stdin`. */
  source: string;
  /** The file name, when it is one. */
  path: string | undefined;
}

export async function readInput(spec: string, deps: Deps, flag: string): Promise<Input> {
  if (spec === '-') {
    if (deps.io.isStdinTTY) {
      throw new UsageError(
        `${flag} - reads stdin, and stdin is a terminal.`,
        `Pipe the input in, or give a file: ${flag} FILE.`,
      );
    }
    return {
      text: await readAll(deps.io.stdin, `${flag} on stdin`),
      source: `${flag} (stdin)`,
      path: undefined,
    };
  }
  const text = await readFile(spec, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(
      `Cannot read ${flag} ${spec}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a directory' : e.message}.`,
    );
  });
  return { text, source: `${flag} ${spec}`, path: spec };
}
