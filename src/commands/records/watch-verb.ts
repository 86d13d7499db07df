// The flags of `ws records watch`, read into its options (watch.ts), beside it rather than in
// the noun's index.ts: records/index.ts registers it with one line.
import type { Command, CommandContext } from '../../command.ts';
import { verb } from '../../command.ts';
import { examples } from '../../help.ts';
import { WHERE_SYNTAX } from '../../query/where.ts';
import { flags, type OptionValues } from '../common/flags.ts';
import { whereFlags, whereOptions } from '../common/list-flags.ts';

// Not in the noun's verbs.ts: watch loads the WebSocket client (the `ws` package), which
// no other records verb needs, so it is a chunk of its own.
const load = () => import('./watch.ts');

const HELP = `
Without TYPE, changes of every record type. At a terminal, one line per change: when, the
type and id, what happened, and what changed before → after. Piped, one JSON object per
line (NDJSON): position, at, type, id, change, source, changes, record. Pass a line's
"position" to --from to read on after it later.
The realtime stream is read (a ticket, then a WebSocket); when the connection drops, ws
reconnects with a back-off and reads on after the last change, so none is missed or shown
twice. A service without the stream: --poll reads the records again every --interval
seconds (the list endpoint, or the query endpoint with --where), within the rate limit.
--where tests each change on the record before and after it (a record entering or leaving
the filter is shown); with the stream, only the record's own properties (no dot-paths).
${WHERE_SYNTAX}
Ctrl-C stops it (exit 130).`;

export function registerWatch(records: Command, ctx: CommandContext): void {
  verb(records, ['watch [type]'], (cmd) =>
    whereFlags(cmd.description('Show record changes as they happen, until Ctrl-C'), 'stage=won')
      .option('--poll', 'read the records again and again instead of the realtime stream')
      .option('--interval <seconds>', 'with --poll: seconds between looks (default 5)')
      .option('--from <position>', 'read on after this position (from an earlier NDJSON line)')
      .addHelpText('after', HELP)
      .addHelpText(
        'after',
        examples([
          'ws records watch',
          "ws records watch deals --where 'amount>=10000'",
          'ws records watch contacts > changes.ndjson',
          'ws records watch deals --poll --interval 10',
        ]),
      )
      .action((type: string | undefined, o: OptionValues, cmd: Command) => {
        const f = flags(o);
        return ctx.invoke(cmd, load, {
          type,
          ...whereOptions(f),
          poll: f.boolean('--poll'),
          interval: f.integer('--interval', 1, 3600),
          from: f.string('--from'),
        });
      }),
  );
}
