// --template TEXT|@FILE: the command's JSON rendered with a Liquid template, the language
// automation subjects use (liquidjs), with the helpers gh's --template gives tables. Loaded
// only when --template is given.
//
// One render per row: a list (and any JSON array a command prints) renders the template
// once for each item, an object once, with the item's fields as variables (`{{ name }}`,
// `{{ properties.stage }}`); an item that is not an object is `{{ value }}`. What a render
// gives is printed followed by a line break unless it is empty or ends in one.
//
// Unlike an automation's subject (src/automation-engine/template.ts, the sandbox's bounded
// engine for templates that come from shared files), this template is the user's own: it
// is not limited, and `{% render 'file' %}` reads templates beside it (or in the working
// directory). An unknown filter is an error, not an empty value.
//
// Helpers:
//   {% tablerow a, b | timeago, (c | truncate: 9) %}  a row of an aligned table: cells
//                                    separated by commas; one whose filter takes
//                                    arguments in parentheses (Liquid would read the
//                                    cells after it as more arguments)
//   {% tablerender %}                the rows so far, aligned (and fitted to a terminal);
//                                    rows left at the end are rendered then
//   timeago                          "3 minutes ago", "in 2 days"
//   truncate: N                      at most N terminal columns, "…" where cut (Liquid's
//                                    own counts characters and takes an ellipsis)
//   color: "bold green"              styles (chalk's names), only where colour is on
//   join: ", "                       an array's items joined (Liquid's own)
//   hyperlink: "text"                the URL as a link (OSC 8) on a terminal; piped,
//                                    "text (URL)"
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { backgroundColorNames, foregroundColorNames, modifierNames } from 'chalk';
import {
  type Context,
  type Emitter,
  type FilteredValueToken,
  Liquid,
  Tag,
  type TagToken,
  type Template,
  type TopLevelToken,
  Value,
} from 'liquidjs';
import { UsageError } from '../errors.ts';
import type { IOStreams } from '../io/streams.ts';
import { isPlainObject } from '../util/guards.ts';
import { cellText } from './format.ts';
import type { Shaper } from './shape.ts';
import { drawTable } from './table.ts';
import { cutToWidth } from './width.ts';
import { wrapText } from './wrap.ts';

export interface TemplateContext {
  io: IOStreams;
  cwd: string;
  now: () => Date;
  /** Write to the real stdout. */
  put(text: string): Promise<void>;
}

const STYLES = new Set<string>([
  ...modifierNames,
  ...foregroundColorNames,
  ...backgroundColorNames,
]);

/** The template text of --template TEXT or @FILE, and the directory its partials are read from. */
function source(spec: string, cwd: string): { text: string; dir: string } {
  if (!spec.startsWith('@')) return { text: spec, dir: cwd };
  const path = resolve(cwd, spec.slice(1));
  try {
    // The file's last line break is not the template's: each render ends in one.
    return { text: readFileSync(path, 'utf8').replace(/\r?\n$/, ''), dir: dirname(path) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : (err as Error).message;
    throw new UsageError(
      `Cannot read the template file ${spec.slice(1)}: ${why}.`,
      'Give --template the template itself, or @FILE with the path of a file that holds it.',
    );
  }
}

/** A time as people say it, from `now`: "3 minutes ago", "in 2 days", "just now". */
export function timeAgo(value: unknown, now: Date): string {
  const at =
    value instanceof Date
      ? value
      : typeof value === 'string' || typeof value === 'number'
        ? new Date(value)
        : undefined;
  if (at === undefined || Number.isNaN(at.getTime())) return cellText(value, ', ');
  const seconds = (at.getTime() - now.getTime()) / 1000;
  if (Math.abs(seconds) < 45) return 'just now';
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 365 * 86_400],
    ['month', 30 * 86_400],
    ['week', 7 * 86_400],
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ];
  const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s) ?? units[units.length - 1]!;
  return new Intl.RelativeTimeFormat('en', { numeric: 'always' }).format(
    Math.round(seconds / size),
    unit,
  );
}

