// `ws deliveries …`: the flags of each verb, read into its options. --since, --limit and
// --all come from ../common/list-flags.ts, shared with the other nouns that list.
import { type Command, type CommandContext, Option, settleVerbs } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import type { Flags } from '../common/flags.ts';
import {
  pageFlags,
  pageOptions,
  parseSince,
  sinceFlag,
  sinceOption,
} from '../common/list-flags.ts';
import { nounOf } from '../common/verb-spec.ts';
import { DELIVERY_STATUSES, DELIVERY_TYPES, type DeliveryFilters } from './shared.ts';

const verbs = () => import('./verbs.ts');

const DELIVERIES = { one: 'delivery', many: 'deliveries' };

/** --webhook, --status and (unless replaying, which takes event deliveries only) --type. */
function whichFlags(cmd: Command, withType = true): Command {
  cmd
    .option('--webhook <webhook>', "one webhook's deliveries (an id or a name); the team's without")
    .addOption(
      new Option(
        '--status <status>',
        'only deliveries whose latest attempt had this outcome',
      ).choices(DELIVERY_STATUSES as unknown as string[]),
    );
  if (!withType) return cmd;
  return cmd.addOption(
    new Option('--type <type>', 'event deliveries (the default), handshakes, or all').choices(
      DELIVERY_TYPES as unknown as string[],
    ),
  );
}

/** --since, or --after and --before: when they were created. */
function timeFlags(cmd: Command): Command {
  return sinceFlag(cmd, DELIVERIES)
    .option(
      '--after <time>',
      'only deliveries created after this time (ISO-8601, or a duration ago)',
    )
    .option(
      '--before <time>',
      'only deliveries created before this time (ISO-8601, or a duration ago)',
    );
}

function whichOptions(f: Flags) {
  return {
    webhook: f.string('--webhook'),
    status: f.choice('--status', DELIVERY_STATUSES),
    type: f.choice('--type', DELIVERY_TYPES),
  };
}

function filterOptions(f: Flags): DeliveryFilters {
  f.exclusive('--since', '--after', '--since 1h is --after with a duration: use one of them.');
  const after = f.string('--after');
  const before = f.string('--before');
  return {
    ...whichOptions(f),
    since: sinceOption(f),
    after: after !== undefined ? parseSince('--after', after) : undefined,
    before: before !== undefined ? parseSince('--before', before) : undefined,
  };
}

const TIMES_HELP = `Times: --since 30m (or 2h, 7d, an ISO-8601 time) is --after; --before and --after take the
same forms. Statuses: success, failed (the latest attempt's); a delivery is listed once its
first attempt has ended.`;

