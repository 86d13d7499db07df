// How wide text is on a terminal, in columns, how to cut it to a width, and how columns
// share a width: what a table, and a line of a stream of rows, need to fit the terminal
// without wrapping. Wide characters (CJK, most emoji) take two
// columns, combining marks and zero-width characters none: string-width measures them (the
// measure cli-table3, which draws the tables, uses too).
import stringWidth from 'string-width';

/** Text of printable ASCII only: one column per character. */
const ASCII = /^[\x20-\x7e]*$/;

/** The columns `text` takes on a terminal (text without escape sequences). */
export function displayWidth(text: string): number {
  return ASCII.test(text) ? text.length : stringWidth(text);
}

/** `text` cut to at most `width` columns, ending in `end` (`…`) when something was cut. */
export function cutToWidth(text: string, width: number, end = '…'): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  const room = width - displayWidth(end);
  if (room < 0) return cutToWidth(end, width, '');
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = stringWidth(ch);
    if (used + w > room) break;
    out += ch;
    used += w;
  }
  return `${out}${end}`;
}

/**
 * A cell's text on one line: line breaks and tabs become spaces, and other control
 * characters (which would move the cursor or change colours) a visible `�`.
 */
export function oneLine(text: string): string {
  if (!/[\x00-\x1f\x7f-\x9f]/.test(text)) return text;
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/\t/g, ' ')
    .replace(/[\x00-\x1f\x7f-\x9f]/g, '\ufffd');
}

/** Spaces between two columns. */
export const GAP = 2;
/** A column is not cut narrower than this (nor than its header), unless it is the only one. */
export const MIN_CUT = 8;

/**
 * The width of each column within `max` terminal columns, or null for a column left out.
 * `natural` is each column's widest cell (or header), `least` the narrowest it may be cut
 * to. The first column names the row: it is cut only when it alone is wider than `max`,
 * and never left out. Without `max` (not a terminal), every column keeps its width.
 * A column in `whole` (an id) is shown whole only where the others need not be cut or left
 * out for it; otherwise it is left out first (the rightmost first).
 */
export function fitWidths(
  natural: readonly number[],
  least: readonly number[],
  max: number | undefined,
  whole: readonly boolean[] = [],
): (number | null)[] {
  const ids = natural.map((_, i) => i).filter((i) => i > 0 && whole[i]);
  const left = new Set<number>();
  for (;;) {
    const kept = natural.map((_, i) => i).filter((i) => !left.has(i));
    const fitted = fitKept(
      kept.map((i) => natural[i]!),
      kept.map((i) => (whole[i] ? natural[i]! : least[i]!)),
      max,
    );
    const widths: (number | null)[] = natural.map(() => null);
    kept.forEach((i, k) => {
      widths[i] = fitted[k]!;
    });
    const hurt = widths.some(
      (w, i) => !whole[i] && !left.has(i) && (w === null || w < natural[i]!),
    );
    const next = ids.filter((i) => widths[i] !== null).pop();
    if (!hurt || next === undefined) return widths;
    left.add(next);
  }
}

function fitKept(
  natural: readonly number[],
  least: readonly number[],
  max: number | undefined,
): (number | null)[] {
  const widths: (number | null)[] = [...natural];
  if (max === undefined || natural.length === 0) return widths;
  const kept = natural.map((_, i) => i);
  for (;;) {
    const room = max - GAP * (kept.length - 1);
    const sum = (level: number) => kept.reduce((s, i) => s + widthAt(i, level, natural, least), 0);
    if (sum(Number.POSITIVE_INFINITY) <= room) return widths;
    if (sum(0) <= room) {
      // The highest level that fits: every column wider than it comes down to it (not
      // below its least width); what is left of the room goes back one column at a time.
      let level = Math.max(...kept.map((i) => natural[i]!));
      while (sum(level) > room) level--;
      let spare = room - sum(level);
      for (const i of kept) {
        widths[i] = widthAt(i, level, natural, least);
        if (spare > 0 && widths[i]! < natural[i]! && i !== 0) {
          widths[i]!++;
          spare--;
        }
      }
      return widths;
    }
    if (kept.length === 1) {
      widths[kept[0]!] = Math.max(1, room);
      return widths;
    }
    widths[kept.pop()!] = null;
  }
}

function widthAt(
  i: number,
  level: number,
  natural: readonly number[],
  least: readonly number[],
): number {
  if (i === 0) return natural[0]!;
  return Math.max(least[i]!, Math.min(natural[i]!, level));
}

/** A cell of a line that is fitted to the terminal (fitLine). */
export interface LineCell {
  text: string;
  /** Its column's width, the same on every line of a stream. */
  width: number;
  /** Shown whole or left out, never cut (an id). */
  whole?: boolean;
  align?: 'left' | 'right';
  /** Colour, put on once the text is cut and padded. */
  style?: (text: string) => string;
}

/**
 * One line of rows printed as they come (`ws deliveries tail`, `ws webhooks listen`):
 * columns of set widths, fitted to `max` columns as a table is (the widest cut first, with
 * `…`; what still does not fit left out from the right). Without `max`, nothing is cut.
 */
export function fitLine(cells: readonly LineCell[], max: number | undefined): string {
  const natural = cells.map((c) => c.width);
  const least = cells.map((c) => Math.min(c.width, MIN_CUT));
  const widths = fitWidths(
    natural,
    least,
    max,
    cells.map((c) => c.whole ?? false),
  );
  const shown: string[] = [];
  cells.forEach((c, i) => {
    const w = widths[i];
    if (w === null || w === undefined) return;
    const cut = max === undefined ? c.text : cutToWidth(c.text, w);
    const pad = ' '.repeat(Math.max(0, w - displayWidth(cut)));
    const padded = c.align === 'right' ? pad + cut : cut + pad;
    shown.push(c.style ? c.style(padded) : padded);
  });
  return shown.join(' '.repeat(GAP)).trimEnd();
}
