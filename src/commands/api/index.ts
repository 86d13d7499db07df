// `ws api METHOD PATH`: its flags, read into the options of the request.
import type { Command, CommandContext } from '../../command.ts';
import { collect, flags, type OptionValues } from '../common/flags.ts';

const verbs = () => import('./verbs.ts');

export function registerApi(program: Command, ctx: CommandContext): void {
  program
    .command('api <method> <path>')
    .description(
      "Send any request to the API with the profile's credentials; {teamId} in the path is filled in",
    )
    .option(
      '-f, --field <key=value>',
      'a body field (query parameter for GET/DELETE); typed: numbers, true/false, null; key:=JSON for raw JSON; key[sub]=v and key[]=v nest',
      collect,
      [],
    )
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
      `
Examples:
  $ ws api GET '/v2/prism/{teamId}/contact/count'
  $ ws api POST '/v2/prism/{teamId}/contact' -f 'default[name]=Ada Lovelace' -f 'default[email]=ada@example.com'
  $ ws api POST '/v2/prism/{teamId}/contact/query' -f 'query[select][]=name' -f query[limit]=50 --paginate`,
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
      });
    });
}
