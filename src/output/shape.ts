// --jq and --template: the JSON a command prints, shaped by the user's own expression before
// it reaches stdout (gh's --jq and --template are the model). A command does not know: the
// output layer hands what it would have printed as JSON to a Shaper instead, list rows a
// page at a time (so a list read with --all need not be held whole), one object as one
// value; and what a command writes to stdout itself is read back as JSON (shaping.ts).
// This file reads the flags; shaping.ts and the engines (jq compiled to WebAssembly,
// liquidjs) load only when a flag is given.
import { UsageError } from '../errors.ts';
import type { Format } from './format.ts';

/** What shapes a command's JSON: the jq program or the Liquid template. */
export interface Shaper {
  /** Whole JSON values, each an input of its own (an object, the rows of NDJSON). */
  values(values: readonly unknown[]): Promise<void>;
  /** The next items of the JSON array a list is printed as, as its pages arrive. */
  items(items: readonly unknown[]): Promise<void>;
  /** That array is complete. */
  endItems(): Promise<void>;
  /** Nothing more comes: write what is held. */
  end(): Promise<void>;
}

/** --jq or --template, as given. */
export type ShapeRequest = { kind: 'jq'; expression: string } | { kind: 'template'; spec: string };

export interface ShapeFlags {
  jq?: string | undefined;
  template?: string | undefined;
  json?: boolean | undefined;
  format?: string | undefined;
}

/**
 * The shaping the flags ask for, checked before anything runs: --jq and --template exclude
 * each other, and both work on JSON (--format json or ndjson; json when no format is given).
 */
export function shapeRequest(flags: ShapeFlags): ShapeRequest | undefined {
  if (flags.jq !== undefined && flags.template !== undefined)
    throw new UsageError('--jq and --template cannot be used together.', 'Use one of them.');
  const flag = flags.jq !== undefined ? '--jq' : flags.template !== undefined ? '--template' : '';
  if (flag === '') return undefined;
  if (!flags.json && flags.format !== undefined && !['json', 'ndjson'].includes(flags.format)) {
    throw new UsageError(
      `${flag} works on JSON output, not --format ${flags.format}.`,
      `Drop --format ${flags.format}: ${flag} reads the command's JSON (--format ndjson runs it on each row).`,
    );
  }
  if (flags.jq !== undefined) {
    if (flags.jq.trim() === '') throw new UsageError('--jq needs an expression, e.g. --jq .name.');
    return { kind: 'jq', expression: flags.jq };
  }
  if (flags.template === '' || flags.template === '@')
    throw new UsageError('--template needs a template, or @FILE to read one from a file.');
  return { kind: 'template', spec: flags.template! };
}

/** The format a shaped command prints in: ndjson when asked for, else json. */
export function shapedFormat(flags: ShapeFlags): Format {
  return !flags.json && flags.format === 'ndjson' ? 'ndjson' : 'json';
}
