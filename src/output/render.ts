// Writers for each format. Lists can be streamed page by page (ndjson, csv, tsv and
// json write as rows arrive, so memory does not grow with the result); a table needs
// all its rows to size its columns.
import { once } from 'node:events';
import type { IOStreams } from '../io/streams.ts';
import {
  type Column,
  cellText,
  cellValue,
  chooseColumns,
  csvEscape,
  type OutputOptions,
  tsvEscape,
} from './format.ts';

export interface RowWriter<T> {
  write(rows: readonly T[]): Promise<void>;
  end(): Promise<void>;
  readonly count: number;
}

export interface RenderOptions<T> extends OutputOptions {
  /** The JSON form of a row when no --fields is given (default: the row itself). */
  json?: (row: T) => unknown;
  /** For CSV: neutralise cells a spreadsheet would run as formulas. */
  neutraliseFormulas?: boolean;
  /** Array separator in csv/tsv cells (default ";"). */
  arraySep?: string;
  /** Shown on a terminal instead of an empty table. */
  emptyMessage?: string;
}

async function put(io: IOStreams, text: string): Promise<void> {
  if (!io.stdout.write(text)) await once(io.stdout, 'drain');
}

function jsonOf<T>(row: T, cols: Column<T>[], opts: RenderOptions<T>): unknown {
  if (opts.fields) {
    const out: Record<string, unknown> = {};
    for (const c of cols) out[c.key] = cellValue(row, c) ?? null;
    return out;
  }
  return opts.json ? opts.json(row) : row;
}

export function createRowWriter<T>(
  io: IOStreams,
  columns: Column<T>[],
  opts: RenderOptions<T>,
): RowWriter<T> {
  const cols = chooseColumns(columns, opts.fields);
  const sep = opts.arraySep ?? ';';
  const shaper = io.shaper;
  if (shaper && (opts.format === 'json' || opts.format === 'ndjson')) {
    // --jq or --template: the rows go to it, a page at a time (src/output/shape.ts).
    const json = opts.format === 'json';
    return streamed({
      async rows(rows) {
        const values = rows.map((r) => jsonOf(r, cols, opts));
        await (json ? shaper.items(values) : shaper.values(values));
      },
      async end() {
        if (json) await shaper.endItems();
      },
    });
  }
  switch (opts.format) {
    case 'ndjson':
      return streamed({
        async rows(rows) {
          await put(io, rows.map((r) => `${JSON.stringify(jsonOf(r, cols, opts))}\n`).join(''));
        },
      });
    case 'json':
      return streamed({
        async rows(rows, before) {
          let text = '';
          for (const [i, r] of rows.entries()) {
            const item = JSON.stringify(jsonOf(r, cols, opts), null, 2).replace(/\n/g, '\n  ');
            text += `${before + i === 0 ? '[\n  ' : ',\n  '}${item}`;
          }
          await put(io, text);
        },
        async end(count) {
          await put(io, count === 0 ? '[]\n' : '\n]\n');
        },
      });
    case 'tsv':
      return streamed({
        async rows(rows) {
          await put(
            io,
            rows
              .map(
                (r) => `${cols.map((c) => tsvEscape(cellText(cellValue(r, c), sep))).join('\t')}\n`,
              )
              .join(''),
          );
        },
      });
    case 'csv': {
      const neutralise = opts.neutraliseFormulas ?? false;
      let headerDone = false;
      const header = async () => {
        if (headerDone) return;
        headerDone = true;
        // The field names --fields takes (`created_at`), whatever a table calls them.
        await put(io, `${cols.map((c) => csvEscape(c.key)).join(',')}\r\n`);
      };
      return streamed({
        begin: header,
        async rows(rows) {
          await put(
            io,
            rows
              .map(
                (r) =>
                  `${cols.map((c) => csvEscape(cellText(cellValue(r, c), sep), neutralise)).join(',')}\r\n`,
              )
              .join(''),
          );
        },
        end: header,
      });
    }
    case 'table': {
      const all: T[] = [];
      return {
        get count() {
          return all.length;
        },
        async write(rows) {
          for (const r of rows) all.push(r);
        },
        async end() {
          if (all.length === 0) {
            if (opts.emptyMessage) io.stderr.write(`${opts.emptyMessage}\n`);
            return;
          }
          const table = await tableText(io, cols, all, opts);
          await put(io, table.text);
          if (table.note) await noteOnce(io, table.note);
        },
      };
    }
  }
}

/** How a format streams its rows: batch by batch as they arrive, then its end. */
interface Stream<T> {
  /** Before every batch, an empty one too (the CSV header, written once). */
  begin?(): Promise<void>;
  /** A batch of rows, after `before` rows written earlier. */
  rows(rows: readonly T[], before: number): Promise<void>;
  /** After the last batch, with the count of rows written. */
  end?(count: number): Promise<void>;
}

/** A RowWriter that hands each non-empty batch to `stream` and counts the rows. */
function streamed<T>(stream: Stream<T>): RowWriter<T> {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async write(rows) {
      await stream.begin?.();
      if (rows.length === 0) return;
      const before = count;
      count += rows.length;
      await stream.rows(rows, before);
    },
    async end() {
      await stream.end?.(count);
    },
  };
}

