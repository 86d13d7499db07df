// Planning the columns of an import before anything is sent: each header mapped to the
// property it fills (mapping.ts), --lookup columns to the reference property they fill,
// unknown columns left out, asked about on a terminal or refused, the required properties
// checked; how each column's cells are read (columnReadings: the locale given, or the one
// the first rows show); the mapping saved for the next run when asked; then the API's
// import options, whose --dedupe-by property a column must fill.
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { ImportOptions } from '../api/imports.ts';
import type { RecordType } from '../api/object-types.ts';
import { UsageError } from '../errors.ts';
import type { IOStreams } from '../io/streams.ts';
import type { Prompter } from '../prompt/prompter.ts';
import { findDefinition } from '../schema/definitions.ts';
import { kindOf } from '../values/coerce.ts';
import type { DateOrder } from './dates.ts';
import { type Decision, fileEvidence, parseLocale } from './locale.ts';
import { parseLookupFlag, planLookup } from './lookup.ts';
import {
  askUnknown,
  type ColumnPlan,
  type ColumnSettings,
  checkDuplicates,
  type FileSettings,
  headerIndex,
  type MapFile,
  resolveMapping,
  unknownColumnsError,
  writeMapFile,
} from './mapping.ts';
import type { DecimalMark, PercentMode } from './numbers.ts';
import type { CsvEvent } from './reader.ts';
import type { Definition, NewOptions, TypingOptions } from './typing.ts';

/** The flags that decide the columns (`ws import`'s options have them). */
export interface ColumnFlags {
  /** The object type, for messages. */
  type: string;
  map: [string, string | null][];
  mapFile: string | undefined;
  saveMap: string | undefined;
  skip: string[];
  ignoreUnknown: boolean;
  /** --lookup "COLUMN=TYPE.SLUG" (or "REF.SLUG"), as given. */
  lookup?: string[] | undefined;
}

export interface ColumnContext {
  io: IOStreams;
  prompter: Prompter;
  /** Where a mapping is suggested when the input is stdin. */
  cwd: string;
  /** The input file (absolute), or undefined for stdin. */
  path: string | undefined;
  /** The --map-file, read. */
  mapFile?: MapFile | undefined;
  /** The definitions of a record type a lookup references. */
  targetDefs?: ((type: RecordType) => Promise<readonly Definition[]>) | undefined;
}

/**
 * The property each column fills (or none), or a usage error that says what to change;
 * and where to save the mapping (--save-map, or the answer to the offer made after
 * questions), once the columns' readings are known.
 */
