// Numbers as spreadsheets write them, read only when their reading is certain.
//
// A cell may carry a currency (`$1,234.50`, `USD 12,345.00`, `1.234,56 €`), a sign (`-`,
// `−`, or accounting parentheses `(1,234.50)`), a percent sign, an exponent (`1.5E+03`),
// and marks between its digits: the decimal mark (`.` or `,`) and grouping marks (`,` `.`,
// spaces, no-break and narrow no-break spaces, apostrophes). A text reads as one number
// when only one of the two decimal marks fits it (`12,5`, `1.234,56`, `1,234.50`,
// `1.234.567`, `0,123`, `1 234`), or when the decimal mark of the column is known (from
// --locale, a mapping file, or the file's own evidence, see evidence.ts). `1,234` and
// `75.500` read as two numbers (1234 or 1.234, 75500 or 75.5): without a known decimal
// mark they are refused, naming both readings and the flag that settles it.
//
// A percent (`12%`) is refused unless --percent says whether it means 12 (points) or
// 0.12 (fraction). A column that carries currencies must carry one: a number property
// holds no currency, so `€1,234` among dollar amounts fails its row.
import { CellError } from './cell-error.ts';

let currencies: Set<string> | undefined;

/** An ISO 4217 code the platform knows (USD, EUR, CHF, …). */
function isCurrencyCode(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}

export type DecimalMark = '.' | ',';
export type PercentMode = 'points' | 'fraction';

/** How a number column is read. */
export interface NumberReading {
  /** The decimal mark, when known; undefined: only texts with one reading are read. */
  decimal: DecimalMark | undefined;
  /** What the decimal mark was learnt from, for messages (`--locale de-DE`, `the file`). */
  source?: string | undefined;
  percent: PercentMode | undefined;
  /** The first currency the column carried (set as cells are read). */
  currency?: { code: string; line?: number | undefined } | undefined;
}

/** Spaces and apostrophes that group digits (never a decimal mark). */
const GROUP_ONLY = new Set([' ', '\u00a0', '\u202f', '\u2009', "'", '\u2019']);

/** Currency words and symbols that may stand before or after an amount. */
const CURRENCY_BEFORE = /^(?:([A-Z]{3})\s+|([A-Z]{0,3}\p{Sc})\s*)/u;
const CURRENCY_AFTER = /\s*(?:\s([A-Z]{3})|(\p{Sc}))$/u;
const SYMBOL_CODES: Record<string, string> = {
  $: 'USD',
  US$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  '₽': 'RUB',
  '₩': 'KRW',
  '₺': 'TRY',
  '₪': 'ILS',
  '₫': 'VND',
  '₱': 'PHP',
  '฿': 'THB',
  '₴': 'UAH',
  zł: 'PLN',
};

/** The words a currency goes by (the ISO code, or the symbol as written). */
function currencyCode(word: string): string {
  return SYMBOL_CODES[word] ?? word;
}

/** A number text split into its parts: sign, currency, percent, and the digits with their marks. */
interface Parts {
  negative: boolean;
  currency: string | undefined;
  percent: boolean;
  body: string;
}

