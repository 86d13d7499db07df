// The output layer: commands hand over rows and column definitions; this module
// decides how they look in each format. Data only ever goes to stdout.
import { UsageError } from '../errors.ts';
import type { IOStreams } from '../io/streams.ts';
import { own } from '../util/guards.ts';

export const FORMATS = ['table', 'tsv', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export interface Column<T = Record<string, unknown>> {
  /** Field name, as used by --fields and as the JSON key. */
  key: string;
  /**
   * A table's header; defaults to the key. A table shows it in capitals, `_` as spaces. CSV
   * headers are the keys, the names --fields takes.
   */
  header?: string;
  /** How to read the value from a row (also the JSON value); defaults to row[key] (dot paths allowed). */
  get?: (row: T) => unknown;
  /** How a table shows the value (default: the value as text). */
  text?: (value: unknown, row: T) => string;
  /** Shown in the table when no --fields is given; defaults to true. */
  default?: boolean;
  /** Right-align in tables (numbers). */
  align?: 'left' | 'right';
  /**
   * An identifier (a UUID): a table shows it whole or leaves it out, never cut, and without
   * --fields after the columns people read (the name first). Other formats keep the order.
   */
  id?: boolean;
}

export interface OutputOptions {
  format: Format;
  /** Fields chosen with --fields, already validated. */
  fields?: string[] | undefined;
}

export function parseFormat(value: string): Format {
  if ((FORMATS as readonly string[]).includes(value)) return value as Format;
  throw new UsageError(
    `Unknown format "${value}".`,
    `Use one of: ${FORMATS.join(', ')} (--json is short for --format json).`,
  );
}

/** --json wins, then --format, then table on a terminal and tsv when piped. */
export function resolveFormat(flags: { json?: boolean; format?: string }, io: IOStreams): Format {
  if (flags.json) return 'json';
  if (flags.format) return parseFormat(flags.format);
  return io.isStdoutTTY ? 'table' : 'tsv';
}

export function parseFields(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const fields = value
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  if (fields.length === 0) throw new UsageError('--fields needs at least one field name.');
  return fields;
}

/**
 * The columns to show: those named by --fields (in that order), or the default ones.
 * An unknown field is a usage error that lists the available ones.
 */
export function chooseColumns<T>(columns: Column<T>[], fields: string[] | undefined): Column<T>[] {
  if (!fields) return columns.filter((c) => c.default !== false);
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const unknown = fields.filter((f) => !byKey.has(f));
  if (unknown.length > 0) {
    const list = unknown.map((f) => `"${f}"`).join(', ');
    throw new UsageError(
      `Unknown field${unknown.length > 1 ? 's' : ''} ${list}.`,
      `Available fields: ${columns.map((c) => c.key).join(', ')}.`,
    );
  }
  return fields.map((f) => byKey.get(f)!);
}

export function readPath(row: unknown, path: string): unknown {
  let cur: unknown = row;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = own(cur, part);
  }
  return cur;
}

export function cellValue<T>(row: T, col: Column<T>): unknown {
  return col.get ? col.get(row) : readPath(row, col.key);
}

/** A value as text for a cell: scalars as themselves, arrays joined, objects as JSON. */
export function cellText(value: unknown, arraySep: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    return value.map((v) => cellText(v, arraySep)).join(arraySep);
  }
  return JSON.stringify(value);
}

export function tsvEscape(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV field, quoted when needed; with `neutralise`, text a spreadsheet would run as a formula gets a leading quote. */
export function csvEscape(text: string, neutralise = false): string {
  let t = text;
  if (neutralise && FORMULA_START.test(t) && !/^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t))
    t = `'${t}`;
  if (/[",\r\n]/.test(t) || /^\s|\s$/.test(t)) return `"${t.replace(/"/g, '""')}"`;
  return t;
}
