// `ws sandbox …`: the flags of each verb, read into its options.
import { type Command, type CommandContext, settleVerbs } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import { isUuid } from '../../util/guards.ts';
import { collect, type Flags, givenArgs } from '../common/flags.ts';
import { nounOf } from '../common/verb-spec.ts';
import type { StartOptions } from './start.ts';
import { webhookFlags } from './webhook-flags.ts';

const verbs = () => import('./verbs.ts');

/** As src/clone/clone.ts has them (that module loads only when the clone runs). */
const DEFAULT_SAMPLE = 200;
const MAX_SAMPLE = 1000;

/** What a team's name may be (the sandbox checks it too: it names a profile and a file). */
const TEAM_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

function probability(flag: string, value: string | undefined): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`${flag} takes a probability from 0 to 1, not "${value}".`);
  return n;
}

/**
 * The options of `sandbox start`, its flags that go together checked; a detached copy is
 * handed the flags typed (givenArgs), so it reads the command itself too.
 */
function startOptions(f: Flags, cmd: Command): StartOptions {
  const o = cmd.opts();
  const seed = f.string('--seed');
  if (seed !== undefined && seed !== 'demo')
    throw new UsageError(`Unknown seed "${seed}".`, 'The seed available is "demo".');
  const teamId = f.string('--team-id');
  if (teamId !== undefined && !isUuid(teamId)) {
    throw new UsageError(`--team-id "${teamId}" is not a UUID.`);
  }
  const teams = o['team'] as string[];
  for (const name of teams) {
    if (!TEAM_NAME.test(name)) {
      throw new UsageError(
        `--team "${name}" is not a team name.`,
        'A team name is 1 to 40 lower-case letters, digits, "-" and "_", starting with a letter or digit (it names a profile: sandbox-NAME).',
      );
    }
  }
  if (new Set(teams).size !== teams.length) {
    throw new UsageError('--team names a team twice.', 'Give each team once.');
  }
  const from = f.string('--from');
  if (from !== undefined && f.string('--import') !== undefined) {
    throw new UsageError(
      '--from and --import both say what the sandbox starts from.',
      'Give one: --from PROFILE clones a workspace, --import FILE loads a snapshot.',
    );
  }
  if (from === undefined && (f.string('--sample') !== undefined || f.boolean('--scrub'))) {
    throw new UsageError(
      '--sample and --scrub go with --from PROFILE.',
      'Add --from PROFILE, or leave them out.',
    );
  }
  const fsync = f.string('--fsync')!;
  if (fsync !== 'always' && fsync !== 'everysec' && fsync !== 'no') {
    throw new UsageError(
      `Unknown --fsync policy "${fsync}".`,
      'Use always, everysec (the default) or no.',
    );
  }
  return {
    host: f.string('--host')!,
    port: f.integer('--port', 0, 65535)!,
    apiKey: f.string('--api-key'),
    teamId,
    data: f.string('--data'),
    fsync,
    seed,
    teams,
    importFile: f.string('--import'),
    exportOnExit: f.string('--export-on-exit'),
    from,
    sample: f.integer('--sample', 1, MAX_SAMPLE),
    scrub: f.boolean('--scrub'),
    latency: f.integer('--latency', 0, 600_000)!,
    failRate: probability('--fail-rate', f.string('--fail-rate')),
    failAfterCommit: probability('--fail-after-commit', f.string('--fail-after-commit')),
    rateLimit: f.integer('--rate-limit', 0, 100_000) ?? 0,
    maxBodyBytes: f.integer('--max-body-bytes', 1024, 10 * 1024 * 1024),
    webhooks: webhookFlags(o),
    profile: f.toggle('--profile') !== false,
    console: f.toggle('--console') !== false,
    detach: f.boolean('--detach'),
    // A detached copy starts from the clone this process makes (--import), not again.
    argv: givenArgs(cmd, ['--from', '--sample', '--scrub']),
  };
}