/** The parts of a cell, or undefined when it is not a number at all. */
function split(text: string): Parts | undefined {
  let t = text.trim();
  let negative = false;
  let currency: string | undefined;
  let percent = false;
  if (t.startsWith('(') && t.endsWith(')')) {
    negative = true;
    t = t.slice(1, -1).trim();
  }
  const sign = () => {
    const c = t[0];
    if (c === '-' || c === '\u2212' || c === '+') {
      if (c !== '+') negative = !negative;
      t = t.slice(1).trimStart();
      return true;
    }
    return false;
  };
  const signed = sign();
  const before = CURRENCY_BEFORE.exec(t);
  if (before && (before[1] === undefined || isCurrencyCode(before[1]))) {
    currency = currencyCode(before[1] ?? before[2]!);
    t = t.slice(before[0].length);
    if (!signed) sign();
  }
  if (t.endsWith('%')) {
    percent = true;
    t = t.slice(0, -1).trimEnd();
  }
  if (currency === undefined) {
    const after = CURRENCY_AFTER.exec(t);
    if (after && (after[1] === undefined || isCurrencyCode(after[1]))) {
      currency = currencyCode(after[1] ?? after[2]!);
      t = t.slice(0, after.index);
    }
  }
  // A trailing minus, as accounting systems write it (1.234,56-).
  if (!signed && !negative && t.endsWith('-')) {
    negative = true;
    t = t.slice(0, -1);
  }
  // Digits grouped with `_` (12_000), as code writes them.
  if (t.includes('_')) t = t.replace(/(?<=\d)_(?=\d)/g, '');
  // `.5` and `,5`: a fraction without its 0.
  if (/^[.,]\d/.test(t)) t = `0${t}`;
  if (t === '' || !/^[0-9]/.test(t)) return undefined;
  return { negative, currency, percent, body: t };
}

/** The texts a body reads as under each decimal mark (undefined: not a number that way). */
interface Readings {
  point: string | undefined;
  comma: string | undefined;
}

/** `1234` `1234.5` `1,5E+03`: digits, one optional decimal mark, an optional exponent. */
const EXPONENT = /^(\d+)(?:([.,])(\d+))?[eE]([+-]?\d+)$/;

/** Whether `int` (digits and group marks `mark`) is grouped in threes: 1,234,567. */
function groupedInThrees(int: string, mark: string): boolean {
  const groups = int.split(mark);
  if (groups.length < 2) return false;
  const first = groups[0]!;
  if (first.length < 1 || first.length > 3 || !/^\d+$/.test(first) || first[0] === '0')
    return false;
  for (let i = 1; i < groups.length; i++) if (!/^\d{3}$/.test(groups[i]!)) return false;
  return true;
}

/** The decimal texts (`1234.5`) a body reads as with `.` and with `,` as its decimal mark. */
function readings(body: string): Readings {
  const none = { point: undefined, comma: undefined };
  const e = EXPONENT.exec(body);
  if (e) {
    const [, int, mark, frac, exp] = e;
    const text = `${int}${frac === undefined ? '' : `.${frac}`}e${exp}`;
    return {
      point: mark === ',' ? undefined : text,
      comma: mark === '.' ? undefined : text,
    };
  }
  let t = body;
  // A space or an apostrophe groups the digits before the decimal mark, in threes.
  const marks = [...GROUP_ONLY].filter((ch) => t.includes(ch));
  if (marks.length > 1) return none;
  if (marks.length === 1) {
    const mark = marks[0]!;
    const cut = t.search(/[.,]/);
    const int = cut < 0 ? t : t.slice(0, cut);
    const rest = cut < 0 ? '' : t.slice(cut);
    if (rest.includes(mark) || !groupedInThrees(int, mark)) return none;
    t = int.split(mark).join('') + rest;
  }
  return { point: readAs(t, '.'), comma: readAs(t, ',') };
}

/** The decimal text of `t` (digits, `.` and `,`) when `decimal` is its decimal mark. */
function readAs(t: string, decimal: DecimalMark): string | undefined {
  const group = decimal === '.' ? ',' : '.';
  const at = t.indexOf(decimal);
  if (at >= 0 && t.indexOf(decimal, at + 1) >= 0) return undefined;
  const int = at >= 0 ? t.slice(0, at) : t;
  const frac = at >= 0 ? t.slice(at + 1) : undefined;
  if (frac !== undefined && !/^\d+$/.test(frac)) return undefined;
  let digits: string;
  if (int.includes(group)) {
    if (!groupedInThrees(int, group)) return undefined;
    digits = int.split(group).join('');
  } else {
    if (!/^\d+$/.test(int)) return undefined;
    digits = int;
  }
  return frac === undefined ? digits : `${digits}.${frac}`;
}

