// The flags of the verbs that compare the workspace with a file and make it match it
// (`ws props diff|apply`, `ws automations diff|apply`): the file, --dry-run (apply) and
// --prune, read alike; each noun words their help for its own files.
import type { Command } from 'commander';
import type { Flags } from './flags.ts';

/** The options diff runs with (and apply, with --dry-run). */
export interface DiffOptions {
  file: string;
  prune: boolean;
}

export interface ApplyOptions extends DiffOptions {
  dryRun: boolean;
}

/** `-f, --file` (required), then `--dry-run` where it has help (apply), then `--prune`. */
export function planFlags(
  cmd: Command,
  help: { file: string; dryRun?: string; prune: string },
): Command {
  cmd.requiredOption('-f, --file <file>', help.file);
  if (help.dryRun !== undefined) cmd.option('--dry-run', help.dryRun);
  return cmd.option('--prune', help.prune);
}

export function diffOptions(f: Flags): DiffOptions {
  return { file: f.string('--file')!, prune: f.boolean('--prune') };
}

export function applyOptions(f: Flags): ApplyOptions {
  return { file: f.string('--file')!, dryRun: f.boolean('--dry-run'), prune: f.boolean('--prune') };
}
