// The commander tree: global flags, and each noun's verbs. Nothing here loads a
// command's code; verbs are imported when they run, and a noun's definitions when argv needs them.
import { type Command, Option } from 'commander';
import { type CommandContext, setWantedVerb } from './command.ts';
import { HELP, WsCommand } from './help.ts';
import type { IOStreams } from './io/streams.ts';
import { FORMATS } from './output/format.ts';
import { VERSION } from './version.ts';

type Register = (program: Command, ctx: CommandContext) => void;

/**
 * The top-level commands, each with the names and aliases it registers. A noun's flags and
 * help load only when argv names it (or when the whole tree is shown: root help, an
 * unknown command, completing the first word), so start-up compiles one noun's definitions.
 */
export const NOUNS: readonly {
  names: readonly string[];
  load: () => Promise<{ register: Register }>;
}[] = [
  { names: ['profile'], load: () => import('./commands/profile/index.ts') },
  { names: ['auth', 'whoami'], load: () => import('./commands/auth/index.ts') },
  { names: ['api'], load: () => import('./commands/api/index.ts') },
  { names: ['props', 'properties'], load: () => import('./commands/props/index.ts') },
  { names: ['records', 'record'], load: () => import('./commands/records/index.ts') },
  { names: ['import'], load: () => import('./commands/import/index.ts') },
  { names: ['sandbox'], load: () => import('./commands/sandbox/index.ts') },
  { names: ['views', 'view'], load: () => import('./commands/views/index.ts') },
  { names: ['lists', 'list'], load: () => import('./commands/lists/index.ts') },
  { names: ['automations', 'automation'], load: () => import('./commands/automations/index.ts') },
  { names: ['webhooks', 'webhook'], load: () => import('./commands/webhooks/index.ts') },
  { names: ['deliveries', 'delivery'], load: () => import('./commands/deliveries/index.ts') },
  { names: ['completion'], load: () => import('./commands/completion/index.ts') },
  { names: ['alias'], load: () => import('./commands/alias/index.ts') },
  { names: ['version'], load: () => import('./commands/version/index.ts') },
];

/**
 * Which nouns argv needs registered: the one its first operand names, or all of them when
 * the first operand is not a known noun (commander then suggests a close one) or when the
 * root's help may be printed (no operand, `help`, or `-h`/`--help` before any operand).
 * Completion (`ws __complete …`) asks the same of the words typed so far.
 */
export function nounsFor(
  program: Command,
  argv: readonly string[],
): readonly (typeof NOUNS)[number][] {
  const [first] = operands(program, argv);
  if (first === undefined) {
    const help = argv.some((a) => a === '-h' || a === '--help');
    return !help && argv.some((a) => a === '-V' || a === '--version') ? [] : NOUNS;
  }
  const noun = NOUNS.find((n) => n.names.includes(first));
  return noun ? [noun] : NOUNS;
}

/**
 * The verb argv names after its noun (the second operand), when only that verb need be
 * defined (see verb() in command.ts); undefined when help may show the noun's verbs.
 */
export function verbWordFor(program: Command, argv: readonly string[]): string | undefined {
  const words = operands(program, argv);
  return words.length >= 2 && NOUNS.some((n) => n.names.includes(words[0]!)) ? words[1] : undefined;
}

/**
 * The first two operands of argv (the words that are not flags or their values), up to
 * `--`; none past -h or --help, after which help may show any command.
 */
function operands(program: Command, argv: readonly string[]): string[] {
  const takesValue = new Set(
    program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]),
  );
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; ) {
    const a = argv[i]!;
    if (a === '--' || a === '-h' || a === '--help') break;
    if (!a.startsWith('-') || a === '-') words.push(a);
    i += takesValue.has(a) ? 2 : 1;
  }
  return words;
}

export async function buildProgram(
  ctx: CommandContext,
  io: IOStreams,
  argv?: readonly string[],
): Promise<Command> {
  const program = new WsCommand('ws');
  program
    .description('Administer a team workspace of CRM-style records from the terminal.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand('help [command]', 'show help for a command')
    .configureHelp(HELP)
    .addOption(
      new Option(
        '--profile <name>',
        'use this profile (default: $WS_PROFILE, then the default profile)',
      ),
    )
    .addOption(new Option('--json', 'print JSON (same as --format json)'))
    .addOption(
      new Option(
        '--format <format>',
        'output format (default: table on a terminal, tsv when piped)',
      ).choices(FORMATS as unknown as string[]),
    )
    .addOption(new Option('--fields <list>', 'comma-separated fields to show'))
    .addOption(
      new Option('--jq <expression>', "filter the JSON output with a jq expression (jq's own)"),
    )
    .addOption(
      new Option(
        '--template <text|@file>',
        'print the JSON output through a Liquid template (once per row of a list)',
      ),
    )
    .addOption(
      new Option('--wide', 'tables at full width: every column, no cell cut (rows may wrap)'),
    )
    .addOption(
      new Option('--debug', 'trace requests to stderr (secrets redacted); also WS_DEBUG=1'),
    )
    .addOption(new Option('--no-color', 'no colour (also NO_COLOR=1)'))
    .addOption(new Option('-q, --quiet', 'no progress or informational messages'))
    .addOption(new Option('-y, --yes', 'answer yes to confirmations'))
    .addOption(new Option('--no-input', 'never prompt; fail instead when a value is missing'))
    .addOption(
      new Option('--timeout <seconds>', 'connect and read timeout of each request (default 30)'),
    )
    .addOption(new Option('--retries <n>', 'extra attempts for a failed request (default 3)'))
    .showSuggestionAfterError(true)
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: () => {},
    })
    .addHelpText(
      'after',
      `
Exit codes: 0 ok, 1 error, 2 usage, 3 auth, 4 not found, 5 partial failure,
6 conflict, 7 timed out waiting, 130 interrupted.

Help topics: ws help environment | formatting | exit-codes | filters

Get started:
  $ ws sandbox start --detach   # a local sandbox of the API, saved as profile "sandbox"
  $ ws auth status              # check the key
  $ ws api GET '/v2/prism/{teamId}/contact/count'`,
    );

  setWantedVerb(program, argv ? verbWordFor(program, argv) : undefined);
  for (const noun of argv ? nounsFor(program, argv) : NOUNS)
    (await noun.load()).register(program, ctx);
  return program;
}
