// `ws records …`: the flags of each verb, read into its options. The filter and page flags
// come from ../common/list-flags.ts, shared with the other nouns that list.
import type { Command, CommandContext } from '../../command.ts';
import { Option, settleVerbs, verb } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import { examples } from '../../help.ts';
import { WHERE_SYNTAX } from '../../query/where.ts';
import { shellWord } from '../../util/shell.ts';
import { describeArguments } from '../common/args.ts';
import { collect, type Flags, flags, type OptionValues } from '../common/flags.ts';
import { pageFlags, pageOptions, whereFlags, whereOptions } from '../common/list-flags.ts';
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
  const records = program
    .command('records')
    .alias('record')
    .description('Records of an object type: list, read, create, change, delete, export')
    .addHelpText(
      'after',
      examples([
        'ws records list contacts --limit 5',
        'ws records get contact ID',
        'ws records create contact --set name="Ada Lovelace" --set email=ada@example.com',
      ]),
    );

  verb(records, ['list <type>', 'ls'], (cmd) =>
    listFlags(cmd.description('List records (streamed page by page)'))
      .addHelpText(
        'after',
        `\nWithout --where the list endpoint is read (GET); with it, the query endpoint (POST).\nTable columns: id and a few properties (--select or --fields to choose).\n${FILTER_HELP}`,
      )
      .addHelpText(
        'after',
        examples([
          'ws records list contacts',
          "ws records list deals --where 'amount>=1000' --where stage:in=won,lost --sort -amount --limit 200",
          'ws records list contacts --all --format ndjson > contacts.ndjson',
          "ws records list contacts --where 'email$=@example.com' --format tsv --fields id",
        ]),
      )
      .action((type: string, o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).listVerb, { type, ...listOptions(flags(o)) }),
      ),
  );

  verb(records, ['query <type>'], (cmd) =>
    listFlags(
      cmd.description('Query records through the query endpoint (POST), with a raw body if needed'),
    )
      .option('--body <json>', 'a query body (JSON, @FILE or -); the flags override its fields')
      .addHelpText('after', FILTER_HELP)
      .addHelpText(
        'after',
        examples([
          "ws records query deals --where 'name~acme' --select name,amount,organization.name",
          `ws records query contacts --body '{"query":{"select":["name"]},"id":["ID1","ID2"]}'`,
        ]),
      )
      .action((type: string, o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).queryVerb, { type, ...listOptions(flags(o)) }),
      ),
  );

  verb(records, ['count <type>'], (cmd) =>
    filterFlags(cmd.description('Count records (with --where: those that match)'))
      .addHelpText(
        'after',
        '\nWithout a filter the count endpoint answers; with --where, --filter-json or --deleted,\na query of one record that asks for the total.',
      )
      .addHelpText(
        'after',
        examples(['ws records count contacts', 'ws records count deals --where stage=won']),
      )
      .action((type: string, o: OptionValues, cmd: Command) => {
        const { select: _s, sort: _o, body: _b, ...rest } = readOptions(flags(o));
        return ctx.invoke(cmd, async () => (await verbs()).countVerb, { type, ...rest });
      }),
  );

  verb(records, ['get <type> <id>'], (cmd) =>
    cmd
      .description('Show a record and its etag (--json: the record plus "etag")')
      .option('--select <slugs>', 'comma-separated property slugs to return')
      .addHelpText(
        'after',
        examples([
          'ws records get contact 7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a',
          'ws records get deal ID --json',
          'ws records get deal ID --select name,amount,organization.name',
          'etag=$(ws records get deal ID --fields etag)',
        ]),
      )
      .action((type: string, id: string, o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).getVerb, {
          type,
          id,
          select: flags(o).string('--select'),
        }),
      ),
  );

  verb(records, ['create <type>'], (cmd) =>
    setFlags(cmd.description('Create a record'))
      .addHelpText('after', VALUES_HELP)
      .addHelpText(
        'after',
        examples([
          'ws records create contact --set name="Ada Lovelace" --set email=ada@example.com --set tags=vip',
          `ws records create deal --data '{"name":"Big deal","amount":12000}'`,
          'id=$(ws records create contact --set name=Ada --fields id)',
        ]),
      )
      .action((type: string, o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).createVerb, {
          type,
          ...valuesToWrite(flags(o), 'create', [type]),
        }),
      ),
  );

  verb(records, ['update <type> <id>'], (cmd) =>
    setFlags(cmd.description('Change some values of a record'))
      .option('--if-match <etag>', 'only if the record is still at this version (else exit 6)')
      .addHelpText('after', VALUES_HELP)
      .addHelpText(
        'after',
        examples([
          'ws records update deal ID --set stage=won --set amount=12000',
          'ws records update deal ID --set stage=won --if-match "$etag"',
          'ws records update contact ID --set phone=null',
        ]),
      )
      .action((type: string, id: string, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, async () => (await verbs()).updateVerb, {
          type,
          id,
          ...valuesToWrite(f, 'update', [type, id]),
          ifMatch: f.string('--if-match'),
        });
      }),
  );

  verb(records, ['delete <type> [id]', 'rm'], (cmd) =>
    batchFlags(
      whereFlags(
        cmd.description(
          'Delete a record, or those a filter matches (soft: restore brings them back); asks first, --yes to skip',
        ),
        'status=churned',
      )
        .option('--if-match <etag>', 'only if the record is still at this version (else exit 6)')
        .option('--list-id <id>', 'scope properties to a list')
        .option('--dry-run', 'show what would be deleted (the count and a few); delete nothing'),
    )
      .addHelpText(
        'after',
        `\nWith --where (or --filter-json) instead of an id: the count and the first few records that
match are shown, then confirmed (a prompt at a terminal, --yes otherwise); they are deleted
100 per request as batch-delete does.\n${FILTER_HELP}`,
      )
      .addHelpText(
        'after',
        examples([
          'ws records delete contact ID',
          'ws records delete contact ID --yes --json',
          "ws records delete contacts --where status=churned --where 'score<10'",
          'ws records delete deals --where stage=lost --dry-run',
          'ws records delete deals --where stage=lost --yes --report deleted.ndjson',
        ]),
      )
      .action((type: string, id: string | undefined, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, async () => (await verbs()).deleteVerb, {
          type,
          id,
          ifMatch: f.string('--if-match'),
          ...whereOptions(f),
          listId: f.string('--list-id'),
          dryRun: f.boolean('--dry-run'),
          ...batchOptions(f),
        });
      }),
  );

  verb(records, ['restore <type> <id>'], (cmd) =>
    cmd
      .description('Restore a deleted record')
      .addHelpText('after', examples(['ws records restore contact ID']))
      .action((type: string, id: string, _o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).restoreVerb, { type, id }),
      ),
  );

  verb(records, ['duplicate <type> <id>'], (cmd) =>
    cmd
      .description('Copy a record into a new one')
      .addHelpText(
        'after',
        examples([
          'ws records duplicate deal ID',
          'copy=$(ws records duplicate deal ID --fields id)',
        ]),
      )
      .action((type: string, id: string, _o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).duplicateVerb, { type, id }),
      ),
  );

  verb(records, ['find <type> <slug> <value>'], (cmd) =>
    cmd
      .description('The one record whose property equals a value (none: exit 4; several: exit 6)')
      .option('--list-id <id>', 'scope properties to a list')
      .addHelpText(
        'after',
        examples([
          'ws records find contacts email ada@example.com',
          'ws records find deals stage Won --json',
        ]),
      )
      .action((type: string, slug: string, value: string, o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).findVerb, {
          type,
          slug,
          value,
          listId: flags(o).string('--list-id'),
        }),
      ),
  );

  verb(records, ['upsert <type> <slug> <value>'], (cmd) =>
    setFlags(
      cmd.description(
        'Update the one record whose property equals a value, or create it (several: exit 6)',
      ),
    )
      .addHelpText('after', VALUES_HELP)
      .addHelpText(
        'after',
        examples(['ws records upsert contacts email ada@example.com --set name="Ada Lovelace"']),
      )
      .action((type: string, slug: string, value: string, o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).upsertVerb, {
          type,
          slug,
          value,
          ...setOptions(flags(o)),
        }),
      ),
  );

  verb(records, ['batch-update <type>'], (cmd) =>
    batchFlags(cmd.description('Change many records from a file: 100 per request, several at once'))
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
      .addHelpText(
        'after',
        `\nCSV cells are typed like --set values (lists separated by ";"); an empty cell leaves\nthe value as it is, null clears it. JSON items: {"id": …, "slug": value} (or "default"/"properties" maps).
Failed items are listed on stderr; exit 5 when any failed.`,
      )
      .option('--dry-run', 'read the records and show what would change; send nothing')
      .addHelpText(
        'after',
        examples([
          'ws records batch-update contacts -f changes.csv --dry-run',
          'ws records batch-update contacts -f changes.csv --report results.ndjson',
          'ws records list contacts --format ndjson > all.ndjson   # edit, then:',
          'ws records batch-update contacts -f all.ndjson --concurrency 8',
        ]),
      )
      .action((type: string, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, async () => (await verbs()).batchUpdateVerb, {
          type,
          file: f.string('--file'),
          inputFormat: f.choice('--input-format', INPUT_FORMATS),
          dryRun: f.boolean('--dry-run'),
          ...batchOptions(f),
        });
      }),
  );

  verb(records, ['batch-delete <type> [ids...]'], (cmd) =>
    batchFlags(
      cmd.description(
        'Delete many records: 100 per request, several at once; asks first, --yes to skip',
      ),
    )
      .option('-f, --file <file>', 'one id a line (the first tab-separated field); - for stdin')
      .option('--dry-run', 'read the records and show which would be deleted; send nothing')
      .addHelpText(
        'after',
        examples([
          'ws records batch-delete contacts ID1 ID2 --yes',
          'ws records batch-delete contacts -f ids.txt --dry-run',
          'ws records list contacts --where status=churned --all --format tsv --fields id \\\n      | ws records batch-delete contacts -f - --yes',
        ]),
      )
      .action((type: string, ids: string[], o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, async () => (await verbs()).batchDeleteVerb, {
          type,
          ids,
          file: f.string('--file'),
          dryRun: f.boolean('--dry-run'),
          ...batchOptions(f),
        });
      }),
  );

  verb(records, ['export <type>'], (cmd) =>
    readFlags(
      cmd.description('Write every record to a file ws import reads back (csv, ndjson or json)'),
    )
      .option(
        '-o, --output <file>',
        'write to FILE (replaced only once complete) instead of stdout',
      )
      .option('--raw', 'do not neutralise cells a spreadsheet would run as a formula')
      .addHelpText(
        'after',
        `\nThe format is --format csv|ndjson|json, else the --output extension, else csv.
CSV: id, then property slugs; select values as slugs; lists joined with ";"; references as ids.
Cells starting with = + - @ (not numbers), a tab or CR get a leading ' unless --raw.\n${FILTER_HELP}`,
      )
      .addHelpText(
        'after',
        examples([
          'ws records export deals --where stage=won -o won.csv',
          'ws records export contacts --format ndjson > contacts.ndjson',
          'ws records export contacts --select name,email -o contacts.csv',
        ]),
      )
      .action((type: string, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, async () => (await verbs()).exportVerb, {
          type,
          ...readOptions(f),
          output: f.string('--output'),
          raw: f.boolean('--raw'),
        });
      }),
  );

  verb(records, ['edit <type> <id>'], (cmd) =>
    cmd
      .description("Edit a record's values as YAML in $VISUAL or $EDITOR; sends what changed")
      .option('--from <file>', 'start from this file (kept by an edit that met a conflict)')
      .addHelpText(
        'after',
        '\nChanges go with If-Match: if the record changed meanwhile, nothing is sent, your\nchanges are kept in a file on top of the current values, and the command to go on is printed.',
      )
      .addHelpText(
        'after',
        examples([
          'ws records edit contact ID',
          'EDITOR=nano ws records edit deal ID',
          'ws records edit contact ID --from /tmp/ws-edit-contact-ID.yaml',
        ]),
      )
      .action((type: string, id: string, o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).editVerb, {
          type,
          id,
          from: flags(o).string('--from'),
        }),
      ),
  );

  verb(records, ['grant'], (cmd) => {
    const grant = cmd
      .description(
        'Who may see a record (deal, action, document, event, engagement, identity) or a message',
      )
      .addHelpText(
        'after',
        examples(['ws records grant get deal ID', 'ws records grant set deal ID --team ID=r']),
      );
    grant
      .command('get <type> <id>')
      .description('Show the grant of a record or a message')
      .addHelpText(
        'after',
        examples([
          'ws records grant get deal ID',
          'ws records grant get action ID --json',
          'ws records grant get message ID',
        ]),
      )
      .action((type: string, id: string, _o: OptionValues, cmd: Command) =>
        ctx.invoke(cmd, async () => (await verbs()).grantVerb, {
          action: 'get' as const,
          type,
          id,
        }),
      );
    grant
      .command('set <type> <id>')
      .description('Replace the grant of a record or a message')
      .option(
        '--user <id=letter>',
        'a user and its permission letter a, r or w (repeatable)',
        collect,
        [],
      )
      .option('--team <id=letter>', 'a team and its permission letter (repeatable)', collect, [])
      .option('--group <id=letter>', 'a group and its permission letter (repeatable)', collect, [])
      .addOption(new Option('--share-level <level>', 'metadata or full'))
      .option('--data <json>', 'the grant body: JSON, @FILE or -')
      .addHelpText('after', '\nThe whole grant is replaced.')
      .addHelpText(
        'after',
        examples([
          'ws records grant set deal ID --user 0c1d…=w --team 9e2f…=r --share-level full',
          'ws records grant set action ID --data @grant.json',
          'ws records grant set message ID --group 9e2f…=r --share-level metadata',
        ]),
      )
      .action((type: string, id: string, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, async () => (await verbs()).grantVerb, {
          action: 'set' as const,
          type,
          id,
          user: f.list('--user'),
          team: f.list('--team'),
          group: f.list('--group'),
          shareLevel: f.string('--share-level'),
          data: f.string('--data'),
        });
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
