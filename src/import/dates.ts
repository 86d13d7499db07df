// Dates as spreadsheets write them, normalised to ISO-8601, read only when their reading
// is certain:
// - `YYYY-MM-DD`, `YYYY/MM/DD`, `YYYY.MM.DD` → `YYYY-MM-DD`
// - `DD.MM.YYYY` (day first, as written where dots are used) → `YYYY-MM-DD`
// - `NN/NN/YYYY` and `NN-NN-YYYY`: day-first or month-first when only one reading is a
//   real date (13/04/2024, 04/13/2024), or when the order is known (--date-format, the
//   order of --locale, or the file's own evidence, see evidence.ts); when both are real
//   dates (03/04/2024) and nothing says which, refused naming both
// - a month by name, in English or in the languages spreadsheets are most used in
//   (`31 Mar 2024`, `Mar 31, 2024`, `31-Mar-2024`, `31. März 2024`, `31 déc. 2024`)
// - any of these with a time (`T` or a space, `HH:MM[:SS[.fff]]`, `AM`/`PM`), with `Z` or
//   `±HH:MM`: the instant in UTC (`…Z`); without a zone: `YYYY-MM-DDTHH:MM:SS` as written
// - with --excel-dates, a serial number of days as Excel counts them (`45382` is
//   2024-04-01); without it such a number is refused, with the date it would be
// Two-digit years and anything else are refused.
import { CellError } from './cell-error.ts';

/** How NN/NN/YYYY dates are read: day first or month first. */
export type DateOrder = 'dmy' | 'mdy';

