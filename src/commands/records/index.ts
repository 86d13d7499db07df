// `ws records …`: the flags of each verb, read into its options. The filter and page flags
// come from ../common/list-flags.ts, shared with the other nouns that list.
import type { Command, CommandContext } from '../../command.ts';
import { Option, settleVerbs, verb } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import { examples } from '../../help.ts';
import { WHERE_SYNTAX } from '../../query/where.ts';
import { shellWord } from '../../util/shell.ts';
import { describeArguments } from '../common/args.ts';
import { collect, type Flags } from '../common/flags.ts';
import { pageFlags, pageOptions, whereFlags, whereOptions } from '../common/list-flags.ts';
import { nounOf, verbsOf } from '../common/verb-spec.ts';
import { MAX_CONCURRENCY } from './limits.ts';
import type { ReadFlags } from './read.ts';
import { registerWatch } from './watch-verb.ts';

const verbs = () => import('./verbs.ts');

const RECORDS = { one: 'record', many: 'records' };
const INPUT_FORMATS = ['csv', 'ndjson', 'json'] as const;

const VALUES_HELP = `
Values (--set slug=value, repeatable) are typed by the property's definition:
  numbers (amount=1500.5), booleans (true/false, yes/no), dates (2026-03-31 or
  2026-03-31T09:30:00Z), select options by slug or display value (stage=Won),
  multiselect as comma-separated options (tags=vip,partner), references as record ids;
  null clears a value. slug:=JSON sends raw JSON. A value that does not fit is an error
  before anything is sent. --data JSON|@FILE|- gives the raw values map instead.`;

const FILTER_HELP = `
Filters: --where (repeatable; AND, or OR with --or; quote it for the shell).
${WHERE_SYNTAX}
Also SLUG:is_null, SLUG:between=LOW,HIGH, SLUG:in=A,B. --filter-json takes the API's array.`;

function setFlags(cmd: Command): Command {
  return cmd
    .option(
      '--set <slug=value>',
      'a property value, typed by its definition (repeatable)',
      collect,
      [],
    )
    .option('--data <json>', 'the raw values map: JSON, @FILE or - for stdin');
}

function setOptions(f: Flags) {
  return { set: f.list('--set'), data: f.string('--data') };
}

/**
 * create and update write what they are given: neither --set nor --data is a usage error for
 * both (an empty record is asked for explicitly, with --data '{}').
 */
function valuesToWrite(f: Flags, verb: 'create' | 'update', args: readonly string[]) {
  const values = setOptions(f);
  if (values.set.length === 0 && values.data === undefined) {
    const example = ['ws', 'records', verb, ...args].map(shellWord).join(' ');
    throw new UsageError(
      `Nothing to ${verb}: give --set slug=value (repeatable) or --data JSON.`,
      `For example: ${example} --set name="Ada Lovelace"${verb === 'create' ? `; --data '{}' creates a record with no values` : ''}.`,
    );
  }
  return values;
}

/** The filter flags, with --deleted and --list-id. */
function filterFlags(cmd: Command): Command {
  return whereFlags(cmd)
    .option('--deleted', 'include soft-deleted records')
    .option('--list-id <id>', 'scope properties to a list');
}

function readFlags(cmd: Command): Command {
  return filterFlags(cmd)
    .option(
      '--select <slugs>',
      'comma-separated property slugs to return (dot-paths follow references)',
    )
    .option('--sort <slugs>', 'comma-separated slugs, - for descending, e.g. -amount,name');
}

function listFlags(cmd: Command): Command {
  return pageFlags(readFlags(cmd), RECORDS, 50).option(
    '--total',
    'also ask for the total (printed on stderr)',
  );
}

function readOptions(f: Flags): ReadFlags {
  return {
    ...whereOptions(f),
    select: f.string('--select'),
    sort: f.string('--sort'),
    deleted: f.boolean('--deleted'),
    listId: f.string('--list-id'),
    body: f.string('--body'),
  };
}

function listOptions(f: Flags) {
  return { ...readOptions(f), ...pageOptions(f), total: f.boolean('--total') };
}

function batchFlags(cmd: Command): Command {
  return cmd
    .option(
      '--concurrency <n>',
      `chunks of 100 sent at once, 1 to ${MAX_CONCURRENCY} (default 4; the profile's rate limit still paces requests)`,
    )
    .option('--report <file>', 'write every result to FILE as NDJSON');
}

