// `ws api METHOD PATH`: its flags, read into the options of the request.
import { type Command, type CommandContext, Option } from '../../command.ts';
import { examples } from '../../help.ts';
import { describeArguments } from '../common/args.ts';
import { collect, flags, type OptionValues } from '../common/flags.ts';

const verbs = () => import('./verbs.ts');

/** -f was --field's short flag before -f meant --file throughout ws: it still works, with a warning. */
export const OLD_FIELD_FLAG =
  '-f is the old short flag of --field in `ws api`; use -F (-f means --file everywhere else in ws, and will here too).';

export function register(program: Command, ctx: CommandContext): void {
  const api = program
    .command('api <method> <path>')
    .description(
      "Send any request to the API with the profile's credentials; {teamId} in the path is filled in",
    )
    .option(
      '-F, --field <key=value>',
      'a body field (query parameter for GET/DELETE); typed: numbers, true/false, null; key:=JSON for raw JSON; key[sub]=v and key[]=v nest',
      collect,
      [],
    )
    .addOption(new Option('-f <key=value>', 'the old short flag of --field').hideHelp())
    .option('--input <file>', 'the request body from a file, or - for stdin')
    .option('-H, --header <name:value>', 'an extra request header', collect, [])
    .option('-i, --include', 'print the status line and headers before the body')
    .option(
      '--paginate',
      "follow next_cursor and print every page's data as one JSON array (one object per line with --format ndjson)",
    )
    .option('--idempotency-key <key>', 'the Idempotency-Key of this request (default: a new one)')
    .addHelpText(
      'after',
      examples([
        "ws api GET '/v2/prism/{teamId}/contact/count'",
        "ws api POST '/v2/prism/{teamId}/contact' -F 'default[name]=Ada Lovelace' -F 'default[email]=ada@example.com'",
        "ws api POST '/v2/prism/{teamId}/contact/query' -F 'query[select][]=name' -F query[limit]=50 --paginate",
      ]),
    )
    .action((method: string, path: string, o: OptionValues, cmd: Command) => {
      const f = flags(o);
      return ctx.invoke(cmd, async () => (await verbs()).apiVerb, {
        method,
        path,
        fields: f.list('--field'),
        input: f.string('--input'),
        headers: f.list('--header'),
        include: f.boolean('--include'),
        paginate: f.boolean('--paginate'),
        idempotencyKey: f.string('--idempotency-key'),
        warnings: f.string('-f') !== undefined ? [OLD_FIELD_FLAG] : [],
      });
    });
  // A field given with the old -f joins --field's list in the order given.
  api.on('option:f', (value: string) => {
    api.setOptionValue('field', collect(value, api.getOptionValue('field') as string[]));
  });
  describeArguments(api, undefined, {
    method: 'GET, POST, PUT, PATCH, DELETE or HEAD',
    path: "a path below the base URL, e.g. '/v2/prism/{teamId}/contact/count' ({teamId}: the profile's)",
  });
}
