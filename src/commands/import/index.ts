// `ws import TYPE FILE|-`, `ws import validate TYPE FILE|-`, `ws import status JOB`,
// `ws import jobs`.
import { type Command, type CommandContext, collect, intFlag } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import { parseDelimiterFlag } from '../../import/delimiter.ts';
import { parseMapFlag } from '../../import/mapping.ts';
import { isUuid } from '../../util/guards.ts';
import type { ImportOpts } from './import.ts';

const verbs = () => import('./verbs.ts');

type Raw = Record<string, unknown>;
const str = (v: unknown) => v as string | undefined;

/** Defaults, measured with bench/import.mjs (see the README). */
export const DEFAULT_CHUNK_SIZE = 1000;
export const DEFAULT_CONCURRENCY = 8;

const HELP = `
TYPE is contact, organization, identity, deal, action or document (singular or plural).
FILE is a CSV file, or - for stdin.

Reading: UTF-8 (with or without BOM; --encoding for others), the delimiter detected
among , ; tab | (or --delimiter). Broken rows are reported with their line and skipped.
Mapping: a header matches a property by slug, then by name (case and spaces ignored);
--map "Header=slug", --map-file, --skip. Unknown columns stop the import (exit 2) unless
--ignore-unknown; on a terminal they are asked about.
Values are typed by the property definitions; empty cells are left out (--empty-as-null
sends null). Lists split on ";" (--array-sep). Dates: YYYY-MM-DD, YYYY/MM/DD,
DD.MM.YYYY, NN/NN/YYYY when unambiguous (else --date-format dmy|mdy), ISO date-times.

Files: failed rows go to FILE.failed.csv (next to FILE; stdin-TIME.failed.csv here for
stdin), ready to fix and import again; --results F writes every row's outcome as NDJSON.
Ctrl-C stops, waits for the chunks in flight, and prints the command to resume.

Exit codes: 0 every row went in, 2 bad input or columns (nothing sent), 5 some rows
failed, 130 interrupted (resume with --resume).

Examples:
  $ ws import contacts people.csv
  $ ws import contacts people.csv --map "E-mail=email" --skip Notes --dedupe-by email
  $ ws import validate deals deals.csv
  $ cat export.csv | ws import contacts - --json`;

function importFlags(cmd: Command): Command {
  return cmd
    .option('--delimiter <char>', 'field delimiter: , ; tab | or any character (default: detected)')
    .option(
      '--encoding <label>',
      'text encoding, e.g. latin1, windows-1252, utf-16le (default utf-8)',
    )
    .option(
      '--map <header=slug>',
      'fill property slug from column Header (repeatable)',
      collect,
      [],
    )
    .option('--map-file <file>', 'column mapping: JSON {"Header": "slug"} or lines Header=slug')
    .option('--save-map <file>', 'save the mapping used (with answers to prompts) to this file')
    .option('--skip <header>', 'leave a column out (repeatable)', collect, [])
    .option('--ignore-unknown', 'leave out columns that match no property')
    .option('--empty-as-null', 'send empty cells as null (default: leave them out)')
    .option('--array-sep <sep>', 'separator of list values in a cell (default ";")')
    .option('--date-format <order>', 'read NN/NN/YYYY dates as dmy or mdy')
    .option('--dedupe-by <slug>', 'match existing records by this property and update them')
    .option('--case-insensitive', 'match --dedupe-by values ignoring case')
    .option('--list-id <id>', 'import into this list (properties scoped to it)')
    .option('--chunk-size <n>', `rows per import call (default ${DEFAULT_CHUNK_SIZE})`)
    .option('--concurrency <n>', `import calls in flight at once (default ${DEFAULT_CONCURRENCY})`)
    .option('--strict', 'stop at the first bad row')
    .option('--failed-file <file>', 'where to write the failed rows (default FILE.failed.csv)')
    .option('--results <file>', "write every row's outcome as NDJSON")
    .addHelpText('after', HELP);
}

