// Typing CSV cells by their property definitions: the glue between a cell and the shared
// `coerceValue` of src/values/ (so `--set` and import type values the same way), plus what
// a spreadsheet export needs beyond it:
// - text cells are taken as they are (a name "null" stays "null"), but for the quote that
//   `ws records export` puts before a cell a spreadsheet would run as a formula;
// - numbers may group thousands with "," or a space (1,234.5);
// - dates in the forms of `toDate` below, with --date-format for NN/NN/YYYY;
// - lists split on --array-sep (default ";");
// - each failure has a code for the failed-rows file.
import type { PropertyDefinition } from '../api/props.ts';
import { coerceValue, kindOf } from '../values/coerce.ts';
import { unneutralise } from '../values/write-form.ts';

export type Definition = PropertyDefinition;

export type DateOrder = 'dmy' | 'mdy';

export interface TypingOptions {
  /** Separator of multiselect, multi_str and multiref cells (default ";"). */
  arraySep: string;
  /** How to read NN/NN/YYYY dates; undefined: only when unambiguous. */
  dateOrder: DateOrder | undefined;
}

/** A cell that cannot be typed: its row fails with this code and message. */
export class CellError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const GROUPED = /^[+-]?\d{1,3}([, ]\d{3})+(\.\d+)?$/;

const CODES: Record<string, string> = {
  number: 'invalid_number',
  boolean: 'invalid_boolean',
  date: 'invalid_date',
  select: 'unknown_option',
  multiselect: 'unknown_option',
  json: 'invalid_json',
  reference: 'invalid_reference',
  references: 'invalid_reference',
};

/**
 * The value to send for a non-empty cell of the property `def` (the caller handles empty
 * cells). Throws CellError when the text is not a value of that type.
 */
export function typeCell(def: Definition, given: string, opts: TypingOptions): unknown {
  // A cell `ws records export` guarded against spreadsheet formulas ('=…, '+…) reads as
  // the text it was exported from.
  const text = given.charCodeAt(0) === 39 ? unneutralise(given) : given;
  const kind = kindOf(def.type);
  if (kind === 'text') return text;
  if (kind === 'date') return toDate(text, opts.dateOrder);
  const cell = kind === 'number' && GROUPED.test(text.trim()) ? text.replace(/[, ]/g, '') : text;
  const r = coerceValue(def, cell, { separator: opts.arraySep });
  if (r.ok) return r.value;
  throw new CellError(CODES[kind] ?? 'invalid_value', r.error.replace(/\.$/, ''));
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/**
 * Dates, normalised to ISO-8601:
 * - `YYYY-MM-DD`, `YYYY/MM/DD`, `YYYY.MM.DD` → `YYYY-MM-DD`
 * - `DD.MM.YYYY` (day first, as written where dots are used) → `YYYY-MM-DD`
 * - `NN/NN/YYYY` and `NN-NN-YYYY`: day-first or month-first when only one reading is a
 *   real date (13/04/2024, 04/13/2024); when both are (03/04/2024), rejected unless
 *   `--date-format dmy|mdy` says which
 * - a date with a time (`T` or a space, `HH:MM[:SS[.fff]]`), with `Z` or `±HH:MM`: the
 *   instant in UTC (`…Z`); without a zone: `YYYY-MM-DDTHH:MM:SS` as written
 * Two-digit years and anything else are rejected.
 */
export function toDate(text: string, order: DateOrder | undefined): string {
  const t = text.trim();
  const m =
    /^(\d{1,4})([-/.])(\d{1,2})\2(\d{1,4})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(
      t,
    );
  const bad = (why: string) => new CellError('invalid_date', `"${short(text)}" ${why}`);
  if (!m) throw bad('is not a date (write it as YYYY-MM-DD)');
  const [, a, sep, b, c, hh, mi, ss, frac, zone] = m as unknown as string[];
  let y: number;
  let mo: number;
  let d: number;
  if (a!.length === 4) {
    y = Number(a);
    mo = Number(b);
    d = Number(c);
    if (c!.length > 2) throw bad('is not a date (write it as YYYY-MM-DD)');
  } else {
    if (c!.length !== 4) throw bad('has no four-digit year (write it as YYYY-MM-DD)');
    y = Number(c);
    const first = Number(a);
    const second = Number(b);
    if (sep === '.') {
      d = first;
      mo = second;
    } else {
      const dmy = validDay(y, second, first);
      const mdy = validDay(y, first, second);
      const use = order ?? (dmy && !mdy ? 'dmy' : mdy && !dmy ? 'mdy' : undefined);
      if (use === undefined && dmy && mdy && first !== second) {
        throw new CellError(
          'ambiguous_date',
          `"${short(text)}" could be day-first or month-first: pass --date-format dmy or --date-format mdy`,
        );
      }
      if (use === 'mdy') {
        mo = first;
        d = second;
      } else {
        d = first;
        mo = second;
      }
    }
  }
  if (!validDay(y, mo, d)) throw bad('is not a real date');
  const date = `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
  if (hh === undefined) return date;
  const h = Number(hh);
  const min = Number(mi);
  const s = ss === undefined ? 0 : Number(ss);
  if (h > 23 || min > 59 || s > 59) throw bad('has a time that does not exist');
  const time = `${pad(h)}:${pad(min)}:${pad(s)}${frac ?? ''}`;
  if (zone === undefined) return `${date}T${time}`;
  const instant = new Date(
    `${date}T${time}${zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`,
  );
  if (Number.isNaN(instant.getTime())) throw bad('has a time zone that cannot be read');
  return instant.toISOString();
}

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}