/** A table's header for a column: its words in capitals (`close_date` → `CLOSE DATE`). */
function tableHeader<T>(col: Column<T>): string {
  return (col.header ?? col.key).replace(/_/g, ' ').toUpperCase();
}

/** A column whose values (those present) are all numbers reads best right-aligned. */
function numericColumn<T>(rows: readonly T[], col: Column<T>): boolean {
  let any = false;
  for (const r of rows) {
    const v = cellValue(r, col);
    if (v === null || v === undefined || v === '') continue;
    if (typeof v !== 'number') return false;
    any = true;
  }
  return any;
}

/** Notes already given through an IOStreams, so a command says each once. */
const said = new WeakMap<IOStreams, Set<string>>();

async function noteOnce(io: IOStreams, note: string): Promise<void> {
  const notes = said.get(io) ?? new Set<string>();
  said.set(io, notes);
  if (notes.has(note)) return;
  notes.add(note);
  const { wrapText } = await import('./wrap.ts');
  io.info(io.err.dim(wrapText(note, io.errColumns)));
}

/**
 * A table fitted to the terminal. Without --fields, a column empty on every row is not
 * shown; a column that cannot fit the width is left out, and the note says which.
 */
async function tableText<T>(
  io: IOStreams,
  cols: Column<T>[],
  rows: T[],
  opts: RenderOptions<T>,
): Promise<{ text: string; note: string | undefined }> {
  // People read the name first: ids go last (where they fit), unless --fields orders them.
  const ordered = opts.fields ? cols : [...cols.filter((c) => !c.id), ...cols.filter((c) => c.id)];
  let columns = ordered.map((c) => ({
    key: c.key,
    header: tableHeader(c),
    align: c.align ?? (numericColumn(rows, c) ? ('right' as const) : ('left' as const)),
    whole: c.id ?? false,
    cells: rows.map((r) => tableCell(r, c)),
  }));
  if (!opts.fields) columns = columns.filter((c, i) => i === 0 || c.cells.some((t) => t !== ''));
  const { drawTable } = await import('./table.ts');
  const width = io.wide ? undefined : io.columns;
  const table = drawTable(columns, rows.length, width, (s) => io.out.bold(s));
  const left = table.dropped.map((i) => columns[i]!.key);
  return {
    text: table.text,
    note:
      left.length === 0
        ? undefined
        : `Left out to fit the terminal's width: ${left.join(', ')} (--wide shows every column; --fields chooses them).`,
  };
}

function tableCell<T>(row: T, col: Column<T>): string {
  const value = cellValue(row, col);
  return col.text ? col.text(value, row) : cellText(value, ', ');
}

/** Render a whole list at once. */
export async function renderRows<T>(
  io: IOStreams,
  rows: readonly T[],
  columns: Column<T>[],
  opts: RenderOptions<T>,
): Promise<void> {
  const w = createRowWriter(io, columns, opts);
  await w.write(rows);
  await w.end();
}

/**
 * Render one object. On a terminal, `key  value` lines (without --fields, the keys whose
 * value is empty are left out); with --json one JSON document, with ndjson one line, in
 * csv a header and one row. In tsv, `key<TAB>value` lines, so the data reads without
 * knowing the order of the fields; `row` makes it one row like a list's instead (records,
 * whose rows scripts read as `list` prints them). One field alone (`--fields team_id`) is
 * printed as its value, in both.
 */
export async function renderObject<T>(
  io: IOStreams,
  obj: T,
  columns: Column<T>[],
  opts: RenderOptions<T> & { row?: boolean },
): Promise<void> {
  const cols = chooseColumns(columns, opts.fields);
  if (io.shaper && (opts.format === 'json' || opts.format === 'ndjson')) {
    await io.shaper.values([jsonOf(obj, cols, opts)]);
    return;
  }
  switch (opts.format) {
    case 'json':
      await put(io, `${JSON.stringify(jsonOf(obj, cols, opts), null, 2)}\n`);
      return;
    case 'table': {
      const { oneLine } = await import('./width.ts');
      const shown = cols
        .map((c) => ({ key: c.key, text: tableCell(obj, c) }))
        .filter((c) => opts.fields || c.text !== '');
      const width = Math.max(0, ...shown.map((c) => c.key.length));
      const indent = `\n${' '.repeat(width + 2)}`;
      const lines = shown.map(({ key, text }) => {
        const value = text.split(/\r?\n/).map(oneLine).join(indent);
        return `${io.out.bold(key.padEnd(width))}  ${value}`.trimEnd();
      });
      await put(io, `${lines.join('\n')}\n`);
      return;
    }
    case 'tsv':
      if (!opts.row && cols.length > 1) {
        const sep = opts.arraySep ?? ';';
        const value = (c: Column<T>) => tsvEscape(cellText(cellValue(obj, c), sep));
        await put(io, cols.map((c) => `${c.key}\t${value(c)}\n`).join(''));
        return;
      }
      await renderRows(io, [obj], columns, opts);
      return;
    default:
      await renderRows(io, [obj], columns, opts);
  }
}
