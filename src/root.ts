// The commander tree: global flags, and each noun's verbs. Nothing here loads a
// command's code; verbs are imported when they run.
import { Command, Option } from 'commander';
import type { CommandContext } from './command.ts';
import { registerApi } from './commands/api/index.ts';
import { registerAuth } from './commands/auth/index.ts';
import { registerCompletion } from './commands/completion/index.ts';
import { registerImport } from './commands/import/index.ts';
import { registerProfile } from './commands/profile/index.ts';
import { registerProps } from './commands/props/index.ts';
import { registerRecords } from './commands/records/index.ts';
import { registerSandbox } from './commands/sandbox/index.ts';
import { registerViews } from './commands/views/index.ts';
import type { IOStreams } from './io/streams.ts';
import { FORMATS } from './output/format.ts';
import { VERSION } from './version.ts';

export function buildProgram(ctx: CommandContext, io: IOStreams): Command {
  const program = new Command('ws');
  program
    .description('Administer a team workspace of CRM-style records from the terminal.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
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

Get started:
  $ ws sandbox start --detach   # a local sandbox of the API, saved as profile "sandbox"
  $ ws auth status              # check the key
  $ ws api GET '/v2/prism/{teamId}/contact/count'`,
    );

  registerProfile(program, ctx);
  registerAuth(program, ctx);
  registerApi(program, ctx);
  registerProps(program, ctx);
  registerRecords(program, ctx);
  registerImport(program, ctx);
  registerSandbox(program, ctx);
  registerViews(program, ctx);
  registerCompletion(program, ctx);
  return program;
}
