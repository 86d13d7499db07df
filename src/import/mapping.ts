// Which property each column of the file fills.
//
// A header matches a property by slug, then by name, ignoring case, spaces, `_` and `-`
// ("Job Title" finds `job_title`). `--map "Header=slug"` and `--map-file` override that,
// `--skip Header` leaves a column out. Columns that match nothing stop the import before
// anything is sent, with the closest property names; on a terminal they are asked about
// one by one, and the answers can be saved as a mapping file for the next run, with how
// each column is read (its locale, percents, dates, look-up), so a monthly import of the
// same export is one command.
import { readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import type { Prompter } from '../prompt/prompter.ts';
import { closest as closestNames } from '../util/suggest.ts';
import type { LookupTarget } from './lookup.ts';
import type { Definition } from './typing.ts';

/** How a column's cells are read, beyond its property (flags, or a mapping file's column). */
export interface ColumnSettings {
  /** A BCP 47 tag: the decimal mark and the order of day and month. */
  locale?: string | undefined;
  /** The decimal mark itself (what a saved mapping records when the file showed it). */
  decimal_mark?: '.' | ',' | undefined;
  /** What a percent means: 12% is 12 (points) or 0.12 (fraction). */
  percent?: 'points' | 'fraction' | undefined;
  /** The order of NN/NN/YYYY dates. */
  date_format?: 'dmy' | 'mdy' | undefined;
  /** Numbers in a date column are Excel serial dates. */
  excel_dates?: boolean | undefined;
  /** `TYPE.SLUG`: the cells name records of TYPE by SLUG (see lookup.ts). */
  lookup?: string | undefined;
}

/** The settings a mapping file may give for the whole file (flags given win over them). */
export interface FileSettings extends Omit<ColumnSettings, 'lookup' | 'decimal_mark'> {
  header_line?: number | undefined;
  encoding?: string | undefined;
  delimiter?: string | undefined;
}

export interface ColumnPlan {
  index: number;
  header: string;
  /** Undefined: the column is skipped. */
  def: Definition | undefined;
  /** How the column got its property. */
  how: 'slug' | 'name' | 'map' | 'map-file' | 'prompt' | 'skip' | 'ws' | 'id';
  /** How its cells are read, as a mapping file says for this column. */
  settings?: ColumnSettings | undefined;
  /** A --lookup column: the records its cells name. */
  lookup?: LookupTarget | undefined;
}

/** A mapping file: each header's property (null: skipped) and settings, and the file's. */
export interface MapFile {
  columns: Map<string, { slug: string | null; settings: ColumnSettings | undefined }>;
  settings: FileSettings;
}

export interface Unknown {
  index: number;
  header: string;
  suggestions: Definition[];
  /** A header `ref.slug` of a reference property (as an export names it): --lookup reads it. */
  lookup?: boolean;
}

/** Columns that `ws import` itself adds to a failed-rows file; skipped when read back. */
export const FAILED_COLUMNS = ['ws_line', 'ws_error_code', 'ws_error_message'] as const;

export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, '');
}

/** `Header=slug` (the last `=` splits; an empty slug skips the column). */
export function parseMapFlag(value: string): [string, string | null] {
  const at = value.lastIndexOf('=');
  if (at <= 0) {
    throw new UsageError(
      `--map takes "Header=slug", not "${value}".`,
      'Example: --map "E-mail address=email" (an empty slug skips the column: --map "Notes=").',
    );
  }
  const slug = value.slice(at + 1).trim();
  return [value.slice(0, at).trim(), slug === '' || slug === '-' ? null : slug];
}

const COLUMN_KEYS = [
  'property',
  'locale',
  'decimal_mark',
  'percent',
  'date_format',
  'excel_dates',
  'lookup',
];
const FILE_KEYS = [
  'columns',
  'header_line',
  'encoding',
  'delimiter',
  'locale',
  'percent',
  'date_format',
  'excel_dates',
];

