// The settings of an import that the flags or a mapping file give for the whole file (its
// encoding, delimiter, header line, locale), what a saved mapping records of them, how
// dedupe keys are checked in the file, and the one value all columns share for the summary.
import { UsageError } from '../errors.ts';
import { parseDelimiterFlag } from './delimiter.ts';
import type { DedupeCheck } from './engine.ts';
import type { ColumnPlan, MapFile } from './mapping.ts';
import type { TypingOptions } from './typing.ts';

/** The flags these settings come from (`ws import`'s options have them). */
export interface SettingsFlags {
  delimiter: string | undefined;
  encoding: string | undefined;
  headerLine?: number | undefined;
  locale?: string | undefined;
  caseInsensitive: boolean;
  onDuplicate?: DedupeCheck['onDuplicate'] | undefined;
  allowMissingKey?: boolean | undefined;
  percent?: string | undefined;
  excelDates?: boolean | undefined;
}

/**
 * How cells are read as the flags and the mapping file say (not what the file showed),
 * for the chunks' idempotency keys: empty when nothing is given.
 */
export function givenReadings(
  opts: SettingsFlags,
  file: ReturnType<typeof fileSettings>,
  columns: readonly ColumnPlan[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const given = {
    locale: opts.locale ?? file.locale,
    percent: opts.percent ?? file.percent,
    excel_dates: opts.excelDates || file.excel_dates || undefined,
  };
  for (const [k, v] of Object.entries(given)) if (v !== undefined) out[k] = v;
  const own = columns.flatMap((c) => {
    const { lookup: _, ...s } = c.settings ?? {};
    return Object.keys(s).length > 0 ? [[c.index, s]] : [];
  });
  if (own.length > 0) out.columns = own;
  return out;
}

/** One value all the columns share (null when none has one, or they differ). */
export function decided<T>(
  typing: ReadonlyMap<number, TypingOptions>,
  get: (t: TypingOptions) => T | undefined,
): T | null {
  const values = new Set<T>();
  for (const t of typing.values()) {
    const v = get(t);
    if (v !== undefined) values.add(v);
  }
  return values.size === 1 ? [...values][0]! : null;
}

/** How the file is read: the flags, else the mapping file's settings. */
export function fileSettings(opts: SettingsFlags, mapFile: MapFile | undefined) {
  const s = mapFile?.settings ?? {};
  let delimiter = opts.delimiter;
  if (delimiter === undefined && s.delimiter !== undefined) {
    delimiter = parseDelimiterFlag(s.delimiter);
    if (delimiter === undefined) {
      throw new UsageError(
        `The mapping file's "delimiter" takes one character (or tab, comma, semicolon, pipe), not "${s.delimiter}".`,
      );
    }
  }
  return {
    ...s,
    delimiter,
    encoding: opts.encoding ?? s.encoding,
    header_line: opts.headerLine ?? s.header_line,
  };
}

/** The settings of the whole file a saved mapping records: those given, and the header line found. */
export function savedFileSettings(
  opts: SettingsFlags,
  file: ReturnType<typeof fileSettings>,
  delimiter: string,
  headerLine: number,
) {
  return {
    ...(headerLine > 1 ? { header_line: headerLine } : {}),
    ...(file.encoding !== undefined ? { encoding: file.encoding } : {}),
    ...(file.delimiter !== undefined ? { delimiter: delimiter === '\t' ? 'tab' : delimiter } : {}),
    ...(opts.locale === undefined && file.locale !== undefined ? { locale: file.locale } : {}),
  };
}

/** With --dedupe-by: how the key column is checked in the file. */
export function dedupeCheck(
  opts: SettingsFlags,
  columns: readonly ColumnPlan[],
  slug: string | undefined,
): DedupeCheck | undefined {
  if (slug === undefined) return undefined;
  const column = columns.find((c) => c.def?.slug === slug)!;
  return {
    index: column.index,
    slug,
    caseInsensitive: opts.caseInsensitive,
    onDuplicate: opts.onDuplicate ?? 'fail',
    allowMissing: opts.allowMissingKey === true,
  };
}
