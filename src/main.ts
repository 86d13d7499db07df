// main(argv) -> exit code. The only place that maps errors to exit codes, and the one that
// closes the API client once the verb is done.
import { CommanderError } from 'commander';
import type { ClientOptions } from './api/client.ts';
import type { CommandContext } from './command.ts';
import { ApiError, ExitCode, InterruptedError, UsageError, WsError } from './errors.ts';
import { type Clock, createDeps, type GlobalFlags } from './factory.ts';
import { helpTarget } from './help.ts';
import { type Env, type IOStreams, isTruthy, systemIO } from './io/streams.ts';
import type { Prompter } from './prompt/prompter.ts';
import { reportError } from './report.ts';
import { buildProgram, NOUNS } from './root.ts';

export interface MainOptions {
  io?: IOStreams;
  env?: Env;
  /** When given, the caller owns cancellation; otherwise SIGINT/SIGTERM cancel the command. */
  signal?: AbortSignal;
  prompter?: Prompter;
  clock?: Clock;
  binPath?: string;
  /** The working directory (default: the process's). */
  cwd?: string;
  clientOverrides?: Partial<ClientOptions>;
  /** Replace how verbs run (parse tests). */
  context?: CommandContext;
}

/** Whether the error should be printed as JSON, known before commander has parsed anything. */
function wantsJson(argv: string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--json') return true;
    if (a === '--format' && (argv[i + 1] === 'json' || argv[i + 1] === 'ndjson')) return true;
    if (a === '--format=json' || a === '--format=ndjson') return true;
  }
  return false;
}

/** Global flags that take a value (the word after them is not a command). */
const VALUE_FLAGS = new Set([
  '--profile',
  '--format',
  '--fields',
  '--jq',
  '--template',
  '--timeout',
  '--retries',
]);

/** The words after `help` when argv's first word is `help` and others follow it. */
function helpWords(argv: readonly string[]): string[] | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (VALUE_FLAGS.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  return words[0] === 'help' && words.length > 1 ? words.slice(1) : undefined;
}

/** Where the first word that is not a flag (or a global flag's value) is, or -1. */
function firstOperand(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return -1;
    if (!a.startsWith('-') || a === '-') return i;
    if (VALUE_FLAGS.has(a)) i++;
  }
  return -1;
}

/**
 * argv with an alias expanded (see src/aliases.ts): only when its first word is not one of
 * ws's commands, so a built-in always wins; the config file is read only then.
 */
async function withAlias(argv: string[], env: Env, io: IOStreams): Promise<string[]> {
  const at = firstOperand(argv);
  const word = at < 0 ? undefined : argv[at]!;
  if (word === undefined || word === 'help' || NOUNS.some((n) => n.names.includes(word)))
    return argv;
  const { ProfileStore } = await import('./config/store.ts');
  const expansion = (await ProfileStore.open(env)).aliases().get(word);
  if (expansion === undefined) return argv;
  const { expandAlias } = await import('./aliases.ts');
  const expanded = expandAlias(argv, at, word, expansion);
  if (expanded.includes('--debug') || isTruthy(env.WS_DEBUG))
    io.stderr.write(`${io.err.dim(`alias ${word}: ws ${expanded.join(' ')}`)}\n`);
  return expanded;
}