/** Check the settings of a mapping file (a column's, or the file's): their names and values. */
function readSettings(
  obj: Record<string, unknown>,
  keys: readonly string[],
  where: string,
): ColumnSettings & FileSettings {
  const bad = (key: string, what: string) =>
    new UsageError(`${where}: "${key}" must be ${what}, not ${JSON.stringify(obj[key])}.`);
  for (const key of Object.keys(obj)) {
    if (!keys.includes(key)) {
      throw new UsageError(
        `${where}: unknown setting "${key}".`,
        `The settings are ${keys.filter((k) => k !== 'columns').join(', ')}.`,
      );
    }
  }
  const str = (key: string): string | undefined => {
    const v = obj[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || v === '') throw bad(key, 'a string');
    return v;
  };
  const oneOf = <T extends string>(key: string, values: readonly T[]): T | undefined => {
    const v = str(key);
    if (v !== undefined && !values.includes(v as T)) throw bad(key, values.join(' or '));
    return v as T | undefined;
  };
  const out: ColumnSettings & FileSettings = {
    locale: str('locale'),
    decimal_mark: oneOf('decimal_mark', ['.', ','] as const),
    percent: oneOf('percent', ['points', 'fraction'] as const),
    date_format: oneOf('date_format', ['dmy', 'mdy'] as const),
    lookup: str('lookup'),
    encoding: str('encoding'),
    delimiter: str('delimiter'),
  };
  if (obj.excel_dates !== undefined) {
    if (typeof obj.excel_dates !== 'boolean') throw bad('excel_dates', 'true or false');
    out.excel_dates = obj.excel_dates;
  }
  if (obj.header_line !== undefined) {
    const n = obj.header_line;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
      throw bad('header_line', 'a line number (1 or more)');
    out.header_line = n;
  }
  for (const k of Object.keys(out) as (keyof typeof out)[]) if (out[k] === undefined) delete out[k];
  return out;
}

/**
 * A mapping file: a JSON object `{ "Header": "slug" }` (null skips the column), or
 * `{ "columns": { ... }, "locale": ..., ... }` where a column may also be
 * `{ "property": "slug", "locale": ..., "lookup": ... }`; or lines of `Header=slug` (`#`
 * starts a comment).
 */
export function readMapFile(path: string): MapFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'ENOENT'
        ? 'it does not exist'
        : e.code === 'EISDIR'
          ? 'it is a directory'
          : e.code === 'EACCES' || e.code === 'EPERM'
            ? 'you are not allowed to read it'
            : e.message;
    throw new UsageError(
      `Cannot read the mapping file ${path}: ${why}.`,
      e.code === 'ENOENT'
        ? 'Check the path. A mapping file is written by --save-map FILE (or by answering the questions about unknown columns at a terminal).'
        : undefined,
    );
  }
  const out: MapFile = { columns: new Map(), settings: {} };
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (err) {
      throw new UsageError(
        `The mapping file ${path} is not valid JSON: ${(err as Error).message}.`,
      );
    }
    const whole = parsed as Record<string, unknown>;
    const nested = whole !== null && typeof whole === 'object' && 'columns' in whole;
    if (nested) out.settings = readSettings(whole, FILE_KEYS, `The mapping file ${path}`);
    const columns = (nested ? whole.columns : whole) as Record<string, unknown>;
    for (const [k, v] of Object.entries(columns ?? {})) {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const col = v as Record<string, unknown>;
        const slug = col.property;
        if (slug !== null && slug !== undefined && typeof slug !== 'string') {
          throw new UsageError(
            `In the mapping file ${path}, "${k}": "property" must be a property slug (a string) or null.`,
          );
        }
        const settings = readSettings(col, COLUMN_KEYS, `In the mapping file ${path}, "${k}"`);
        delete (settings as Record<string, unknown>).property;
        out.columns.set(k, {
          slug: slug === '' || slug === undefined ? null : (slug as string | null),
          settings: Object.keys(settings).length > 0 ? settings : undefined,
        });
        continue;
      }
      if (v !== null && typeof v !== 'string') {
        throw new UsageError(
          `In the mapping file ${path}, "${k}" must map to a property slug (a string), null, or an object with "property".`,
        );
      }
      out.columns.set(k, { slug: v === '' ? null : v, settings: undefined });
    }
    return out;
  }
  for (const line of trimmed.split(/\r?\n/)) {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) continue;
    const [header, slug] = parseMapFlag(l);
    out.columns.set(header, { slug, settings: undefined });
  }
  return out;
}

/**
 * Write a mapping file: header → slug (null for skipped columns), or an object with the
 * column's settings; the file's settings first, when there are any.
 */
export function writeMapFile(
  path: string,
  columns: readonly ColumnPlan[],
  settings: FileSettings = {},
): void {
  const cols: Record<string, unknown> = {};
  let nested = Object.keys(settings).length > 0;
  for (const c of columns) {
    if (c.how === 'ws' || c.how === 'id') continue;
    const slug = c.def?.slug ?? null;
    if (c.settings && Object.keys(c.settings).length > 0 && slug !== null) {
      cols[c.header] = { property: slug, ...c.settings };
      nested = true;
    } else cols[c.header] = slug;
  }
  const obj = nested ? { ...settings, columns: cols } : cols;
  writeFileSync(path, `${JSON.stringify(obj, null, 2)}\n`);
}

