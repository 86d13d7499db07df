// What the exports of files as code share (`ws props export`, `ws automations export`): the
// format they write, and writing the text to stdout or --output with a line saying what.
import { promises as fs } from 'node:fs';
import { UsageError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';

/**
 * YAML, unless --json/--format json or an --output file ending in .json asks for JSON.
 * `command` names the export in errors (`ws props export`).
 */
export function exportFormat(
  command: string,
  output: string | undefined,
  deps: Deps,
): 'yaml' | 'json' {
  if (deps.fields) throw new UsageError(`--fields does not apply to \`${command}\`.`);
  const explicit = deps.flags.json ? 'json' : deps.flags.format;
  if (explicit !== undefined && explicit !== 'json')
    throw new UsageError(`${command} writes YAML, or JSON with --format json; not ${explicit}.`);
  if (explicit === 'json' || output?.toLowerCase().endsWith('.json')) return 'json';
  return 'yaml';
}

/** The file's text to stdout (with `output` absent or -) or to `output`; `what` it holds is said on stderr. */
export async function writeExport(
  deps: Deps,
  text: string,
  output: string | undefined,
  what: string,
): Promise<void> {
  if (output === undefined || output === '-') {
    deps.io.write(text);
    deps.io.info(`Exported ${what}.`);
    return;
  }
  try {
    await fs.writeFile(output, text);
  } catch (err) {
    throw new WsError(`Cannot write ${output}: ${(err as Error).message}`);
  }
  deps.io.success(`Exported ${what} to ${output}.`);
}
