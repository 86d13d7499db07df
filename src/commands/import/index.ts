// `ws import TYPE FILE|-`, `ws import validate TYPE FILE|-`, `ws import status JOB`,
// `ws import jobs`.
import type { Command, CommandContext } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import { examples } from '../../help.ts';
import { DEFAULT_CHUNK_SIZE, DEFAULT_CONCURRENCY } from '../../import/defaults.ts';
import { parseDelimiterFlag } from '../../import/delimiter.ts';
import { parseMapFlag } from '../../import/mapping.ts';
import { isUuid } from '../../util/guards.ts';
import { shellWord } from '../../util/shell.ts';
import { describeArguments } from '../common/args.ts';
import { collect, type Flags, flags, givenArgs, type OptionValues } from '../common/flags.ts';
import type { ImportOpts } from './import.ts';

const verbs = () => import('./verbs.ts');

const HELP = `
TYPE is contact, organization, identity, deal, action, document or engagement (singular or
plural; event records have no import).
FILE is a CSV file, or - for stdin.

Reading: UTF-8 (with or without BOM; --encoding for others), the delimiter detected
among , ; tab | (or --delimiter). Broken rows are reported with their line and skipped.
Mapping: a header matches a property by slug, then by name (case and spaces ignored);
--map "Header=slug", --map-file, --skip. Unknown columns stop the import (exit 2) unless
--ignore-unknown; on a terminal they are asked about.
Values are typed by the property definitions; empty cells are left out (--empty-as-null
sends null). A select value that names no option fails its row, unless
--create-missing-options (the import creates the option; a dry run lists them).
--dedupe-by SLUG updates the records it matches; with --no-update it leaves them as they
are (counted as existing, left unchanged). Lists split on ";" (--array-sep). Dates: YYYY-MM-DD, YYYY/MM/DD,
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
    .option('--no-update', 'with --dedupe-by: leave matched records as they are')
    .option(
      '--create-missing-options',
      'create the options that select values name and their property lacks',
    )
    .option('--list-id <id>', 'import into this list (properties scoped to it)')
    .option(
      '--chunk-size <n>',
      `rows per import call (default ${DEFAULT_CHUNK_SIZE}, or that of the interrupted import)`,
    )
    .option('--concurrency <n>', `import calls in flight at once (default ${DEFAULT_CONCURRENCY})`)
    .option('--strict', 'stop at the first bad row')
    .option('--failed-file <file>', 'where to write the failed rows (default FILE.failed.csv)')
    .option('--results <file>', "write every row's outcome as NDJSON")
    .addHelpText('after', HELP);
}

function parseOpts(
  type: string,
  file: string,
  f: Flags,
  cmd: Command,
  validate: boolean,
): ImportOpts {
  let delimiter: string | undefined;
  const delimiterFlag = f.string('--delimiter');
  if (delimiterFlag !== undefined) {
    delimiter = parseDelimiterFlag(delimiterFlag);
    if (delimiter === undefined) {
      throw new UsageError(
        `--delimiter takes one character (or tab, comma, semicolon, pipe), not "${delimiterFlag}".`,
      );
    }
  }
  const dateFormat = f.string('--date-format');
  const dateOrder = dateFormat?.toLowerCase();
  if (dateOrder !== undefined && dateOrder !== 'dmy' && dateOrder !== 'mdy') {
    throw new UsageError(
      `--date-format takes dmy (day first: 31/12/2026) or mdy (month first: 12/31/2026), not "${dateFormat}".`,
    );
  }
  const listId = f.string('--list-id');
  if (listId !== undefined && !isUuid(listId)) {
    throw new UsageError(`--list-id "${listId}" is not a list id (a UUID).`);
  }
  const dedupeBy = f.string('--dedupe-by');
  if (f.boolean('--case-insensitive') && dedupeBy === undefined) {
    throw new UsageError('--case-insensitive applies to --dedupe-by: give --dedupe-by SLUG too.');
  }
  const noUpdate = f.toggle('--update') === false;
  if (noUpdate && dedupeBy === undefined) {
    throw new UsageError(
      '--no-update applies to --dedupe-by: without it no row matches an existing record.',
      'Give --dedupe-by SLUG too.',
    );
  }
  const arraySep = f.string('--array-sep') ?? ';';
  if (arraySep === '') throw new UsageError('--array-sep cannot be empty.');
  const dryRun = validate || f.boolean('--dry-run');
  const resume = f.boolean('--resume');
  const wait = f.toggle('--wait') !== false;
  if (resume && dryRun) {
    throw new UsageError('--resume continues an import; a dry run sends nothing to resume.');
  }
  if (resume && !wait) {
    throw new UsageError(
      '--resume and --no-wait do not go together.',
      '--no-wait keeps no checkpoint.',
    );
  }
  return {
    type,
    file,
    delimiter,
    encoding: f.string('--encoding'),
    map: f.list('--map').map(parseMapFlag),
    mapFile: f.string('--map-file'),
    saveMap: f.string('--save-map'),
    skip: f.list('--skip'),
    ignoreUnknown: f.boolean('--ignore-unknown'),
    emptyAsNull: f.boolean('--empty-as-null'),
    arraySep,
    dateOrder: dateOrder as 'dmy' | 'mdy' | undefined,
    dedupeBy,
    caseInsensitive: f.boolean('--case-insensitive'),
    noUpdate,
    createMissingOptions: f.boolean('--create-missing-options'),
    listId,
    chunkSize: f.integer('--chunk-size', 1, 100_000),
    concurrency: f.integer('--concurrency', 1, 32) ?? DEFAULT_CONCURRENCY,
    strict: f.boolean('--strict'),
    dryRun,
    wait,
    resume,
    failedFile: f.string('--failed-file'),
    results: f.string('--results'),
    command: commandLine(
      cmd,
      validate ? ['import', 'validate', type, file] : ['import', type, file],
    ),
    again: againWords(cmd, validate ? ['import', 'validate', type] : ['import', type]),
  };
}

/**
 * The words of this command run on another file (the failed rows): the same flags, but not
 * those that name this run's own files or continue it (--failed-file, --results,
 * --save-map, --resume). The file goes after the last word of `head`.
 */
function againWords(cmd: Command, head: string[]): { head: string[]; args: string[] } {
  const profile = flags(cmd.optsWithGlobals()).string('--profile');
  return {
    head: ['ws', ...head],
    args: [
      ...(profile !== undefined ? ['--profile', profile] : []),
      ...givenArgs(cmd, ['--resume', '--failed-file', '--results', '--save-map']),
    ],
  };
}

/** The command as typed (options given on the command line), to print how to resume it. */
function commandLine(cmd: Command, head: string[]): string {
  const profile = flags(cmd.optsWithGlobals()).string('--profile');
  return [
    'ws',
    ...head,
    ...(profile !== undefined ? ['--profile', profile] : []),
    ...givenArgs(cmd, ['--resume']),
  ]
    .map(shellWord)
    .join(' ');
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
    .action((type: string | undefined, file: string | undefined, o: OptionValues, cmd: Command) => {
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
        parseOpts(type, file, flags(o), cmd, false),
      );
    });

  importFlags(
    imp
      .command('validate <type> <file>')
      .description('Check a CSV file against the property definitions without sending anything'),
  ).action((type: string, file: string, _o: OptionValues, cmd: Command) => {
    // `import` has the same flags and commander gives them to it wherever they are written
    // (global flags must stay usable after a verb), so validate reads them there: its own
    // stay empty, and are declared for its help.
    const parent = cmd.parent!;
    return ctx.invoke(
      cmd,
      async () => (await verbs()).importVerb,
      parseOpts(type, file, flags(parent.opts()), parent, true),
    );
  });

  imp
    .command('status <job>')
    .description('Show an import job; --wait waits until it ends (exit 7 past --timeout)')
    .option('--wait', 'wait until the job is complete or failed')
    .option('--timeout <seconds>', 'with --wait: give up after this many seconds (exit 7)')
    .addHelpText(
      'after',
      examples([
        'ws import status imp_0123456789abcdef',
        'ws import status imp_0123456789abcdef --wait --timeout 600',
        'ws import status imp_0123456789abcdef --json > job.json',
      ]),
    )
    .action((job: string, o: OptionValues, cmd: Command) => {
      const f = flags(o);
      const wait = f.boolean('--wait');
      // ws's global --timeout (seconds per request) takes the flag wherever it is written;
      // with --wait it is also how long to wait.
      const t = wait
        ? (f.string('--timeout') ?? flags(cmd.optsWithGlobals()).string('--timeout'))
        : undefined;
      let timeout: number | undefined;
      if (t !== undefined) {
        timeout = Number(t);
        if (!Number.isFinite(timeout) || timeout <= 0) {
          throw new UsageError(`--timeout takes a positive number of seconds, not "${t}".`);
        }
      }
      return ctx.invoke(cmd, async () => (await verbs()).statusVerb, {
        job,
        wait,
        timeoutSeconds: timeout,
      });
    });

  imp
    .command('jobs')
    .description('List the import jobs started from this machine, newest first')
    .option('--limit <n>', 'show at most N jobs (default 20)')
    .addHelpText('after', examples(['ws import jobs', 'ws import jobs --limit 5 --json']))
    .action((o: OptionValues, cmd: Command) =>
      ctx.invoke(cmd, async () => (await verbs()).jobsVerb, {
        limit: flags(o).integer('--limit', 1) ?? 20,
      }),
    );

  describeArguments(imp, 'record', {
    file: 'a CSV file, or - for stdin',
    job: 'an import job id (imp_…), as printed by --no-wait or `ws import jobs`',
  });
}