export function register(program: Command, ctx: CommandContext): void {
  const { noun: sandbox, define } = nounOf(program, ctx, verbs, ['sandbox'], {
    description: 'A local, stateful emulator of the whole API, for trying ws and for tests',
    examples: ['ws sandbox start --detach --seed demo', 'ws sandbox stop'],
  });

  define(['start'], {
    description:
      'Start a sandbox (foreground until Ctrl-C, or --detach) and save it as profile "sandbox"',
    flags: (cmd) =>
      cmd
        .option('--host <host>', 'address to listen on', '127.0.0.1')
        .option('--port <n>', 'port to listen on (0 picks a free one)', '4800')
        .option(
          '--api-key <key>',
          'the key the sandbox accepts (default: generated, or the one in --data)',
        )
        .option(
          '--team-id <id>',
          'the team id it serves (default: generated, or the one in --data)',
        )
        .option(
          '--data <file>',
          'keep state in this file (loaded at start; every change is in it before its answer)',
        )
        .option(
          '--fsync <policy>',
          'when --data reaches the disk: always (before each answer), everysec, no',
          'everysec',
        )
        .option('--seed <name>', 'fill an empty sandbox with demo data ("demo")')
        .option(
          '--team <name>',
          'a team of the sandbox, with its own key and data (repeat for several; the first is profile "sandbox", the others "sandbox-NAME")',
          collect,
          [],
        )
        .option(
          '--import <file>',
          'start from a snapshot (written by `ws sandbox export` or --export-on-exit); loading it fires nothing',
        )
        .option(
          '--export-on-exit <file>',
          'write a snapshot of the sandbox to this file when it stops',
        )
        .option(
          '--from <profile>',
          "start from a clone of that profile's workspace (as `ws sandbox clone` makes it, read-only, kept in the config directory)",
        )
        .option(
          '--sample <n>',
          `with --from: records per object type, at most (1 to ${MAX_SAMPLE}; default ${DEFAULT_SAMPLE})`,
        )
        .option('--scrub', "with --from: replace emails, phone numbers and people's names")
        .option('--latency <ms>', 'add this delay to every answer', '0')
        .option(
          '--fail-rate <p>',
          'answer 500/502/503 or drop the connection, before doing anything, with probability p',
        )
        .option(
          '--fail-after-commit <p>',
          'do the work, then drop the connection without answering, with probability p',
        )
        .option(
          '--rate-limit <n>',
          'allow n requests per second per key, then 429 with Retry-After (default: no limit)',
        )
        .option(
          '--max-body-bytes <n>',
          'answer 413 to request bodies over n bytes, to test for a service that takes less (default and most: 10485760)',
        )
        .option('--webhooks-preview', "answer every webhook route with the hosted gateway's 403")
        .option(
          '--strict-webhook-urls',
          'refuse loopback webhook receivers too, as the service does (default: they are allowed)',
        )
        .option('--webhook-timeout <ms>', 'how long a webhook delivery attempt may take', '10000')
        .option(
          '--webhook-retry-delays <ms,ms>',
          'base delays before the two retries of a failed delivery (default 30000,120000)',
        )
        .option('--no-console', 'serve no console (the web page `ws sandbox open` opens)')
        .option('--no-profile', 'do not save a "sandbox" profile')
        .option(
          '--detach',
          'run in the background (see `ws sandbox status` and `ws sandbox stop`)',
        ),
    examples: [
      'ws sandbox start --detach --seed demo',
      'ws sandbox start --port 0 --json --no-profile     # one JSON line: {"url","api_key","team_id"}',
      'ws sandbox start --fail-rate 0.1 --rate-limit 10  # a flaky, rate-limited service for testing scripts',
      'ws sandbox start --team acme --team globex        # two teams: profiles sandbox and sandbox-globex',
      'ws sandbox start --import fixture.json --export-on-exit fixture.json',
      'ws sandbox start --from prod --sample 50 --scrub   # a sandbox like the workspace of profile prod',
    ],
    run: 'startVerb',
    options: (_, f, cmd) => startOptions(f, cmd),
  });

  define(['clone <profile>'], {
    description:
      "Clone a workspace's definitions, views, automations, webhooks and a sample of its records into a sandbox snapshot",
    flags: (cmd) =>
      cmd
        .requiredOption('--to <file>', 'the snapshot file to write (mode 0600)')
        .option(
          '--sample <n>',
          `records per object type, at most (1 to ${MAX_SAMPLE})`,
          String(DEFAULT_SAMPLE),
        )
        .option(
          '--scrub',
          "replace emails, phone numbers and people's names, the same way every time",
        )
        .option(
          '--enable-automations',
          'keep automations enabled as in the workspace (default: disabled; webhooks stay disabled)',
        )
        .option('--force', 'replace the file when it exists'),
    examples: [
      'ws sandbox clone prod --to prod.snapshot.json --scrub',
      'ws sandbox clone prod --to small.json --sample 20 --json',
      'ws sandbox start --import prod.snapshot.json',
    ],
    run: 'cloneVerb',
    options: ([profile], f) => ({
      profile,
      to: f.string('--to')!,
      sample: f.integer('--sample', 1, MAX_SAMPLE)!,
      scrub: f.boolean('--scrub'),
      enableAutomations: f.boolean('--enable-automations'),
      force: f.boolean('--force'),
    }),
  });

  define(['export'], {
    description:
      'Write a snapshot of the running sandbox (every team, its definitions, records, views, automations, webhooks and clock) to FILE, or - for stdout',
    flags: (cmd) =>
      cmd.argument(
        '<file>',
        'where the snapshot goes (written whole or not at all, mode 0600); - for stdout',
      ),
    examples: [
      'ws sandbox export test/fixtures/workspace.json',
      'ws sandbox start --import test/fixtures/workspace.json',
    ],
    run: 'exportVerb',
    options: ([file]) => ({ file }),
  });

  define(['seed'], {
    description:
      'Write the records of a JSON file into the sandbox without firing an automation or a delivery (ids kept, all or nothing)',
    flags: (cmd) =>
      cmd.argument(
        '<file>',
        'JSON: { "records": { "contact": [ { "id"?, "default": { … } } ] } }; - for stdin',
      ),
    examples: [
      'ws sandbox seed fixtures/people.json',
      'ws sandbox seed - < fixtures/people.json --json',
    ],
    run: 'seedVerb',
    options: ([file]) => ({ file }),
  });

  define(['open'], {
    description:
      "Open the sandbox's console in a browser, signed in (or print its URL and a one-time code)",
    flags: (cmd) =>
      cmd.option(
        '--no-browser',
        'print the URL and a one-time sign-in code instead of opening a browser',
      ),
    examples: [
      'ws sandbox open',
      'ws sandbox open --no-browser',
      'ws sandbox open --profile sandbox',
    ],
    run: 'openVerb',
    options: (_, f) => ({ browser: f.toggle('--browser') !== false }),
  });

  define(['status'], {
    description: 'Show the detached sandbox (exit 4 when none is running)',
    examples: ['ws sandbox status', 'ws sandbox status --json'],
    run: 'statusVerb',
  });

  define(['stop'], {
    description: 'Stop the detached sandbox (it saves its --data file first)',
    examples: ['ws sandbox stop'],
    run: 'stopVerb',
  });

  settleVerbs(sandbox);
}
