// Planning the columns of an import before anything is sent: each header mapped to the
// property it fills (mapping.ts), unknown columns left out, asked about on a terminal or
// refused, the required properties checked, the mapping saved for the next run when asked;
// then the API's import options, whose --dedupe-by property a column must fill.
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { ImportOptions } from '../api/imports.ts';
import { UsageError } from '../errors.ts';
import type { IOStreams } from '../io/streams.ts';
import type { Prompter } from '../prompt/prompter.ts';
import { findDefinition } from '../schema/definitions.ts';
import {
  askUnknown,
  type ColumnPlan,
  checkDuplicates,
  readMapFile,
  resolveMapping,
  unknownColumnsError,
  writeMapFile,
} from './mapping.ts';
import type { Definition } from './typing.ts';

/** The flags that decide the columns (`ws import`'s options have them). */
export interface ColumnFlags {
  /** The object type, for messages. */
  type: string;
  map: [string, string | null][];
  mapFile: string | undefined;
  saveMap: string | undefined;
  skip: string[];
  ignoreUnknown: boolean;
}

export interface ColumnContext {
  io: IOStreams;
  prompter: Prompter;
  /** Where a mapping is suggested when the input is stdin. */
  cwd: string;
  /** The input file (absolute), or undefined for stdin. */
  path: string | undefined;
}

/** The property each column fills (or none), or a usage error that says what to change. */
export async function planColumns(
  flags: ColumnFlags,
  ctx: ColumnContext,
  headers: string[],
  defs: Definition[],
): Promise<ColumnPlan[]> {
  const { io } = ctx;
  const { columns, unknown } = resolveMapping({
    headers,
    defs,
    map: flags.map,
    mapFile: flags.mapFile === undefined ? undefined : readMapFile(flags.mapFile),
    skip: flags.skip,
  });
  let asked = false;
  if (unknown.length > 0) {
    if (flags.ignoreUnknown) {
      io.warn(
        `Left out ${unknown.length === 1 ? 'a column' : `${unknown.length} columns`} that match no property: ${unknown.map((u) => `"${u.header}"`).join(', ')}.`,
      );
    } else if (io.canPrompt()) {
      io.info(
        `${unknown.length === 1 ? 'A column matches' : `${unknown.length} columns match`} no property of ${flags.type}.`,
      );
      await askUnknown(ctx.prompter, unknown, columns, defs, (slug) =>
        columns.some((c) => c.def?.slug === slug),
      );
      asked = true;
    } else {
      throw unknownColumnsError(unknown, false);
    }
  }
  checkDuplicates(columns);
  if (!columns.some((c) => c.def)) {
    throw new UsageError(
      'No column of the file fills a property: there is nothing to import.',
      `Its columns: ${headers.join(', ')}. Map them with --map "Header=slug".`,
    );
  }
  const missing = defs.filter((d) => d.required === true && !columns.some((c) => c.def === d));
  if (missing.length > 0) {
    throw new UsageError(
      `The file has no column for the required ${missing.length === 1 ? 'property' : 'properties'} ${missing.map((d) => d.slug).join(', ')}: every row would fail.`,
      `Add the column, or map one to it with --map "Header=${missing[0]!.slug}".`,
    );
  }
  let save = flags.saveMap;
  if (save === undefined && asked) {
    const suggested =
      ctx.path === undefined
        ? resolve(ctx.cwd, 'ws-import.mapping.json')
        : join(dirname(ctx.path), `${basename(ctx.path, extname(ctx.path))}.mapping.json`);
    if (
      await ctx.prompter.confirm({
        message: `Save this mapping to ${suggested} for the next run?`,
        default: true,
      })
    ) {
      save = suggested;
    }
  }
  if (save !== undefined) {
    writeMapFile(save, columns);
    io.info(`Mapping saved to ${save}; next time pass --map-file ${save}.`);
  }
  return columns;
}

/** The flags that become the API's import options. */
export interface ApiOptionFlags {
  dedupeBy: string | undefined;
  caseInsensitive: boolean;
  listId: string | undefined;
  /** --no-update (with --dedupe-by): matched records are left as they are. */
  noUpdate?: boolean | undefined;
  /** --create-missing-options: select values that name no option create it. */
  createMissingOptions?: boolean | undefined;
}

/**
 * The API's import options: --dedupe-by (a property some column fills, or no row could
 * match a record) with --case-insensitive and --no-update, --list-id, and
 * --create-missing-options; undefined when none is given.
 */
export function apiOptionsFor(
  flags: ApiOptionFlags,
  defs: readonly Definition[],
  columns: readonly ColumnPlan[],
  type: string,
): ImportOptions | undefined {
  if (
    flags.dedupeBy === undefined &&
    flags.listId === undefined &&
    flags.createMissingOptions !== true
  ) {
    return undefined;
  }
  const apiOptions: ImportOptions = {};
  if (flags.dedupeBy !== undefined) {
    const def = findDefinition(defs, flags.dedupeBy, type);
    if (!columns.some((c) => c.def?.slug === def.slug)) {
      throw new UsageError(
        `--dedupe-by ${def.slug}: no column of the file fills ${def.slug}, so no row could match a record.`,
        `Map a column to it with --map "Header=${def.slug}".`,
      );
    }
    apiOptions.dedupe_by = def.slug;
    if (flags.caseInsensitive) apiOptions.caseInsensitive = true;
    if (flags.noUpdate === true) apiOptions.update_existing = false;
  }
  if (flags.listId !== undefined) apiOptions.list_id = flags.listId;
  if (flags.createMissingOptions === true) apiOptions.create_missing_options = true;
  return apiOptions;
}
