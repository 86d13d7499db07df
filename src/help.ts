// How the command tree speaks when help is asked for or argv goes wrong. Help is laid out as
// users of other CLIs expect: the command's flags, then the flags it inherits (the global
// ones), then notes and examples. A noun without a verb prints its help and exits 0, as `ws`
// alone does. Every parse error is a usage error that names the command, with the closest
// command or flag when one is close. Nothing here runs unless help is shown or argv is wrong.
import {
  Command,
  CommanderError,
  Help,
  type HelpConfiguration,
  type HelpContext,
  type Option,
} from 'commander';
import { UsageError } from './errors.ts';
import { closest, editDistance } from './util/suggest.ts';

/** `ws records list`: a command as a user types it. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

const isHidden = (c: Command) => (c as unknown as { _hidden?: boolean })._hidden === true;

/**
 * The long flags a command accepts: its own and those of the commands above it (--version
 * is the root's alone: `ws --versoin` is offered it, `ws records --versoin` is not).
 */
function longFlags(cmd: Command): string[] {
  const out = new Set<string>();
  for (let c: Command | null = cmd; c; c = c.parent)
    for (const o of c.options)
      if (o.long && !o.hidden && (o.long !== '--version' || c === cmd)) out.add(o.long);
  out.add('--help');
  return [...out];
}

/**
 * Commander's Command, with ws's help and parse errors. Subcommands are made by
 * createCommand, so the whole tree behaves alike.
 */
export class WsCommand extends Command {
  override createCommand(name?: string): Command {
    return new WsCommand(name);
  }

  /** No verb given (nothing at all on the line): the help was what was wanted, on stdout. */
  override help(context?: HelpContext): never;
  override help(cb: (str: string) => string): never;
  override help(context?: HelpContext | ((str: string) => string)): never {
    if (typeof context === 'object' && context.error && this.args.length === 0) {
      this.outputHelp();
      throw new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)');
    }
    return super.help(context as HelpContext);
  }

  /** Every error of parsing: a usage error (exit 2) that says where to read more. */
  override error(message: string): never {
    const text = message.replace(/^error: /, '');
    throw new UsageError(
      `${text.charAt(0).toUpperCase()}${text.slice(1)}`,
      `See \`${commandPath(this)} --help\`.`,
    );
  }

  /** A flag none of the commands on the path has: the close ones (for `-x`, those starting with x). */
  unknownOption(flag: string): never {
    const path = commandPath(this);
    const name = flag.split('=')[0]!;
    const flags = longFlags(this);
    const near = /^-[^-]$/.test(name)
      ? flags.filter((f) => f[2] === name[1]!.toLowerCase()).sort()
      : closest(name, flags);
    throw new UsageError(
      `Unknown option '${flag}'`,
      `${near.length > 0 ? `Did you mean ${orList(near)}? ` : ''}See \`${path} --help\`.`,
    );
  }

  /** A verb this noun does not have: the close one (an alias counts as its command). */
  unknownCommand(): never {
    throw unknownCommandError(this, this.args[0] ?? '');
  }

  /** An argument left out: what it is (its description), and the usage. */
  missingArgument(name: string): never {
    const path = commandPath(this);
    const arg = this.registeredArguments.find((a) => a.name() === name);
    throw new UsageError(
      `Missing ${name.toUpperCase()}: \`${path}\` needs ${arg?.description || `its ${name} argument`}.`,
      `Usage: ${path} ${flagsWord(this.usage())}. See \`${path} --help\`.`,
    );
  }
}

/**
 * `given` is not a command of `cmd`: the error names the close ones (an alias counting as
 * its command), or lists the commands; `also` are other words that would have been taken
 * (help topics), named after them.
 */
export function unknownCommandError(
  cmd: Command,
  given: string,
  also: readonly string[] = [],
): UsageError {
  const path = commandPath(cmd);
  const byName = new Map<string, string>();
  for (const c of cmd.commands) {
    if (isHidden(c)) continue;
    for (const n of [c.name(), ...c.aliases()]) byName.set(n, c.name());
  }
  for (const word of also) byName.set(word, word);
  // The closest names only (`lst`: list, not also get), an alias counting as its command.
  const close = closest(given, byName.keys());
  const best = Math.min(...close.map((n) => editDistance(given, n)));
  const near = [
    ...new Set(close.filter((n) => editDistance(given, n) === best).map((n) => byName.get(n)!)),
  ];
  const commands = [...new Set(cmd.commands.filter((c) => !isHidden(c)).map((c) => c.name()))];
  const listed = commands.filter((n) => n !== 'help').join(', ');
  return new UsageError(
    `Unknown command '${given}'${cmd.parent ? ` for \`${path}\`` : ''}`,
    near.length > 0
      ? `Did you mean ${orList(near.map((n) => `\`${path} ${also.includes(n) ? `help ${n}` : n}\``))}?`
      : `Commands: ${listed}${also.length > 0 ? `; help topics: ${also.join(', ')}` : ''}. See \`${path} --help\`.`,
  );
}

/**
 * The command `ws help WORDS…` is about (`ws help records list`: the list verb), or a usage
 * error naming the word that is not a command (with the help topics as suggestions at the
 * top). `program` was built for WORDS, so their noun and verb are defined.
 */
export function helpTarget(program: Command, words: readonly string[], topics: readonly string[]) {
  let cmd = program;
  for (const [i, word] of words.entries()) {
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub === undefined) throw unknownCommandError(cmd, word, i === 0 ? topics : []);
    cmd = sub;
  }
  return cmd;
}

const flagsWord = (usage: string) => usage.replace('[options]', '[flags]');

const HEADINGS: Readonly<Record<string, string>> = {
  'Options:': 'Flags:',
  'Global Options:': 'Inherited flags:',
};

/** The help layout: flags, then the inherited (global) flags, of every command. */
export const HELP: HelpConfiguration = {
  showGlobalOptions: true,
  visibleGlobalOptions(this: Help, cmd: Command): Option[] {
    return Help.prototype.visibleGlobalOptions
      .call(this, cmd)
      .filter((o) => o.long !== '--version');
  },
  formatItemList(this: Help, heading: string, items: string[], helper: Help): string[] {
    return Help.prototype.formatItemList.call(this, HEADINGS[heading] ?? heading, items, helper);
  },
  commandUsage(this: Help, cmd: Command): string {
    return flagsWord(Help.prototype.commandUsage.call(this, cmd));
  },
  subcommandTerm(this: Help, cmd: Command): string {
    return flagsWord(Help.prototype.subcommandTerm.call(this, cmd));
  },
};

/** The examples section of a command's help (`.addHelpText('after', …)`): `$ ws …` lines. */
export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
}