export async function templateShaper(spec: string, ctx: TemplateContext): Promise<Shaper> {
  const { io } = ctx;
  const { text, dir } = source(spec, ctx.cwd);
  /** Rows given with {% tablerow %}, not yet rendered. */
  let table: string[][] = [];
  const tableText = (): string => {
    if (table.length === 0) return '';
    const n = Math.max(...table.map((r) => r.length));
    const columns = Array.from({ length: n }, (_, i) => ({
      header: '',
      align: 'left' as const,
      cells: table.map((r) => r[i] ?? ''),
    }));
    const drawn = drawTable(columns, table.length, io.wide ? undefined : io.columns, (s) => s, {
      header: false,
      styled: true,
    });
    table = [];
    if (drawn.dropped.length > 0) {
      const which = drawn.dropped.map((i) => i + 1).join(', ');
      const note = `Left out to fit the terminal's width: tablerow column${drawn.dropped.length > 1 ? 's' : ''} ${which} (shorten cells with truncate, or use --wide).`;
      io.info(io.err.dim(wrapText(note, io.errColumns)));
    }
    return drawn.text;
  };

  const engine = new Liquid({
    root: [dir],
    extname: '.liquid',
    strictFilters: true,
    ownPropertyOnly: true,
  });
  engine.registerTag(
    'tablerow',
    class extends Tag {
      private readonly cells: Value[] = [];
      constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
        super(token, remain, liquid);
        const t = this.tokenizer;
        for (t.skipBlank(); !t.end(); t.skipBlank()) {
          // `(value | filter: a, b)`: a cell whose filters take arguments, in parentheses.
          const begin = t.p;
          let cell: FilteredValueToken | undefined;
          if (t.peek() === '(') {
            try {
              t.advance();
              cell = t.readFilteredValue();
              t.skipBlank();
              if (t.peek() !== ')') throw new Error('not a cell in parentheses');
              t.advance();
            } catch {
              // A range, (1..3), read as a value.
              t.p = begin;
              cell = undefined;
            }
          }
          if (cell === undefined) {
            cell = t.readFilteredValue();
            // Liquid gives a filter every value after its colon: `url | truncate: 20,
            // created_at` would be truncate's two arguments, not two cells.
            const many = cell.filters.find((f) => f.args.length > 1);
            if (many !== undefined)
              throw new Error(
                `in {% tablerow %}, "${cell.getText()}" gives ${many.name} ${many.args.length} arguments: write a cell whose filter takes arguments in parentheses, (value | ${many.name}: …)`,
              );
          }
          this.cells.push(new Value(cell, liquid));
          t.skipBlank();
          if (!t.end() && t.peek() !== ',')
            throw new Error(`in {% tablerow %}, cells are separated by commas: ${token.getText()}`);
          t.readTo(',');
        }
        if (this.cells.length === 0)
          throw new Error(`{% tablerow %} needs the cells of the row: ${token.getText()}`);
      }
      *render(c: Context): Generator<unknown, void, unknown> {
        const row: string[] = [];
        for (const cell of this.cells) row.push(cellText(yield cell.value(c, false), ', '));
        table.push(row);
      }
    },
  );
  engine.registerTag(
    'tablerender',
    class extends Tag {
      render(_c: Context, emitter: Emitter): void {
        emitter.write(tableText());
      }
    },
  );
  engine.registerFilter('timeago', (value: unknown) => timeAgo(value, ctx.now()));
  engine.registerFilter('truncate', (value: unknown, width: unknown, ...more: unknown[]) => {
    const n = Number(width);
    if (width === undefined || more.length > 0 || !Number.isInteger(n) || n < 1)
      throw new Error('truncate takes one argument, a width in terminal columns (truncate: 30)');
    return cutToWidth(cellText(value, ', '), n);
  });
  engine.registerFilter('color', (value: unknown, style: unknown, ...more: unknown[]) => {
    const names = String(style ?? '')
      .split(/[\s+,]+/)
      .filter((s) => s !== '');
    const unknown = names.filter((s) => !STYLES.has(s));
    if (names.length === 0 || unknown.length > 0 || more.length > 0)
      throw new Error(
        `color takes one argument, styles of ${[...STYLES].join(', ')} (color: "bold green"), not ${JSON.stringify([style, ...more].join(', '))}`,
      );
    let styled = io.out;
    for (const name of names) styled = styled[name as 'bold'];
    return styled(cellText(value, ', '));
  });
  engine.registerFilter('hyperlink', (value: unknown, label?: unknown) => {
    const url = cellText(value, ', ');
    const shown = label === undefined || label === null || label === '' ? url : String(label);
    if (io.isStdoutTTY && io.env.TERM !== 'dumb') return `\x1b]8;;${url}\x07${shown}\x1b]8;;\x07`;
    return shown === url ? url : `${shown} (${url})`;
  });

  let templates: Template[];
  try {
    templates = engine.parse(text);
  } catch (err) {
    throw new UsageError(
      `The --template is not a valid Liquid template: ${messageOf(err)}.`,
      'See `ws help formatting` for the variables and helpers.',
    );
  }

  const render = (item: unknown): string => {
    const scope = isPlainObject(item) ? item : { value: item };
    let out: string;
    try {
      out = engine.renderSync(templates, scope) as string;
    } catch (err) {
      throw new UsageError(
        `The --template failed on the output: ${messageOf(err)}.`,
        'See the JSON it reads with --json (without --template).',
      );
    }
    return out === '' || out.endsWith('\n') ? out : `${out}\n`;
  };
  const renderAll = async (items: readonly unknown[]) => {
    let out = '';
    for (const item of items) out += render(item);
    await ctx.put(out);
  };
  return {
    async values(values) {
      for (const v of values) await renderAll(Array.isArray(v) ? v : [v]);
    },
    items: renderAll,
    async endItems() {},
    async end() {
      await ctx.put(tableText());
    },
  };
}

function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
}
