// How the numbers and dates of a file are read: in the locale a user names (--locale, or a
// mapping file, column by column), else in the one the file's own cells show.
//
// A locale (BCP 47: de-DE, fr-FR, en-US, de-CH, …) gives the decimal mark, from the
// platform's Intl data, and the order of day and month in a date. Without one, the first
// rows of the file are the evidence: a number that only a decimal comma reads (`12,5`,
// `1.234,56`) or only a decimal point (`12.50`, `1,234.50`), a date that only day-first
// (`13/04/2024`) or only month-first (`04/13/2024`) reads. ws decides only when the
// evidence points one way; when it points both ways, or nowhere, a value with two readings
// fails its row with both readings named. What was decided, and why, goes in the summary.
import { UsageError } from '../errors.ts';
import { type DateOrder, dateOrderEvidence, monthNames } from './dates.ts';
import { type DecimalMark, decimalEvidence } from './numbers.ts';

/** What a locale says about reading cells. */
export interface LocaleReading {
  tag: string;
  decimal: DecimalMark;
  /** The order of day and month in NN/NN/YYYY (undefined: the locale writes year first). */
  order: DateOrder | undefined;
  /** Its month names. */
  months: Map<string, number>;
}

const locales = new Map<string, LocaleReading>();

/** A --locale tag, checked and read; `where` names the flag or file in messages. */
export function parseLocale(tag: string, where = '--locale'): LocaleReading {
  const known = locales.get(tag);
  if (known) return known;
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag.replace(/_/g, '-'))[0]!;
  } catch {
    throw new UsageError(
      `${where} "${tag}" is not a locale.`,
      'Give a BCP 47 tag such as de-DE, fr-FR, en-US, en-GB or de-CH.',
    );
  }
  const parts = new Intl.NumberFormat(canonical).formatToParts(12345.6);
  const decimal = parts.find((p) => p.type === 'decimal')?.value;
  const fields = new Intl.DateTimeFormat(canonical, { timeZone: 'UTC' })
    .formatToParts(new Date(Date.UTC(2024, 11, 31)))
    .map((p) => p.type);
  const day = fields.indexOf('day');
  const month = fields.indexOf('month');
  const year = fields.indexOf('year');
  const reading: LocaleReading = {
    tag: canonical,
    decimal: decimal === ',' || decimal === '٫' ? ',' : '.',
    order: year < day && year < month ? undefined : day < month ? 'dmy' : 'mdy',
    months: monthNames([canonical]),
  };
  locales.set(tag, reading);
  return reading;
}

/** One piece of evidence: the text that shows it and its line. */
export interface Example {
  text: string;
  line: number;
}

/** A decision about a file's numbers or dates, with the reason a summary gives. */
export interface Decision<T> {
  value: T | undefined;
  /** Why (`"12,5" on line 3`), or why nothing was decided. */
  reason: string | undefined;
}

/** What the first rows of a file show about its numbers and dates. */
export interface FileEvidence {
  decimal: Decision<DecimalMark>;
  order: Decision<DateOrder>;
}

/** Counts the cells that show each reading, keeping the first example of each. */
class Votes<T extends string> {
  readonly first = new Map<T, Example>();
  add(value: T, text: string, line: number): void {
    if (!this.first.has(value)) this.first.set(value, { text, line });
  }

  decide(names: Record<T, string>, what: string): Decision<T> {
    const seen = [...this.first.keys()];
    const ex = (v: T) => {
      const e = this.first.get(v)!;
      return `"${e.text}" on line ${e.line}`;
    };
    if (seen.length === 1) return { value: seen[0], reason: ex(seen[0]!) };
    if (seen.length === 0) return { value: undefined, reason: undefined };
    return {
      value: undefined,
      reason: `${what} are written both ways: ${seen.map((v) => `${names[v]} (${ex(v)})`).join(', ')}`,
    };
  }
}

/** The cells to weigh: a row's text in each number and date column. */
export interface EvidenceColumns {
  numbers: readonly number[];
  dates: readonly number[];
}

/**
 * What the rows say about the decimal mark of the number columns and the order of day and
 * month in the date columns.
 */
export function fileEvidence(
  rows: Iterable<{ line: number; fields: readonly string[] }>,
  columns: EvidenceColumns,
): FileEvidence {
  const decimal = new Votes<DecimalMark>();
  const order = new Votes<DateOrder>();
  for (const row of rows) {
    for (const i of columns.numbers) {
      const text = row.fields[i]?.trim();
      if (!text) continue;
      const e = decimalEvidence(text);
      if (e === 'point') decimal.add('.', text, row.line);
      else if (e === 'comma') decimal.add(',', text, row.line);
    }
    for (const i of columns.dates) {
      const text = row.fields[i]?.trim();
      if (!text) continue;
      const e = dateOrderEvidence(text);
      if (e) order.add(e, text, row.line);
    }
  }
  return {
    decimal: decimal.decide(
      { '.': 'with a decimal point', ',': 'with a decimal comma' },
      'numbers',
    ),
    order: order.decide({ dmy: 'day first', mdy: 'month first' }, 'dates'),
  };
}
