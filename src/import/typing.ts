// Typing CSV cells by their property definitions: the glue between a cell and the shared
// `coerceValue` of src/values/ (so `--set` and import type values the same way), plus what
// a spreadsheet export needs beyond it:
// - text cells are taken as they are (a name "null" stays "null"), but for the quote that
//   `ws records export` puts before a cell a spreadsheet would run as a formula;
// - numbers as spreadsheets write them, in the column's locale (numbers.ts);
// - dates in the forms of dates.ts, in the column's order of day and month;
// - booleans also in the words spreadsheets write in other languages (WAHR, VRAI, …);
// - lists split on --array-sep (default ";");
// - each failure has a code for the failed-rows file;
// - with --create-missing-options, a select value that names no option is sent as written
//   (the API creates the option) and noted in NewOptions, except on locked definitions.
import type { PropertyDefinition } from '../api/props.ts';
import { coerceValue, kindOf } from '../values/coerce.ts';
import { unneutralise } from '../values/write-form.ts';
import { CellError } from './cell-error.ts';
import { type DateOrder, type DateReading, toDate } from './dates.ts';
import { type NumberReading, readNumber } from './numbers.ts';

export { CellError, type DateOrder, toDate };
export type Definition = PropertyDefinition;

export interface TypingOptions {
  /** Separator of multiselect, multi_str and multiref cells (default ";"). */
  arraySep: string;
  /** How to read NN/NN/YYYY dates; undefined: only when unambiguous. */
  dateOrder: DateOrder | undefined;
  /** How the column's dates are read beyond their order (Excel serials, month names). */
  dates?: DateReading | undefined;
  /** How the column's numbers are read (decimal mark, percents); default: one reading only. */
  numbers?: NumberReading | undefined;
  /** --create-missing-options: where select values that name no option are noted. */
  newOptions?: NewOptions | undefined;
}

/**
 * The options an import creates (or, in a dry run, would create): select values that name
 * no option of their property, each once (ignoring case, as the API matches them), in the
 * order they were first met.
 */
export class NewOptions {
  private readonly seen = new Map<string, { property: string; value: string }>();

  add(def: Definition, value: string): void {
    const key = `${def.slug}\n${value.toLowerCase()}`;
    if (!this.seen.has(key)) this.seen.set(key, { property: def.slug, value });
  }

  list(): { property: string; value: string }[] {
    return [...this.seen.values()];
  }
}

/** True and false as spreadsheets write them in other languages (Excel's words, yes and no). */
const WORDS: Record<string, boolean> = {
  wahr: true,
  falsch: false,
  ja: true,
  nein: false,
  vrai: true,
  faux: false,
  oui: true,
  non: false,
  verdadero: true,
  falso: false,
  sí: true,
  si: true,
  vero: true,
  sì: true,
  waar: true,
  onwaar: false,
  nee: false,
  verdadeiro: true,
  sim: true,
  não: false,
  sant: true,
  falskt: false,
  nej: false,
  sand: true,
  falsk: false,
  sann: true,
  usann: false,
  tosi: true,
  epätosi: false,
  kyllä: true,
  ei: false,
  prawda: true,
  fałsz: false,
  tak: true,
  nie: false,
  // Airtable's checkboxes.
  checked: true,
  unchecked: false,
};

const DEFAULT_NUMBERS: NumberReading = { decimal: undefined, percent: undefined };

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
  if (kind === 'date') return toDate(text, opts.dateOrder, opts.dates);
  if (kind === 'number' && text !== 'null')
    return readNumber(text, opts.numbers ?? DEFAULT_NUMBERS, def.slug);
  const r = coerceValue(def, text, { separator: opts.arraySep });
  if (r.ok) return r.value;
  if (kind === 'boolean') {
    const word = WORDS[text.trim().toLowerCase()];
    if (word !== undefined) return word;
  }
  if (opts.newOptions && def.locked !== true) {
    if (kind === 'select') return newOption(def, text.trim(), opts.newOptions);
    if (kind === 'multiselect') return newOptions(def, text, opts);
  }
  throw new CellError(CODES[kind] ?? 'invalid_value', r.error.replace(/\.$/, ''));
}

/** A select value that names no option: sent as written, for the API to create. */
function newOption(def: Definition, value: string, seen: NewOptions): string {
  seen.add(def, value);
  return value;
}

/** A multiselect cell: each part an option's slug, or a value the API is to create. */
function newOptions(def: Definition, text: string, opts: TypingOptions): string[] {
  const out: string[] = [];
  for (const part of text.split(opts.arraySep)) {
    const value = part.trim();
    if (value === '') continue;
    const r = coerceValue(def, value, { separator: opts.arraySep });
    const one =
      r.ok && Array.isArray(r.value)
        ? (r.value[0] as string)
        : newOption(def, value, opts.newOptions!);
    if (!out.some((o) => o.toLowerCase() === one.toLowerCase())) out.push(one);
  }
  return out;
}