/** A decimal text divided by 100, exactly (`12.5` → `0.125`). */
function hundredth(decimal: string): string {
  const [int, frac = ''] = decimal.split('.') as [string, string?];
  const padded = int.padStart(3, '0');
  return `${padded.slice(0, -2)}.${padded.slice(-2)}${frac}`;
}

/** How a decimal text reads for people in a message: `1234` or `1.234`. */
function shown(decimal: string): string {
  return String(Number(decimal));
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}…` : text);
}

/**
 * The decimal marks a text could be written with: 'point', 'comma', 'both' (two readings
 * that differ, or one that needs the other's grouping), 'either' (the same number either
 * way: `1234`, `1 234`), or undefined when it is no number. For the file's evidence.
 */
export function decimalEvidence(text: string): 'point' | 'comma' | 'both' | 'either' | undefined {
  const parts = split(text);
  if (!parts) return undefined;
  const r = readings(parts.body);
  if (r.point === undefined && r.comma === undefined) return undefined;
  if (r.point === undefined) return 'comma';
  if (r.comma === undefined) return 'point';
  return r.point === r.comma ? 'either' : 'both';
}

const EXAMPLE_LOCALE: Record<DecimalMark, string> = { '.': 'en-US', ',': 'de-DE' };

/**
 * The number a cell means, or a CellError that says why it is refused: no number, two
 * readings and no decimal mark known, a reading the column's decimal mark rules out, a
 * percent without --percent, or a currency other than the column's.
 */
export function readNumber(text: string, reading: NumberReading, slug?: string): number {
  const notANumber = () =>
    new CellError(
      'invalid_number',
      slug === undefined
        ? `${quote(text)} is not a number`
        : `${slug} takes a number, not ${quote(text)}`,
    );
  const parts = split(text);
  if (!parts) throw notANumber();
  const r = readings(parts.body);
  let decimal: string | undefined;
  if (reading.decimal !== undefined) {
    decimal = reading.decimal === '.' ? r.point : r.comma;
    if (decimal === undefined) {
      const other = reading.decimal === '.' ? r.comma : r.point;
      const mark = reading.decimal === '.' ? 'a decimal point' : 'a decimal comma';
      throw new CellError(
        'invalid_number',
        other === undefined
          ? notANumber().message
          : `${quote(text)} is not a number written with ${mark} (${reading.source ?? 'the column'}); with the other mark it would be ${shown(other)}: pass --locale ${EXAMPLE_LOCALE[reading.decimal === '.' ? ',' : '.']} if that is meant`,
      );
    }
  } else if (r.point !== undefined && r.comma !== undefined && r.point !== r.comma) {
    throw new CellError(
      'ambiguous_number',
      `${quote(text)} reads as ${shown(r.point)} (decimal point, as en-US writes it) or ${shown(r.comma)} (decimal comma, as de-DE writes it): pass --locale (e.g. --locale en-US or --locale de-DE) to say which`,
    );
  } else {
    decimal = r.point ?? r.comma;
    if (decimal === undefined) throw notANumber();
  }
  if (parts.percent) {
    if (reading.percent === undefined) {
      throw new CellError(
        'ambiguous_percent',
        `${quote(text)} is a percent: pass --percent points to store ${shown(decimal)} or --percent fraction to store ${shown(hundredth(decimal))}`,
      );
    }
    if (reading.percent === 'fraction') decimal = hundredth(decimal);
  }
  if (parts.currency !== undefined) {
    const first = reading.currency;
    if (first === undefined) reading.currency = { code: parts.currency };
    else if (first.code !== parts.currency) {
      throw new CellError(
        'mixed_currency',
        `${quote(text)} is in ${parts.currency} while the column's amounts are in ${first.code}${first.line === undefined ? '' : ` (line ${first.line})`}: a number property holds no currency; import the ${parts.currency} rows into another property or convert them`,
      );
    }
  }
  const n = Number(decimal);
  if (!Number.isFinite(n)) throw notANumber();
  return parts.negative ? (n === 0 ? 0 : -n) : n;
}
