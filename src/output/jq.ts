// --jq EXPR: the command's JSON filtered by jq itself, jq 1.8 compiled to WebAssembly
// (jq-wasm, MIT; jq itself is MIT), so the expression means what it means to jq (gh's --jq
// is the model). Loaded only when --jq is given, and then it costs the command about 0.35 s
// of CPU (on a machine of 2 cores: the 1.3 MB module with the wasm inline, compiling the
// wasm, and jq's first run, which compiles its builtins); each further run (a page) takes
// a few ms. Commands without --jq load none of it.
//
// Output as gh prints it: a string as its text (jq -r); any other value as JSON, indented
// on a terminal, one line each when piped (jq -rc). Not coloured, as --json is not.
//
// A list is one JSON array, written page by page. An expression that starts with `.[]`
// (`.[] | select(.amount > 1000) | .name`) gives for the array what it gives for each of
// its parts in turn, so it runs on each page as it arrives and a list read with --all is
// never held whole. Any other expression (`length`, `map(…)`, `sort_by(…)`) needs the whole
// array: its rows are held until the last page. With --format ndjson, each row is an input
// of its own (as `jq` reads NDJSON) and the expression runs page by page whatever it is.
import { loadJq } from 'jq-wasm/inline';
import { UsageError } from '../errors.ts';
import type { IOStreams } from '../io/streams.ts';
import type { Format } from './format.ts';
import type { Shaper } from './shape.ts';

export interface JqContext {
  io: IOStreams;
  format: Format;
  /** Write to the real stdout. */
  put(text: string): Promise<void>;
}

/**
 * An expression that is `.[]` or `.[] | REST` (not `.[] |= …`): `|` binds loosest in jq,
 * so REST applies to each item and the outputs for an array are those of its items in
 * order. `halt` would stop each page rather than the whole list: such an expression is run
 * on the whole array.
 */
export function runsPerItem(expression: string): boolean {
  return /^\s*\.\[\]\s*(?:\|(?!=)[\s\S]*)?$/.test(expression) && !/\bhalt\b/.test(expression);
}

/** Marks the ends of the output of one run (U+0001, which no jq output trims). */
const MARK = '\u0001';

export async function jqShaper(expression: string, ctx: JqContext): Promise<Shaper> {
  const jq = await loadJq();
  // A program that does not compile fails before the command sends anything.
  const check = jq.raw('null', expression, ['-c']);
  if (check.exitCode === 3) {
    throw new UsageError(
      `The --jq expression is not valid jq:\n${check.stderr}`,
      'See the jq manual: https://jqlang.org/manual/ (ws runs jq 1.8).',
    );
  }
  const { io } = ctx;
  /**
   * The outputs of a run (compact JSON, one a line) as `jq -r` prints them: piped, strings
   * decoded and the rest as it is (jq -rc); on a terminal, jq indents them, reading them
   * back as inputs between two marks (jq-wasm trims the ends of what jq prints, which
   * would eat into a string that starts or ends with spaces).
   */
  const printed = (lines: string): string => {
    if (lines === '') return '';
    if (!io.isStdoutTTY) {
      let out = '';
      for (const line of lines.split('\n'))
        out += `${line.startsWith('"') ? (JSON.parse(line) as string) : line}\n`;
      return out;
    }
    const shown = jq.raw(lines, `"${MARK}", inputs, "${MARK}"`, ['-n', '-r']).stdout;
    return `${shown.slice(MARK.length + 1, -(MARK.length + 1))}\n`;
  };
  const run = async (input: string) => {
    const r = jq.raw(input, expression, ['-c']);
    await ctx.put(printed(r.stdout));
    if (r.exitCode !== 0) {
      throw new UsageError(
        `The --jq expression failed on the output: ${r.stderr || `jq exited with ${r.exitCode}`}`,
        'See the JSON it reads with --json (without --jq).',
      );
    }
    // What debug, stderr and the like say.
    if (r.stderr !== '') io.stderr.write(`${r.stderr}\n`);
  };

  const perItem = ctx.format === 'json' && runsPerItem(expression);
  let held: unknown[] | undefined;
  return {
    async values(values) {
      if (values.length > 0) await run(values.map((v) => JSON.stringify(v)).join('\n'));
    },
    async items(items) {
      if (perItem) await run(JSON.stringify(items));
      else if (held === undefined) held = [...items];
      else for (const item of items) held.push(item);
    },
    async endItems() {
      // Per item, an empty list gives nothing, as `.[]` of [] does.
      if (!perItem) await run(JSON.stringify(held ?? []));
      held = undefined;
    },
    async end() {},
  };
}