export async function main(argv: string[], opts: MainOptions = {}): Promise<number> {
  const env = opts.env ?? process.env;
  const io = opts.io ?? systemIO(env);
  const report = {
    json: wantsJson(argv),
    debug: argv.includes('--debug') || isTruthy(env.WS_DEBUG),
    secrets: [env.WS_API_KEY ?? ''].filter((s) => s !== ''),
  };
  if (opts.io === undefined) {
    // A reader that goes away (`ws … | head`) ends the command there, successfully: what it
    // wanted was written. Output that cannot be written (a full disk) ends it with the reason.
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      process.exit(err.code === 'EPIPE' ? ExitCode.ok : reportError(io, outputFailed(err), report));
    });
  }

  let signal = opts.signal;
  let cleanup = () => {};
  /** What a second Ctrl-C does while a command has registered it (Deps.onAbandon). */
  let abandon: (() => void) | undefined;
  let onAbandon: ((handler: () => void) => () => void) | undefined;
  if (!signal) {
    const controller = new AbortController();
    signal = controller.signal;
    let count = 0;
    onAbandon = (handler) => {
      abandon = handler;
      return () => {
        if (abandon === handler) abandon = undefined;
      };
    };
    const onSignal = (name: NodeJS.Signals) => {
      count++;
      if (count > 1) {
        // The terminal echoed ^C where the cursor was: what follows (the shell's prompt, or
        // the command's last words) starts on a line of its own.
        if (name === 'SIGINT' && io.isStderrTTY) io.stderr.write('\n');
        const handler = count === 2 ? abandon : undefined;
        if (handler === undefined) process.exit(ExitCode.interrupted);
        abandon = undefined;
        handler();
        return;
      }
      controller.abort(new InterruptedError(name === 'SIGTERM' ? 'Terminated.' : 'Interrupted.'));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    cleanup = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
  }

  const context: CommandContext = opts.context ?? {
    async invoke(cmd, load, verbOpts) {
      const flags = cmd.optsWithGlobals() as GlobalFlags;
      // A verb with a --template of its own (ws lists create --template sales_deals) reads
      // the flag itself, as gh repo create does: the output is not put through Liquid.
      if (cmd.options.some((o) => o.long === '--template')) delete flags.template;
      const deps = createDeps(
        {
          io,
          env,
          signal: signal!,
          ...(onAbandon ? { onAbandon } : {}),
          binPath: () => opts.binPath ?? new URL('../bin/ws.js', import.meta.url).pathname,
          cwd: opts.cwd ?? process.cwd(),
          ...(opts.prompter ? { prompter: opts.prompter } : {}),
          ...(opts.clock ? { clock: opts.clock } : {}),
          ...(opts.clientOverrides ? { clientOverrides: opts.clientOverrides } : {}),
          secrets: report.secrets,
        },
        flags,
      );
      // Errors are JSON when JSON was asked for (not for --jq or --template alone).
      report.json = flags.json === true || flags.format === 'json' || flags.format === 'ndjson';
      report.debug = io.debugEnabled;
      try {
        await deps.startOutput();
        const mod = await load();
        try {
          await mod.run(verbOpts, deps);
        } catch (err) {
          // What the verb printed before it failed (a partial failure's results) still
          // goes through --jq or --template; the verb's error is the one reported.
          await deps.endOutput().catch((e: unknown) => io.debug(`shaping the output: ${e}`));
          throw err;
        }
        await deps.endOutput();
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const words = await import('./commands/common/error-wording.ts');
        // A refused key or team that came from the environment: say so.
        const sourced = err.status === 403 ? words.withSources(err, await deps.credentials()) : err;
        // Users of `ws api` type the API's routes; every other command speaks ws's words.
        throw cmd.name() === 'api' ? sourced : words.inWsWords(sourced);
      } finally {
        // Verbs share one API client; its connections close here, whatever the verb did
        // (returned, threw, or stopped on Ctrl-C), so no socket keeps the process alive.
        await deps.close();
      }
    },
  };

  try {
    // What a Tab offers: asked by the completion scripts, answered from local files only.
    if (argv[0] === '__complete') {
      const { runComplete } = await import('./complete.ts');
      return await runComplete(argv.slice(1), io, env, (words) => buildProgram(context, io, words));
    }
    // An alias stands for the words it was set to: expanded before anything is parsed.
    argv = await withAlias(argv, env, io);
    report.json ||= wantsJson(argv);
    const help = helpWords(argv);
    if (help !== undefined) {
      // `ws help TOPIC` and `ws help NOUN [VERB]`: the topic, or that command's help.
      const { isTopic, TOPICS } = await import('./help-topics.ts');
      const [first] = help;
      if (help.length === 1 && isTopic(first!)) {
        io.stdout.write(TOPICS[first].text);
        return ExitCode.ok;
      }
      const program = await buildProgram(context, io, help);
      helpTarget(program, help, Object.keys(TOPICS)).outputHelp();
      return ExitCode.ok;
    }
    const program = await buildProgram(context, io, argv);
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version')
        return ExitCode.ok;
      if (err.code === 'commander.help' || err.code === 'commander.executeSubCommandAsync') {
        return argv.length === 0 ? ExitCode.ok : ExitCode.usage;
      }
      const message = err.message.replace(/^error: /, '');
      return reportError(
        io,
        new UsageError(
          message.charAt(0).toUpperCase() + message.slice(1),
          'Run `ws --help` or `ws COMMAND --help` for usage.',
        ),
        report,
      );
    }
    return reportError(io, err, report);
  } finally {
    cleanup();
  }
}

/** A write to stdout that failed for a reason a person can act on (a full disk). */
function outputFailed(err: NodeJS.ErrnoException): WsError {
  const reason = err.message.replace(/^[A-Z]+: /, '').replace(/, write$/, '');
  return new WsError(`Could not write the output: ${reason} (${err.code ?? 'error'}).`, {
    code: 'output_failed',
    cause: err,
    hint: 'Check where the output goes (a full disk, a device that refuses writes), or send it elsewhere.',
  });
}