function batchOptions(f: Flags) {
  return {
    concurrency: f.integer('--concurrency', 1, MAX_CONCURRENCY),
    report: f.string('--report'),
  };
}

export function register(program: Command, ctx: CommandContext): void {
  const { noun: records, define } = nounOf(program, ctx, verbs, ['records', 'record'], {
    description: 'Records of an object type: list, read, create, change, delete, export',
    examples: [
      'ws records list contacts --limit 5',
      'ws records get contact ID',
      'ws records create contact --set name="Ada Lovelace" --set email=ada@example.com',
    ],
  });

  define(['list <type>', 'ls'], {
    description: 'List records (streamed page by page)',
    flags: listFlags,
    help: `\nWithout --where the list endpoint is read (GET); with it, the query endpoint (POST).\nTable columns: id and a few properties (--select or --fields to choose).\n${FILTER_HELP}`,
    examples: [
      'ws records list contacts',
      "ws records list deals --where 'amount>=1000' --where stage:in=won,lost --sort -amount --limit 200",
      'ws records list contacts --all --format ndjson > contacts.ndjson',
      "ws records list contacts --where 'email$=@example.com' --format tsv --fields id",
    ],
    run: 'listVerb',
    options: ([type], f) => ({ type, ...listOptions(f) }),
  });

  define(['query <type>'], {
    description: 'Query records through the query endpoint (POST), with a raw body if needed',
    flags: (cmd) =>
      listFlags(cmd).option(
        '--body <json>',
        'a query body (JSON, @FILE or -); the flags override its fields',
      ),
    help: FILTER_HELP,
    examples: [
      "ws records query deals --where 'name~acme' --select name,amount,organization.name",
      `ws records query contacts --body '{"query":{"select":["name"]},"id":["ID1","ID2"]}'`,
    ],
    run: 'queryVerb',
    options: ([type], f) => ({ type, ...listOptions(f) }),
  });

  define(['count <type>'], {
    description: 'Count records (with --where: those that match)',
    flags: filterFlags,
    help: '\nWithout a filter the count endpoint answers; with --where, --filter-json or --deleted,\na query of one record that asks for the total.',
    examples: ['ws records count contacts', 'ws records count deals --where stage=won'],
    run: 'countVerb',
    options: ([type], f) => {
      const { select: _s, sort: _o, body: _b, ...rest } = readOptions(f);
      return { type, ...rest };
    },
  });

  define(['get <type> <id>'], {
    description: 'Show a record and its etag (--json: the record plus "etag")',
    flags: (cmd) => cmd.option('--select <slugs>', 'comma-separated property slugs to return'),
    examples: [
      'ws records get contact 7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a',
      'ws records get deal ID --json',
      'ws records get deal ID --select name,amount,organization.name',
      'etag=$(ws records get deal ID --fields etag)',
    ],
    run: 'getVerb',
    options: ([type, id], f) => ({ type, id, select: f.string('--select') }),
  });

  define(['create <type>'], {
    description: 'Create a record',
    flags: setFlags,
    help: VALUES_HELP,
    examples: [
      'ws records create contact --set name="Ada Lovelace" --set email=ada@example.com --set tags=vip',
      `ws records create deal --data '{"name":"Big deal","amount":12000}'`,
      'id=$(ws records create contact --set name=Ada --fields id)',
    ],
    run: 'createVerb',
    options: ([type], f) => ({ type, ...valuesToWrite(f, 'create', [type]) }),
  });

  define(['update <type> <id>'], {
    description: 'Change some values of a record',
    flags: (cmd) =>
      setFlags(cmd).option(
        '--if-match <etag>',
        'only if the record is still at this version (else exit 6)',
      ),
    help: VALUES_HELP,
    examples: [
      'ws records update deal ID --set stage=won --set amount=12000',
      'ws records update deal ID --set stage=won --if-match "$etag"',
      'ws records update contact ID --set phone=null',
    ],
    run: 'updateVerb',
    options: ([type, id], f) => ({
      type,
      id,
      ...valuesToWrite(f, 'update', [type, id]),
      ifMatch: f.string('--if-match'),
    }),
  });

  define(['delete <type> [id]', 'rm'], {
    description:
      'Delete a record, or those a filter matches (soft: restore brings them back); asks first, --yes to skip',
    flags: (cmd) =>
      batchFlags(
        whereFlags(cmd, 'status=churned')
          .option('--if-match <etag>', 'only if the record is still at this version (else exit 6)')
          .option('--list-id <id>', 'scope properties to a list')
          .option('--dry-run', 'show what would be deleted (the count and a few); delete nothing'),
      ),
    help: `\nWith --where (or --filter-json) instead of an id: the count and the first few records that
match are shown, then confirmed (a prompt at a terminal, --yes otherwise); they are deleted
100 per request as batch-delete does.\n${FILTER_HELP}`,
    examples: [
      'ws records delete contact ID',
      'ws records delete contact ID --yes --json',
      "ws records delete contacts --where status=churned --where 'score<10'",
      'ws records delete deals --where stage=lost --dry-run',
      'ws records delete deals --where stage=lost --yes --report deleted.ndjson',
    ],
    run: 'deleteVerb',
    options: ([type, id], f) => ({
      type,
      id: id as string | undefined, // an optional operand: undefined when not given
      ifMatch: f.string('--if-match'),
      ...whereOptions(f),
      listId: f.string('--list-id'),
      dryRun: f.boolean('--dry-run'),
      ...batchOptions(f),
    }),
  });

  define(['restore <type> <id>'], {
    description: 'Restore a deleted record',
    examples: ['ws records restore contact ID'],
    run: 'restoreVerb',
    options: ([type, id]) => ({ type, id }),
  });

  define(['duplicate <type> <id>'], {
    description: 'Copy a record into a new one',
    examples: ['ws records duplicate deal ID', 'copy=$(ws records duplicate deal ID --fields id)'],
    run: 'duplicateVerb',
    options: ([type, id]) => ({ type, id }),
  });

  define(['find <type> <slug> <value>'], {
    description: 'The one record whose property equals a value (none: exit 4; several: exit 6)',
    flags: (cmd) => cmd.option('--list-id <id>', 'scope properties to a list'),
    examples: [
      'ws records find contacts email ada@example.com',
      'ws records find deals stage Won --json',
    ],
    run: 'findVerb',
    options: ([type, slug, value], f) => ({ type, slug, value, listId: f.string('--list-id') }),
  });

  define(['upsert <type> <slug> <value>'], {
    description:
      'Update the one record whose property equals a value, or create it (several: exit 6)',
    flags: setFlags,
    help: VALUES_HELP,
    examples: ['ws records upsert contacts email ada@example.com --set name="Ada Lovelace"'],
    run: 'upsertVerb',
    options: ([type, slug, value], f) => ({ type, slug, value, ...setOptions(f) }),
  });

  define(['batch-update <type>'], {
    description: 'Change many records from a file: 100 per request, several at once',
    flags: (cmd) =>
      batchFlags(cmd)
        .option(
          '-f, --file <file>',
          'CSV (id column, then slugs), NDJSON or a JSON array; - for stdin',
        )
        .addOption(
          new Option(
            '--input-format <format>',
            'the format of --file (default: by extension, then content)',
          ).choices(INPUT_FORMATS),
        )
        .option('--dry-run', 'read the records and show what would change; send nothing'),
    help: `\nCSV cells are typed like --set values (lists separated by ";"); an empty cell leaves\nthe value as it is, null clears it. JSON items: {"id": …, "slug": value} (or "default"/"properties" maps).
Failed items are listed on stderr; exit 5 when any failed.`,
    examples: [
      'ws records batch-update contacts -f changes.csv --dry-run',
      'ws records batch-update contacts -f changes.csv --report results.ndjson',
      'ws records list contacts --format ndjson > all.ndjson   # edit, then:',
      'ws records batch-update contacts -f all.ndjson --concurrency 8',
    ],
    run: 'batchUpdateVerb',
    options: ([type], f) => ({
      type,
      file: f.string('--file'),
      inputFormat: f.choice('--input-format', INPUT_FORMATS),
      dryRun: f.boolean('--dry-run'),
      ...batchOptions(f),
    }),
  });

  define(['batch-delete <type> [ids...]'], {
    description: 'Delete many records: 100 per request, several at once; asks first, --yes to skip',
    flags: (cmd) =>
      batchFlags(cmd)
        .option('-f, --file <file>', 'one id a line (the first tab-separated field); - for stdin')
        .option('--dry-run', 'read the records and show which would be deleted; send nothing'),
    examples: [
      'ws records batch-delete contacts ID1 ID2 --yes',
      'ws records batch-delete contacts -f ids.txt --dry-run',
      'ws records list contacts --where status=churned --all --format tsv --fields id \\\n      | ws records batch-delete contacts -f - --yes',
    ],
    run: 'batchDeleteVerb',
    options: ([type, ...ids], f) => ({
      type,
      ids,
      file: f.string('--file'),
      dryRun: f.boolean('--dry-run'),
      ...batchOptions(f),
    }),
  });

  define(['export <type>'], {
    description: 'Write every record to a file ws import reads back (csv, ndjson or json)',
    flags: (cmd) =>
      readFlags(cmd)
        .option(
          '-o, --output <file>',
          'write to FILE (replaced only once complete) instead of stdout',
        )
        .option('--raw', 'do not neutralise cells a spreadsheet would run as a formula'),
    help: `\nThe format is --format csv|ndjson|json, else the --output extension, else csv.
CSV: id, then property slugs; select values as slugs; lists joined with ";"; references as ids.
Cells starting with = + - @ (not numbers), a tab or CR get a leading ' unless --raw.\n${FILTER_HELP}`,
    examples: [
      'ws records export deals --where stage=won -o won.csv',
      'ws records export contacts --format ndjson > contacts.ndjson',
      'ws records export contacts --select name,email -o contacts.csv',
    ],
    run: 'exportVerb',
    options: ([type], f) => ({
      type,
      ...readOptions(f),
      output: f.string('--output'),
      raw: f.boolean('--raw'),
    }),
  });

  define(['edit <type> <id>'], {
    description: "Edit a record's values as YAML in $VISUAL or $EDITOR; sends what changed",
    flags: (cmd) =>
      cmd.option('--from <file>', 'start from this file (kept by an edit that met a conflict)'),
    help: '\nChanges go with If-Match: if the record changed meanwhile, nothing is sent, your\nchanges are kept in a file on top of the current values, and the command to go on is printed.',
    examples: [
      'ws records edit contact ID',
      'EDITOR=nano ws records edit deal ID',
      'ws records edit contact ID --from /tmp/ws-edit-contact-ID.yaml',
    ],
    run: 'editVerb',
    options: ([type, id], f) => ({ type, id, from: f.string('--from') }),
  });

  verb(records, ['grant'], (cmd) => {
    const grant = cmd
      .description(
        'Who may see a record (deal, action, document, event, engagement, identity) or a message',
      )
      .addHelpText(
        'after',
        examples(['ws records grant get deal ID', 'ws records grant set deal ID --team ID=r']),
      );
    const defineGrant = verbsOf(grant, ctx, verbs);
    defineGrant(['get <type> <id>'], {
      description: 'Show the grant of a record or a message',
      examples: [
        'ws records grant get deal ID',
        'ws records grant get action ID --json',
        'ws records grant get message ID',
      ],
      run: 'grantVerb',
      options: ([type, id]) => ({ action: 'get' as const, type, id }),
    });
    defineGrant(['set <type> <id>'], {
      description: 'Replace the grant of a record or a message',
      flags: (cmd) =>
        cmd
          .option(
            '--user <id=letter>',
            'a user and its permission letter a, r or w (repeatable)',
            collect,
            [],
          )
          .option(
            '--team <id=letter>',
            'a team and its permission letter (repeatable)',
            collect,
            [],
          )
          .option(
            '--group <id=letter>',
            'a group and its permission letter (repeatable)',
            collect,
            [],
          )
          .addOption(new Option('--share-level <level>', 'metadata or full'))
          .option('--data <json>', 'the grant body: JSON, @FILE or -'),
      help: '\nThe whole grant is replaced.',
      examples: [
        'ws records grant set deal ID --user 0c1d…=w --team 9e2f…=r --share-level full',
        'ws records grant set action ID --data @grant.json',
        'ws records grant set message ID --group 9e2f…=r --share-level metadata',
      ],
      run: 'grantVerb',
      options: ([type, id], f) => ({
        action: 'set' as const,
        type,
        id,
        user: f.list('--user'),
        team: f.list('--team'),
        group: f.list('--group'),
        shareLevel: f.string('--share-level'),
        data: f.string('--data'),
      }),
    });

    describeArguments(grant, undefined, {
      type: 'deal, action, document, event, engagement, identity or message (singular or plural)',
    });
  });
  registerWatch(records, ctx);
  settleVerbs(records);
  describeArguments(records, 'record', {
    value: 'the value to match, typed like a --set value',
  });
}