export function findProperty(defs: readonly Definition[], text: string): Definition | undefined {
  const exact = defs.find((d) => d.slug === text);
  if (exact) return exact;
  const n = normalise(text);
  return (
    defs.find((d) => normalise(d.slug) === n) ?? defs.find((d) => normalise(d.name ?? '') === n)
  );
}

/** Up to three properties whose slug or name is closest to `header`. */
export function closest(defs: readonly Definition[], header: string): Definition[] {
  const byLabel = new Map<string, Definition>();
  for (const d of defs) {
    byLabel.set(normalise(d.slug), d);
    if (d.name) byLabel.set(normalise(d.name), d);
  }
  const out: Definition[] = [];
  for (const label of closestNames(normalise(header), [...byLabel.keys()], 6)) {
    const d = byLabel.get(label)!;
    if (!out.includes(d)) out.push(d);
  }
  return out.slice(0, 3);
}

export interface MappingInput {
  headers: readonly string[];
  defs: readonly Definition[];
  /** --map, in order given. */
  map: ReadonlyArray<[string, string | null]>;
  /** --map-file. */
  mapFile: MapFile | undefined;
  /** --skip. */
  skip: readonly string[];
}

export function headerIndex(headers: readonly string[], name: string): number {
  const exact = headers.indexOf(name);
  if (exact >= 0) return exact;
  const n = normalise(name);
  return headers.findIndex((h) => normalise(h) === n);
}

function requireProperty(defs: readonly Definition[], slug: string, where: string): Definition {
  const def = findProperty(defs, slug);
  if (def) return def;
  const near = closest(defs, slug);
  throw new UsageError(
    `${where}: there is no property "${slug}".`,
    near.length > 0
      ? `Did you mean ${near.map((d) => d.slug).join(', ')}?`
      : `Properties: ${defs.map((d) => d.slug).join(', ')}.`,
  );
}

/** The plan of every column, and the columns that match no property. */
export function resolveMapping(input: MappingInput): { columns: ColumnPlan[]; unknown: Unknown[] } {
  const { headers, defs } = input;
  const forced = new Map<
    number,
    { def: Definition | undefined; how: ColumnPlan['how']; settings?: ColumnSettings | undefined }
  >();
  const settingsOf = new Map<number, ColumnSettings>();
  if (input.mapFile) {
    for (const [header, { slug, settings }] of input.mapFile.columns) {
      const i = headerIndex(headers, header);
      if (i < 0) continue; // a mapping file may serve several files
      if (settings) settingsOf.set(i, settings);
      // A look-up column's property is settled by its look-up (see lookup.ts).
      if (slug === null && settings?.lookup !== undefined) continue;
      forced.set(i, {
        def:
          slug === null
            ? undefined
            : requireProperty(defs, slug, `The mapping file maps "${header}"`),
        how: slug === null ? 'skip' : 'map-file',
      });
    }
  }
  for (const [header, slug] of input.map) {
    const i = headerIndex(headers, header);
    if (i < 0) {
      throw new UsageError(
        `--map "${header}=${slug ?? ''}": the file has no column "${header}".`,
        `Its columns: ${headers.join(', ')}.`,
      );
    }
    forced.set(i, {
      def: slug === null ? undefined : requireProperty(defs, slug, `--map "${header}=${slug}"`),
      how: slug === null ? 'skip' : 'map',
    });
  }
  for (const header of input.skip) {
    const i = headerIndex(headers, header);
    if (i < 0) {
      throw new UsageError(
        `--skip "${header}": the file has no column "${header}".`,
        `Its columns: ${headers.join(', ')}.`,
      );
    }
    forced.set(i, { def: undefined, how: 'skip' });
  }

  const columns: ColumnPlan[] = [];
  const unknown: Unknown[] = [];
  headers.forEach((header, index) => {
    const f = forced.get(index);
    const settings = settingsOf.get(index);
    if (f) {
      columns.push({ index, header, ...f, ...(settings ? { settings } : {}) });
      return;
    }
    if (settings?.lookup !== undefined) {
      // Its property comes with the look-up.
      columns.push({ index, header, def: undefined, how: 'map-file', settings });
      return;
    }
    if ((FAILED_COLUMNS as readonly string[]).includes(header)) {
      columns.push({ index, header, def: undefined, how: 'ws' });
      return;
    }
    if (header.trim() === '') {
      columns.push({ index, header, def: undefined, how: 'skip' });
      return;
    }
    const bySlug = defs.find((d) => normalise(d.slug) === normalise(header));
    if (bySlug) {
      columns.push({ index, header, def: bySlug, how: 'slug' });
      return;
    }
    const byName = defs.find((d) => normalise(d.name ?? '') === normalise(header));
    if (byName) {
      columns.push({ index, header, def: byName, how: 'name' });
      return;
    }
    if (header === 'id') {
      // The record ids of `ws records export`: an import creates records (or matches them
      // by --dedupe-by), so the column is left out and the export imports back as it is.
      columns.push({ index, header, def: undefined, how: 'id' });
      return;
    }
    columns.push({ index, header, def: undefined, how: 'skip' });
    const ref = /^([\w-]+)\.[\w-]+$/.exec(header)?.[1];
    const lookup =
      ref !== undefined && defs.some((d) => d.slug === ref && /^(multi)?ref_/.test(d.type));
    unknown.push({
      index,
      header,
      suggestions: closest(defs, header),
      ...(lookup ? { lookup } : {}),
    });
  });
  return { columns, unknown };
}