export interface DateReading {
  /** The order of NN/NN/YYYY; undefined: only when one reading is a date. */
  order: DateOrder | undefined;
  /** What the order was learnt from, for messages. */
  source?: string | undefined;
  /** --excel-dates: a number is a serial date of Excel's. */
  excelSerial?: boolean | undefined;
  /** Month names of a --locale beyond the ones always known (lowercase, without dots). */
  months?: ReadonlyMap<string, number> | undefined;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** The languages whose month names are always known (none names two months alike). */
const MONTH_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'];
let knownMonths: Map<string, number> | undefined;

/** Month names (long and short, lowercase, without dots) of the languages of `locales`. */
export function monthNames(locales: readonly string[]): Map<string, number> {
  const names = new Map<string, number>();
  const clash = new Set<string>();
  const add = (name: string, month: number) => {
    const key = name.toLowerCase().replace(/\.$/, '');
    if (key === '' || /\d/.test(key)) return;
    const had = names.get(key);
    if (had !== undefined && had !== month) clash.add(key);
    names.set(key, month);
  };
  for (const locale of locales) {
    for (const style of ['long', 'short'] as const) {
      const f = new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' });
      for (let m = 1; m <= 12; m++) add(f.format(new Date(Date.UTC(2024, m - 1, 1))), m);
    }
  }
  if (locales.includes('en')) add('sept', 9);
  for (const k of clash) names.delete(k);
  return names;
}

function monthOf(name: string, reading: DateReading | undefined): number | undefined {
  knownMonths ??= monthNames(MONTH_LANGUAGES);
  const key = name.toLowerCase().replace(/\.$/, '');
  return knownMonths.get(key) ?? reading?.months?.get(key);
}

/** `HH:MM[:SS[.fff]] [AM|PM] [Z|±HH:MM]` after a date, or nothing. */
const TIME =
  /^(?:[T ]\s*(\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*([AaPp][Mm])?\s*(Z|[+-]\d{2}:?\d{2})?)?$/;
/** `YYYY-MM-DD`, `DD.MM.YYYY`, `NN/NN/YYYY` and the like, and what follows. */
const NUMERIC = /^(\d{1,4})([-/.])(\d{1,2})\2(\d{1,4})(.*)$/;
/** `31 Mar 2024`, `31-Mar-2024`, `31. März 2024`. */
const DAY_MONTH = /^(\d{1,2})\.?[\s-]+([\p{L}]{3,}\.?)[\s-]+(\d{1,4})(.*)$/u;
/** `Mar 31, 2024`, `March 31 2024`. */
const MONTH_DAY = /^([\p{L}]{3,}\.?)\s+(\d{1,2}),?\s+(\d{1,4})(.*)$/u;

/** The date a serial number of Excel's stands for (1900 date system). */
function excelDate(serial: number): { date: string; seconds: number } | undefined {
  // Excel counts 1900-02-29, which did not exist: serials from 61 on are a day ahead.
  if (!(serial >= 1 && serial < 2958466) || Math.floor(serial) === 60) return undefined;
  const days = Math.floor(serial);
  const base = Date.UTC(1899, 11, days < 60 ? 31 : 30);
  const d = new Date(base + days * 86_400_000);
  const seconds = Math.round((serial - days) * 86_400);
  return {
    date: `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    seconds,
  };
}

/**
 * The order a NN/NN/YYYY text shows: 'dmy' when only day-first reads as a date, 'mdy'
 * when only month-first does, undefined otherwise. For the file's evidence.
 */
export function dateOrderEvidence(text: string): DateOrder | undefined {
  const m = NUMERIC.exec(text.trim());
  if (!m || m[2] === '.' || m[1]!.length === 4 || m[4]!.length !== 4) return undefined;
  const y = Number(m[4]);
  const dmy = validDay(y, Number(m[3]), Number(m[1]));
  const mdy = validDay(y, Number(m[1]), Number(m[3]));
  return dmy && !mdy ? 'dmy' : mdy && !dmy ? 'mdy' : undefined;
}

/** Dates, normalised to ISO-8601 (see the top of this file). */
export function toDate(
  text: string,
  order: DateOrder | undefined,
  reading?: DateReading | undefined,
): string {
  const t = text.trim();
  const bad = (why: string) => new CellError('invalid_date', `"${short(text)}" ${why}`);
  if (/^\d+(\.\d+)?$/.test(t) && t.length <= 12) {
    const serial = excelDate(Number(t));
    if (reading?.excelSerial && serial) return withTime(serial.date, serial.seconds);
    throw bad(
      serial && Number(t) >= 366
        ? `is a number; as an Excel serial date it is ${serial.date}: pass --excel-dates to read such numbers as dates`
        : 'is not a date (write it as YYYY-MM-DD)',
    );
  }
  let y: number;
  let mo: number;
  let d: number;
  let rest: string;
  const m = NUMERIC.exec(t);
  if (m) {
    const [, a, sep, b, c] = m as unknown as string[];
    rest = m[5]!;
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
          const iso = (yy: number, mm: number, dd: number) => `${pad(yy, 4)}-${pad(mm)}-${pad(dd)}`;
          throw new CellError(
            'ambiguous_date',
            `"${short(text)}" reads as ${iso(y, second, first)} (day first) or ${iso(y, first, second)} (month first): pass --date-format dmy or --date-format mdy (or --locale) to say which`,
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
  } else {
    const dm = DAY_MONTH.exec(t);
    const md = dm ? undefined : MONTH_DAY.exec(t);
    const named = dm ? monthOf(dm[2]!, reading) : md ? monthOf(md[1]!, reading) : undefined;
    if (named === undefined) throw bad('is not a date (write it as YYYY-MM-DD)');
    const [day, year] = dm ? [dm[1]!, dm[3]!] : [md![2]!, md![3]!];
    if (year.length !== 4) throw bad('has no four-digit year (write it as YYYY-MM-DD)');
    y = Number(year);
    mo = named;
    d = Number(day);
    rest = (dm ?? md)![4]!;
  }
  if (!validDay(y, mo, d)) throw bad('is not a real date');
  const date = `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
  const tm = TIME.exec(rest);
  if (!tm) throw bad('is not a date (write it as YYYY-MM-DD)');
  const [, hh, mi, ss, frac, ampm, zone] = tm;
  if (hh === undefined) return date;
  let h = Number(hh);
  const min = Number(mi);
  const s = ss === undefined ? 0 : Number(ss);
  if (ampm !== undefined) {
    if (h < 1 || h > 12) throw bad('has a time that does not exist');
    h = (h % 12) + (ampm.toLowerCase() === 'pm' ? 12 : 0);
  }
  if (h > 23 || min > 59 || s > 59) throw bad('has a time that does not exist');
  const time = `${pad(h)}:${pad(min)}:${pad(s)}${frac ?? ''}`;
  if (zone === undefined) return `${date}T${time}`;
  const instant = new Date(
    `${date}T${time}${zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`,
  );
  if (Number.isNaN(instant.getTime())) throw bad('has a time zone that cannot be read');
  return instant.toISOString();
}

/** A date with a time of day in seconds (from an Excel serial), as written: no zone. */
function withTime(date: string, seconds: number): string {
  if (seconds === 0) return date;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${date}T${pad(h)}:${pad(m)}:${pad(seconds % 60)}`;
}
