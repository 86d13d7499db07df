// Tables for people on a terminal: aligned columns under capitalised headers, fitted to the
// terminal's width so that no row wraps. When the natural widths do not fit, the widest
// columns shrink first (cells cut with `…`); columns that cannot fit even then are left
// out from the right, and the caller says which. cli-table3 draws the table this file lays
// out. Loaded only when a table is printed.
import Table from 'cli-table3';
import { cutToWidth, displayWidth, fitWidths, GAP, MIN_CUT, oneLine } from './width.ts';

export interface TableColumn {
  header: string;
  align: 'left' | 'right';
  /** Shown whole or left out, never cut (an id). */
  whole?: boolean;
  /** One text per row. */
  cells: string[];
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
  const widths = fitWidths(
    natural,
    least,
    max,
    columns.map((c) => c.whole ?? false),
  );
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
