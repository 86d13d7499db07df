// Reading what a flag names: a file or stdin (`--file F|-`), and JSON or YAML given inline,
// as @FILE or as - for stdin (`--data`, `--body`). Messages name the flag and the source.
import { promises as fs } from 'node:fs';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { readStdin } from '../../io/stdin.ts';
import { loadYaml } from '../../util/yaml.ts';

export interface Input {
  text: string;
  /** How messages name it: `--file items.csv` or `stdin`. */
  source: string;
  /** The file name, when it is one. */
  path: string | undefined;
}

/** Read FILE, or stdin for `-` (refused when stdin is a terminal). */
export async function readInput(spec: string, deps: Deps, flag: string): Promise<Input> {
  if (spec === '-') {
    if (deps.io.isStdinTTY) {
      throw new UsageError(
        `${flag} - reads stdin, and stdin is a terminal.`,
        `Pipe the input in, or give a file: ${flag} FILE.`,
      );
    }
    return {
      text: await readStdin(deps.io, `${flag} on stdin`, { signal: deps.signal }),
      source: `${flag} (stdin)`,
      path: undefined,
    };
  }
  const text = await fs.readFile(spec, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(
      `Cannot read ${flag} ${spec}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a directory' : e.message}.`,
    );
  });
  return { text, source: `${flag} ${spec}`, path: spec };
}

/** The text of an argument given inline, as `@FILE`, or as `-` for stdin. */
export async function readArg(spec: string, deps: Deps, flag: string): Promise<Input> {
  if (spec === '-' || spec.startsWith('@'))
    return readInput(spec === '-' ? spec : spec.slice(1), deps, flag);
  return { text: spec, source: flag, path: undefined };
}

/** Read `JSON`, `@FILE` or `-` (stdin) as JSON. `flag` names the source in messages. */
export async function readJsonArg(spec: string, deps: Deps, flag: string): Promise<unknown> {
  const input = await readArg(spec, deps, flag);
  try {
    return JSON.parse(input.text);
  } catch (e) {
    throw new UsageError(
      `${input.source} is not valid JSON: ${(e as Error).message}.`,
      `Give JSON inline, @FILE to read a file, or - for stdin, e.g. ${flag} '{"name":"Ada"}'.`,
    );
  }
}

/**
 * JSON or YAML text as a value. JSON is read as JSON; other text as YAML (the yaml package
 * loads only then), so a file may be written either way.
 */
export async function parseJsonOrYaml(input: Input): Promise<unknown> {
  try {
    return JSON.parse(input.text);
  } catch {
    // not JSON: YAML, then
  }
  const YAML = await loadYaml();
  try {
    return YAML.parse(input.text);
  } catch (e) {
    throw new UsageError(
      `${input.source} is neither JSON nor valid YAML: ${(e as Error).message.split('\n')[0]}`,
      'Check the text at the line and column given.',
    );
  }
}

/** Read `JSON or YAML`, `@FILE` or `-` (stdin) as a value. */
export async function readJsonOrYamlArg(spec: string, deps: Deps, flag: string): Promise<unknown> {
  return parseJsonOrYaml(await readArg(spec, deps, flag));
}