export function register(program: Command, ctx: CommandContext): void {
  const { noun: deliveries, define } = nounOf(program, ctx, verbs, ['deliveries', 'delivery'], {
    description: 'The delivery log of webhooks: list, inspect, follow and replay deliveries',
    examples: [
      'ws deliveries list --webhook orders --status failed --since 1h',
      'ws deliveries tail --webhook orders',
      'ws deliveries replay --status failed --since 1h --to http://localhost:3000/hooks --secret-file .whsec',
    ],
  });

  define(['list', 'ls'], {
    description: 'List deliveries, newest first (the whole team without --webhook)',
    flags: (cmd) => pageFlags(timeFlags(whichFlags(cmd)), DELIVERIES, 50),
    help: `
${TIMES_HELP}
Columns: id, event, status, code, attempts, webhook, created; --fields adds type,
webhook_id, next_attempt_at, dead_lettered, url, team_id, updated_at.`,
    examples: [
      'ws deliveries list --webhook orders --status failed --since 1h',
      'ws deliveries list --type delivery --all --format ndjson > deliveries.ndjson',
    ],
    run: 'listVerb',
    options: (_, f) => ({ ...filterOptions(f), ...pageOptions(f) }),
  });

  define(['get <id>'], {
    description: 'Show a delivery with every attempt and both bodies',
    flags: (cmd) =>
      cmd.option(
        '--webhook <webhook>',
        'the webhook it belongs to (else each webhook is asked in turn)',
      ),
    help: `
On a terminal the bodies are pretty-printed and a body the log cut (it keeps 64 KiB) is
marked; --json prints the API's answer, with attempt_history.`,
    examples: ['ws deliveries get 0b7e…  --webhook orders'],
    run: 'getVerb',
    options: ([id], f) => ({ delivery: id, webhook: f.string('--webhook') }),
  });

  define(['tail'], {
    description: 'Show new deliveries as they happen, until Ctrl-C',
    flags: (cmd) =>
      whichFlags(cmd).option(
        '--interval <seconds>',
        'the shortest pause between checks (default 2; it grows to 30 s while nothing comes)',
      ),
    help: `
tail polls the log: every --interval seconds while deliveries arrive, backing off to 30 s
while none do, each request within the profile's rate limit. On a terminal a status line
shows the requests spent (a hosted key may have a monthly allowance). Each delivery is
shown once, when its first attempt has ended. Ctrl-C (or SIGTERM) stops it with exit
130, as tail -f stops.`,
    examples: ['ws deliveries tail --webhook orders --status failed'],
    run: 'tailVerb',
    options: (_, f) => ({ ...whichOptions(f), interval: f.integer('--interval', 1, 300) }),
  });

  define(['replay [ids...]'], {
    description: 'Send logged deliveries again, freshly signed, to a URL (your local handler)',
    flags: (cmd) =>
      timeFlags(whichFlags(cmd, false))
        .requiredOption('--to <url>', 'where to send them')
        .option('--secret-file <file>', 'the secret to sign them with (or WS_WEBHOOK_SECRET)')
        .option('--dry-run', 'show what would be sent, send nothing')
        .option(
          '--skip-truncated',
          'leave out deliveries whose body the log cut, instead of refusing',
        )
        .option('--max-time <seconds>', 'how long the URL may take to answer each (default 10)'),
    help: `
Name deliveries by id, or choose them with the filters (--status failed --since 1h).
The API has no redeliver endpoint: ws re-sends each logged body exactly, with its
delivery id and event headers and a new X-Service-Signature, oldest first. A body the log
cut cannot be sent as it was: ws names it and sends nothing (--skip-truncated leaves it
out). Exit 5 when the URL did not acknowledge some.
${TIMES_HELP}`,
    examples: [
      'ws deliveries replay --status failed --since 1h --to http://localhost:3000/hooks --secret-file .whsec',
      'ws deliveries replay 0b7e… 41c2… --to http://localhost:3000/hooks --secret-file .whsec --dry-run',
    ],
    run: 'replayVerb',
    options: (ids, f) => {
      const filters = filterOptions(f);
      return {
        ...filters,
        ...checkReplayChoice(ids, filters),
        to: f.string('--to') ?? '',
        secretFile: f.string('--secret-file'),
        dryRun: f.boolean('--dry-run'),
        skipTruncated: f.boolean('--skip-truncated'),
        maxTime: f.integer('--max-time', 1, 3600),
      };
    },
  });
  settleVerbs(deliveries);
}

/** Ids, or filters that choose: one of the two. */
function checkReplayChoice(ids: string[], f: DeliveryFilters): { ids: string[] } {
  const filtered =
    f.status !== undefined ||
    f.since !== undefined ||
    f.after !== undefined ||
    f.before !== undefined;
  if (ids.length > 0 && filtered) {
    throw new UsageError(
      'Give delivery ids or filters (--status, --since, --after, --before), not both.',
    );
  }
  if (ids.length === 0 && !filtered && f.webhook === undefined) {
    throw new UsageError(
      'Name the deliveries to replay: their ids, or filters such as --status failed --since 1h.',
      'E.g. ws deliveries replay --status failed --since 1h --to http://localhost:3000/hooks --secret-file .whsec',
    );
  }
  return { ids };
}