function parseOpts(type: string, file: string, o: Raw, cmd: Command, dryRun: boolean): ImportOpts {
  let delimiter: string | undefined;
  if (o.delimiter !== undefined) {
    delimiter = parseDelimiterFlag(String(o.delimiter));
    if (delimiter === undefined) {
      throw new UsageError(
        `--delimiter takes one character (or tab, comma, semicolon, pipe), not "${o.delimiter}".`,
      );
    }
  }
  const dateFormat = str(o.dateFormat)?.toLowerCase();
  if (dateFormat !== undefined && dateFormat !== 'dmy' && dateFormat !== 'mdy') {
    throw new UsageError(
      `--date-format takes dmy (day first: 31/12/2026) or mdy (month first: 12/31/2026), not "${o.dateFormat}".`,
    );
  }
  const listId = str(o.listId);
  if (listId !== undefined && !isUuid(listId)) {
    throw new UsageError(`--list-id "${listId}" is not a list id (a UUID).`);
  }
  if (o.caseInsensitive === true && o.dedupeBy === undefined) {
    throw new UsageError('--case-insensitive applies to --dedupe-by: give --dedupe-by SLUG too.');
  }
  const arraySep = str(o.arraySep) ?? ';';
  if (arraySep === '') throw new UsageError('--array-sep cannot be empty.');
  if (o.resume === true && (dryRun || o.dryRun === true)) {
    throw new UsageError('--resume continues an import; a dry run sends nothing to resume.');
  }
  if (o.resume === true && o.wait === false) {
    throw new UsageError(
      '--resume and --no-wait do not go together.',
      '--no-wait keeps no checkpoint.',
    );
  }
  return {
    type,
    file,
    delimiter,
    encoding: str(o.encoding),
    map: (o.map as string[]).map(parseMapFlag),
    mapFile: str(o.mapFile),
    saveMap: str(o.saveMap),
    skip: o.skip as string[],
    ignoreUnknown: o.ignoreUnknown === true,
    emptyAsNull: o.emptyAsNull === true,
    arraySep,
    dateOrder: dateFormat as 'dmy' | 'mdy' | undefined,
    dedupeBy: str(o.dedupeBy),
    caseInsensitive: o.caseInsensitive === true,
    listId,
    chunkSize: intFlag('--chunk-size', str(o.chunkSize), 1, 100_000) ?? DEFAULT_CHUNK_SIZE,
    concurrency: intFlag('--concurrency', str(o.concurrency), 1, 32) ?? DEFAULT_CONCURRENCY,
    strict: o.strict === true,
    dryRun: dryRun || o.dryRun === true,
    wait: o.wait !== false,
    resume: o.resume === true,
    failedFile: str(o.failedFile),
    results: str(o.results),
    command: commandLine(cmd, dryRun ? ['import', 'validate', type, file] : ['import', type, file]),
  };
}

function quoteArg(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/** The command as typed (options given on the command line), to print how to resume it. */
function commandLine(cmd: Command, head: string[]): string {
  const out = ['ws', ...head];
  const globals = cmd.optsWithGlobals() as Raw;
  if (typeof globals.profile === 'string') out.push('--profile', globals.profile);
  for (const opt of cmd.options) {
    const name = opt.attributeName();
    if (cmd.getOptionValueSource(name) !== 'cli' || name === 'resume') continue;
    const value = cmd.getOptionValue(name) as unknown;
    if (opt.negate) {
      if (value === false) out.push(opt.long!);
    } else if (typeof value === 'boolean') {
      if (value) out.push(opt.long!);
    } else if (Array.isArray(value)) {
      for (const v of value) out.push(opt.long!, String(v));
    } else if (value !== undefined) {
      out.push(opt.long!, String(value));
    }
  }
  return out.map(quoteArg).join(' ');
}

export function registerImport(program: Command, ctx: CommandContext): void {
  const imp = importFlags(
    program
      .command('import')
      .description('Import records from a CSV file (or stdin): ws import TYPE FILE|-')
      .argument('[type]', 'object type of the records')
      .argument('[file]', 'CSV file, or - for stdin'),
  )
    .option('--dry-run', 'check every row without sending anything (same as `ws import validate`)')
    .option('--resume', 'continue an interrupted import after its last finished chunk')
    .option('--no-wait', 'start the import jobs and print their ids without waiting for them')
    .action((type: string | undefined, file: string | undefined, o: Raw, cmd: Command) => {
      if (type === undefined || file === undefined) {
        throw new UsageError(
          type === undefined
            ? 'ws import needs an object type and a file.'
            : 'ws import needs a file (or - for stdin).',
          'Usage: ws import TYPE FILE|-   (see ws import --help)',
        );
      }
      return ctx.invoke(
        cmd,
        async () => (await verbs()).importVerb,
        parseOpts(type, file, o, cmd, false),
      );
    });

  importFlags(
    imp
      .command('validate <type> <file>')
      .description('Check a CSV file against the property definitions without sending anything'),
  ).action((type: string, file: string, o: Raw, cmd: Command) =>
    ctx.invoke(cmd, async () => (await verbs()).importVerb, parseOpts(type, file, o, cmd, true)),
  );

  imp
    .command('status <job>')
    .description('Show an import job; --wait waits until it ends (exit 7 past --timeout)')
    .option('--wait', 'wait until the job is complete or failed')
    .option('--timeout <seconds>', 'with --wait: give up after this many seconds (exit 7)')
    .action((job: string, o: Raw, cmd: Command) => {
      // ws's global --timeout (seconds per request) takes the flag wherever it is written;
      // with --wait it is also how long to wait.
      const t =
        o.wait === true ? str(o.timeout ?? (cmd.optsWithGlobals() as Raw).timeout) : undefined;
      let timeout: number | undefined;
      if (t !== undefined) {
        timeout = Number(t);
        if (!Number.isFinite(timeout) || timeout <= 0) {
          throw new UsageError(`--timeout takes a positive number of seconds, not "${t}".`);
        }
      }
      return ctx.invoke(cmd, async () => (await verbs()).statusVerb, {
        job,
        wait: o.wait === true,
        timeoutSeconds: timeout,
      });
    });

  imp
    .command('jobs')
    .description('List the import jobs started from this machine, newest first')
    .option('--limit <n>', 'show at most N jobs (default 20)')
    .action((o: Raw, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).jobsVerb, {
        limit: intFlag('--limit', str(o.limit), 1) ?? 20,
      }),
    );
}