export async function planColumns(
  flags: ColumnFlags,
  ctx: ColumnContext,
  headers: string[],
  defs: Definition[],
): Promise<{ columns: ColumnPlan[]; save: string | undefined }> {
  const { io } = ctx;
  const resolved = resolveMapping({
    headers,
    defs,
    map: flags.map,
    mapFile: ctx.mapFile,
    skip: flags.skip,
  });
  const { columns } = resolved;
  // --lookup (and a mapping file's "lookup"): the reference property each such column fills.
  const lookups: { index: number; flag: string; path: string }[] = [];
  for (const value of flags.lookup ?? []) {
    const { column, path } = parseLookupFlag(value);
    const index = headerIndex(headers, column);
    if (index < 0) {
      throw new UsageError(
        `--lookup "${value}": the file has no column "${column}".`,
        `Its columns: ${headers.join(', ')}.`,
      );
    }
    lookups.push({ index, flag: value, path });
  }
  for (const c of columns) {
    const path = c.settings?.lookup;
    if (path !== undefined && !lookups.some((l) => l.index === c.index)) {
      lookups.push({ index: c.index, flag: `${c.header}=${path}`, path });
    }
  }
  for (const l of lookups) {
    const c = columns[l.index]!;
    const { def, target } = await planLookup(
      l.flag,
      l.path,
      c.def,
      defs,
      ctx.targetDefs ?? (async () => []),
    );
    c.def = def;
    c.lookup = target;
    if (c.how === 'skip' || c.how === 'id') c.how = 'map';
    c.settings = { ...c.settings, lookup: `${target.type}.${target.slug}` };
  }
  const unknown = resolved.unknown.filter((u) => !lookups.some((l) => l.index === u.index));
  let asked = false;
  if (unknown.length > 0) {
    if (flags.ignoreUnknown) {
      io.warn(
        `Left out ${unknown.length === 1 ? 'a column that matches' : `${unknown.length} columns that match`} no property: ${unknown.map((u) => `"${u.header}"`).join(', ')}.`,
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
  return { columns, save };
}

/** Write the mapping, with how each column is read, and say so. */
export function saveMapping(
  io: IOStreams,
  save: string,
  columns: readonly ColumnPlan[],
  settings: FileSettings,
): void {
  writeMapFile(save, columns, settings);
  io.info(`Mapping saved to ${save}; next time pass --map-file ${save}.`);
}

/** The flags that say how cells are read (a column's own settings in a mapping file win). */
export interface ReadingFlags {
  locale?: string | undefined;
  percent?: PercentMode | undefined;
  dateOrder: DateOrder | undefined;
  excelDates?: boolean | undefined;
  arraySep: string;
}

/** How the number and date columns are read, and what was decided from the file. */
export interface Readings {
  /** Each number and date column's typing (by column index). */
  typing: Map<number, TypingOptions>;
  /** The decimal mark and date order the first rows showed (for columns that were not told). */
  evidence: { decimal: Decision<DecimalMark>; order: Decision<DateOrder> };
  /** The settings a saved mapping records for each column. */
  saved: Map<number, ColumnSettings>;
}

/**
 * How each number and date column is read: its own settings (a mapping file's column),
 * else the flags, else the mapping file's, else what the first rows show (`sample`).
 */
export function columnReadings(
  flags: ReadingFlags,
  file: FileSettings,
  columns: readonly ColumnPlan[],
  sample: readonly CsvEvent[],
  newOptions: NewOptions | undefined,
): Readings {
  const settingsOf = (c: ColumnPlan): ColumnSettings => {
    const given: ColumnSettings = {
      locale: flags.locale ?? file.locale,
      percent: flags.percent ?? file.percent,
      date_format: flags.dateOrder ?? file.date_format,
      excel_dates: flags.excelDates || file.excel_dates || undefined,
    };
    const out: ColumnSettings = { ...given };
    for (const [k, v] of Object.entries(c.settings ?? {}))
      if (v !== undefined) (out as Record<string, unknown>)[k] = v;
    return out;
  };
  const active = columns.filter((c) => c.def !== undefined && c.lookup === undefined);
  const numbers: number[] = [];
  const dates: number[] = [];
  for (const c of active) {
    const s = settingsOf(c);
    const kind = kindOf(c.def!.type);
    if (kind === 'number' && s.decimal_mark === undefined && s.locale === undefined)
      numbers.push(c.index);
    if (kind === 'date' && s.date_format === undefined && s.locale === undefined)
      dates.push(c.index);
  }
  const rows = sample.flatMap((e) => (e.kind === 'row' ? [e] : []));
  const evidence = fileEvidence(rows, { numbers, dates });
  const typing = new Map<number, TypingOptions>();
  const saved = new Map<number, ColumnSettings>();
  for (const c of active) {
    const kind = kindOf(c.def!.type);
    if (kind !== 'number' && kind !== 'date') continue;
    const s = settingsOf(c);
    const locale = s.locale === undefined ? undefined : parseLocale(s.locale);
    const own = c.settings ?? {};
    const from = (key: keyof ColumnSettings, flag: string) =>
      own[key] !== undefined ? 'the mapping file' : flag;
    const keep: ColumnSettings = {};
    if (kind === 'number') {
      const decimal = s.decimal_mark ?? locale?.decimal ?? evidence.decimal.value;
      const source =
        s.decimal_mark !== undefined
          ? from('decimal_mark', 'the mapping file')
          : locale
            ? `${from('locale', '--locale')} ${locale.tag}`
            : decimal !== undefined
              ? `the file: ${evidence.decimal.reason}`
              : undefined;
      typing.set(c.index, {
        arraySep: flags.arraySep,
        dateOrder: undefined,
        numbers: { decimal, source, percent: s.percent },
        newOptions,
      });
      if (locale) keep.locale = locale.tag;
      else if (decimal !== undefined) keep.decimal_mark = decimal;
      if (s.percent !== undefined) keep.percent = s.percent;
    } else {
      const order = s.date_format ?? locale?.order ?? evidence.order.value;
      typing.set(c.index, {
        arraySep: flags.arraySep,
        dateOrder: order,
        dates: { order, excelSerial: s.excel_dates, months: locale?.months },
        newOptions,
      });
      if (order !== undefined) keep.date_format = order;
      if (s.excel_dates) keep.excel_dates = true;
      if (locale && s.date_format === undefined) keep.locale = locale.tag;
    }
    if (Object.keys(keep).length > 0) saved.set(c.index, keep);
  }
  return { typing, evidence, saved };
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
