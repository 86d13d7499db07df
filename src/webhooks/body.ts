// A delivery body given on the command line, as the exact bytes a signature covers: inline
// text, @FILE, or - for stdin. Never re-encoded: a file's bytes are read as they are.
import { promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import type { Deps } from '../factory.ts';

const MAX_BYTES = 64 * 1024 * 1024;

export async function readBodyArg(spec: string, deps: Deps, flag: string): Promise<Buffer> {
  if (spec === '-') {
    if (deps.io.isStdinTTY) {
      throw new UsageError(
        `${flag} - reads stdin, and stdin is a terminal.`,
        `Pipe the body in, or give a file: ${flag} @FILE.`,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of deps.io.stdin) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > MAX_BYTES) throw new UsageError(`${flag} on stdin is larger than 64 MiB.`);
      chunks.push(buf);
    }
    return Buffer.concat(chunks);
  }
  if (spec.startsWith('@')) {
    const file = spec.slice(1);
    return fs.readFile(resolve(deps.cwd, file)).catch((e: NodeJS.ErrnoException) => {
      throw new UsageError(
        `Cannot read ${flag} ${spec}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a directory' : e.message}.`,
      );
    });
  }
  return Buffer.from(spec, 'utf8');
}
