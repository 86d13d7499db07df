// Tables for people on a terminal: aligned columns under capitalised headers, fitted to the
// terminal's width so that no row wraps. When the natural widths do not fit, the widest
// columns shrink first (cells cut with `…`); columns that cannot fit even then are left
// out from the right, and the caller says which. cli-table3 draws the table this file lays
// out. Loaded only when a table is printed.
import Table from 'cli-table3';
import { cutToWidth, displayWidth, oneLine } from './width.ts';

/** Spaces between two columns. */
export const GAP = 2;
/** A column is not cut narrower than this (nor than its header), unless it is the only one. */
export const MIN_CUT = 8;

export interface TableColumn {
  header: string;
  align: 'left' | 'right';
  /** One text per row. */
  cells: string[];
}

/**
 * The width of each column within `max` terminal columns, or null for a column left out.
 * `natural` is each column's widest cell (or header), `least` the narrowest it may be cut
 * to. The first column names the row: it is cut only when it alone is wider than `max`,
 * and never left out. Without `max` (not a terminal), every column keeps its width.
 */
export function fitWidths(
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

export interface TableText {
  /** The table, a line per row, ending in a newline. */
  text: string;
  /** Indexes of the columns left out to fit the width. */
  dropped: number[];
}

export interface DrawOptions {
  /** Draw the header row (default true). */
  header?: boolean;
  /**
   * Cells may carry colour (escape sequences of the user's own --template): kept, and cut
   * by cli-table3, which knows them. Otherwise control characters show as `�`.
   */
  styled?: boolean;
}

/** Lay out and draw a table; `bold` styles the headers. */
export function drawTable(
  columns: readonly TableColumn[],
  rows: number,
  max: number | undefined,
  bold: (s: string) => string,
  opts: DrawOptions = {},
): TableText {
  const header = opts.header ?? true;
  const line = opts.styled ? (t: string) => t.replace(/\s*[\r\n]+\s*|\t/g, ' ') : oneLine;
  const cut = opts.styled ? (t: string) => t : cutToWidth;
  const cells = columns.map((c) => c.cells.map(line));
  const headerWidths = columns.map((c) => (header ? displayWidth(c.header) : 0));
  const natural = columns.map((_, i) =>
    cells[i]!.reduce((w, t) => Math.max(w, displayWidth(t)), headerWidths[i]!),
  );
  const least = natural.map((n, i) => Math.min(n, Math.max(MIN_CUT, headerWidths[i]!)));
  const widths = fitWidths(natural, least, max);
  const shown = columns.map((_, i) => i).filter((i) => widths[i] !== null);
  // cli-table3 draws it: no borders, GAP spaces between columns, each cell padded to its
  // column's width (cut with `…` first, here, so a cut never splits a wide character).
  const none = '';
  const table = new Table({
    head: header ? shown.map((i) => bold(cutToWidth(columns[i]!.header, widths[i]!))) : [],
    colWidths: shown.map((i) => widths[i]!),
    colAligns: shown.map((i) => columns[i]!.align),
    chars: {
      top: none,
      'top-mid': none,
      'top-left': none,
      'top-right': none,
      bottom: none,
      'bottom-mid': none,
      'bottom-left': none,
      'bottom-right': none,
      left: none,
      'left-mid': none,
      mid: none,
      'mid-mid': none,
      right: none,
      'right-mid': none,
      middle: ' '.repeat(GAP),
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    wordWrap: false,
  });
  for (let r = 0; r < rows; r++) {
    table.push(shown.map((i) => cut(cells[i]![r]!, widths[i]!)));
  }
  const lines = table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd());
  return {
    text: `${lines.join('\n')}\n`,
    dropped: columns.map((_, i) => i).filter((i) => widths[i] === null),
  };
}