/** Two columns filling one property is a usage error. */
export function checkDuplicates(columns: readonly ColumnPlan[]): void {
  const seen = new Map<string, ColumnPlan>();
  for (const c of columns) {
    if (!c.def) continue;
    const other = seen.get(c.def.slug);
    if (other) {
      throw new UsageError(
        `Columns "${other.header}" and "${c.header}" both fill the property ${c.def.slug}.`,
        `Skip one (--skip "${c.header}") or map it elsewhere (--map "${c.header}=slug").`,
      );
    }
    seen.set(c.def.slug, c);
  }
}

/** The usage error for columns that match no property. */
export function unknownColumnsError(unknown: readonly Unknown[], canAsk: boolean): UsageError {
  const lines = unknown.map((u) => {
    if (u.lookup)
      return `  "${u.header}": the records it names by ${u.header.split('.')[1]}; --lookup "${u.header}" finds their ids`;
    const near = u.suggestions.map((d) => `${d.slug}${d.name ? ` (${d.name})` : ''}`);
    return `  "${u.header}"${near.length > 0 ? `: did you mean ${near.join(', ')}?` : ''}`;
  });
  const first = unknown.find((u) => !u.lookup) ?? unknown[0]!;
  if (first.lookup) {
    return new UsageError(
      `${unknown.length === 1 ? 'A column matches' : `${unknown.length} columns match`} no property; nothing was sent:\n${lines.join('\n')}`,
      `Pass --lookup "${first.header}" to fill ${first.header.split('.')[0]} with the record it names, or --skip "${first.header}".`,
    );
  }
  const example = first.suggestions[0]?.slug ?? 'slug';
  return new UsageError(
    `${unknown.length === 1 ? 'A column matches' : `${unknown.length} columns match`} no property; nothing was sent:\n${lines.join('\n')}`,
    `Map them (--map "${first.header}=${example}", or --map-file FILE), skip them (--skip "${first.header}"), or pass --ignore-unknown to leave them out.${canAsk ? '' : ' On a terminal, ws asks about each one.'}`,
  );
}

/** Ask, column by column, which property it fills (or to skip it). */
export async function askUnknown(
  prompter: Prompter,
  unknown: readonly Unknown[],
  columns: ColumnPlan[],
  defs: readonly Definition[],
  taken: (slug: string) => boolean,
): Promise<void> {
  for (const u of unknown) {
    const label = (d: Definition) =>
      `${d.slug}${d.name && d.name !== d.slug ? ` (${d.name})` : ''}`;
    const near = u.suggestions.filter((d) => !taken(d.slug));
    const rest = defs
      .filter((d) => !near.includes(d) && !taken(d.slug))
      .sort((a, b) => a.slug.localeCompare(b.slug));
    const choice = await prompter.select<string | null>({
      message: `Column "${u.header}" matches no property. Which property does it fill?`,
      choices: [
        ...near.map((d) => ({ name: label(d), value: d.slug as string | null })),
        { name: 'Skip this column', value: null },
        ...rest.map((d) => ({ name: label(d), value: d.slug as string | null })),
      ],
    });
    const col = columns[u.index]!;
    col.def = choice === null ? undefined : defs.find((d) => d.slug === choice);
    col.how = col.def ? 'prompt' : 'skip';
  }
}
