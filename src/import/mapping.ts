// Which property each column of the file fills.
//
// A header matches a property by slug, then by name, ignoring case, spaces, `_` and `-`
// ("Job Title" finds `job_title`). `--map "Header=slug"` and `--map-file` override that,
// `--skip Header` leaves a column out. Columns that match nothing stop the import before
// anything is sent, with the closest property names; on a terminal they are asked about
// one by one, and the answers can be saved as a mapping file for the next run.
import { readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import type { Prompter } from '../prompt/prompter.ts';
import { closest as closestNames } from '../util/suggest.ts';
import type { Definition } from './typing.ts';

export interface ColumnPlan {
  index: number;
  header: string;
  /** Undefined: the column is skipped. */
  def: Definition | undefined;
  /** How the column got its property. */
  how: 'slug' | 'name' | 'map' | 'map-file' | 'prompt' | 'skip' | 'ws' | 'id';
}

export interface Unknown {
  index: number;
  header: string;
  suggestions: Definition[];
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

/**
 * A mapping file: a JSON object `{ "Header": "slug" }` (null skips the column), or lines
 * of `Header=slug` (`#` starts a comment).
 */
export function readMapFile(path: string): Map<string, string | null> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(
      `Cannot read the mapping file ${path} (${(err as NodeJS.ErrnoException).code}).`,
    );
  }
  const out = new Map<string, string | null>();
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
    const columns =
      parsed !== null && typeof parsed === 'object' && 'columns' in parsed
        ? (parsed as { columns: unknown }).columns
        : parsed;
    for (const [k, v] of Object.entries(columns as Record<string, unknown>)) {
      if (v !== null && typeof v !== 'string') {
        throw new UsageError(
          `In the mapping file ${path}, "${k}" must map to a property slug (a string) or null.`,
        );
      }
      out.set(k, v === '' ? null : v);
    }
    return out;
  }
  for (const line of trimmed.split(/\r?\n/)) {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) continue;
    const [header, slug] = parseMapFlag(l);
    out.set(header, slug);
  }
  return out;
}

/** Write a mapping file (JSON: header → slug, null for skipped columns). */
export function writeMapFile(path: string, columns: readonly ColumnPlan[]): void {
  const obj: Record<string, string | null> = {};
  for (const c of columns)
    if (c.how !== 'ws' && c.how !== 'id') obj[c.header] = c.def?.slug ?? null;
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
  mapFile: ReadonlyMap<string, string | null> | undefined;
  /** --skip. */
  skip: readonly string[];
}

function headerIndex(headers: readonly string[], name: string): number {
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
  const forced = new Map<number, { def: Definition | undefined; how: ColumnPlan['how'] }>();
  if (input.mapFile) {
    for (const [header, slug] of input.mapFile) {
      const i = headerIndex(headers, header);
      if (i < 0) continue; // a mapping file may serve several files
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
    if (f) {
      columns.push({ index, header, ...f });
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
    unknown.push({ index, header, suggestions: closest(defs, header) });
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
    const near = u.suggestions.map((d) => `${d.slug}${d.name ? ` (${d.name})` : ''}`);
    return `  "${u.header}"${near.length > 0 ? `: did you mean ${near.join(', ')}?` : ''}`;
  });
  const first = unknown[0]!;
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
