// `ws __complete SHELL …`: what a Tab offers, asked by the completion scripts of
// completion.ts at each Tab, as users of other CLIs expect. It walks the command tree with
// the words typed so far and answers subcommands, flags, the values of a flag (its
// choices, profile names, files, property slugs) and of an argument (object types, slugs,
// options, views, profiles, import jobs). Dynamic values come from local files only: the
// profile store, the definitions cache (however old) and the import ledger; nothing is
// sent. Loaded only when completing.
import type { Command, Option } from 'commander';
import {
  BULK_TYPES,
  GRANT_TYPES,
  objectType,
  PROPERTY_TYPES,
  RECORD_TYPES,
  VIEW_TYPES,
} from './api/object-types.ts';
import { PROPERTY_TYPE_NAMES, type PropertyDefinition } from './api/props.ts';
import { SHELLS, type Shell } from './completion.ts';
import { resolveCredentials } from './config/resolve.ts';
import { ProfileStore } from './config/store.ts';
import type { Env, IOStreams } from './io/streams.ts';
import { cachedForCompletion, placeOf } from './schema/definitions-cache.ts';

export interface Candidate {
  value: string;
  description?: string | undefined;
}

export interface Completion {
  candidates: Candidate[];
  /** Offer file names instead. */
  files?: boolean;
  /** No space after the value: more of it may follow (`name,` in a list, `stage=` in a filter). */
  nospace?: boolean;
}

/** The local data completions read. */
export interface CompletionData {
  profiles(): Candidate[];
  definitions(type: string, listId: string | undefined): readonly PropertyDefinition[];
  viewNames(type: string): string[];
  /** The lists of the last `ws lists list` (ids, with their names). */
  lists(): Candidate[];
  jobs(): Candidate[];
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];
const FAMILY: Readonly<Record<string, 'record' | 'property' | 'view'>> = {
  records: 'record',
  import: 'record',
  props: 'property',
  views: 'view',
};
const TYPES = { record: RECORD_TYPES, property: PROPERTY_TYPES, view: VIEW_TYPES };

const takesValue = (o: Option) => o.required || o.optional;
const isHidden = (c: Command) => (c as unknown as { _hidden?: boolean })._hidden === true;

/** The options a command accepts: its own, then those of the commands above it. */
function optionsOf(cmd: Command): Option[] {
  const out: Option[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) out.push(...c.options);
  return out;
}

function findOption(cmd: Command, flag: string): Option | undefined {
  return optionsOf(cmd).find((o) => o.long === flag || o.short === flag);
}

/** Where the words typed before the current one lead. */
interface Walk {
  cmd: Command;
  /** The top-level noun (`records`), when one was named. */
  noun: string | undefined;
  positionals: string[];
  /** The values of the options given, by long flag. */
  values: Map<string, string>;
  /** The option whose value the current word is. */
  pending: Option | undefined;
  /** After `--`: only arguments. */
  dashdash: boolean;
}

function walk(program: Command, words: readonly string[]): Walk {
  const w: Walk = {
    cmd: program,
    noun: undefined,
    positionals: [],
    values: new Map(),
    pending: undefined,
    dashdash: false,
  };
  for (const word of words) {
    if (w.pending) {
      w.values.set(w.pending.long ?? '', word);
      w.pending = undefined;
    } else if (!w.dashdash && word === '--') {
      w.dashdash = true;
    } else if (!w.dashdash && word.startsWith('-') && word !== '-') {
      const eq = word.indexOf('=');
      const opt = findOption(w.cmd, eq > 0 ? word.slice(0, eq) : word);
      if (opt && takesValue(opt)) {
        if (eq > 0) w.values.set(opt.long ?? '', word.slice(eq + 1));
        else w.pending = opt;
      }
    } else {
      const sub =
        w.positionals.length === 0
          ? w.cmd.commands.find((c) => c.name() === word || c.aliases().includes(word))
          : undefined;
      if (sub) {
        w.cmd = sub;
        w.noun ??= sub.name();
      } else {
        w.positionals.push(word);
      }
    }
  }
  return w;
}

/** The object type named by the first argument, as the API names it (undefined: none or unknown). */
function typeOf(w: Walk): { family: 'record' | 'property' | 'view'; type: string } | undefined {
  const family = w.noun ? FAMILY[w.noun] : undefined;
  const arg = w.cmd.registeredArguments[0];
  const given = w.positionals[0];
  if (!family || arg?.name() !== 'type' || given === undefined) return undefined;
  try {
    return { family, type: objectType(given, family) };
  } catch {
    return undefined;
  }
}

function slugCandidates(w: Walk, data: CompletionData): Candidate[] {
  const t = typeOf(w);
  if (!t) return [];
  return data
    .definitions(t.type, w.values.get('--list-id'))
    .map((d) => ({ value: d.slug, description: d.name ?? undefined }));
}

/** Comma-separated values (`--fields name,em`): the items not given yet, after those given. */
function listCandidates(cur: string, items: readonly Candidate[], signs = false): Completion {
  const cut = cur.lastIndexOf(',') + 1;
  const head = cur.slice(0, cut);
  let last = cur.slice(cut);
  const sign = signs && /^[-+]/.test(last) ? last[0]! : '';
  last = last.slice(sign.length);
  const used = new Set(head.split(',').map((s) => s.replace(/^[-+]/, '')));
  return {
    candidates: items
      .filter((c) => !used.has(c.value))
      .map((c) => ({ ...c, value: `${head}${sign}${c.value}` })),
    nospace: true,
  };
}

/** A --where expression: the slug, then (for a select property) its options. */
function whereCandidates(w: Walk, cur: string, data: CompletionData): Completion {
  const t = typeOf(w);
  const defs = t ? data.definitions(t.type, w.values.get('--list-id')) : [];
  const m = /^([\w-]+)(=|!=|:in=|:not_in=)((?:[^,]*,)*)[^,]*$/i.exec(cur);
  if (m) {
    const def = defs.find((d) => d.slug === m[1]);
    const options = def?.options ?? [];
    return {
      candidates: options.map((o) => ({
        value: `${m[1]}${m[2]}${m[3]}${o.slug}`,
        description: o.value ?? undefined,
      })),
      nospace: m[2]!.endsWith('in='),
    };
  }
  if (/[=<>~!^$:]/.test(cur)) return { candidates: [] };
  return {
    candidates: defs.map((d) => ({ value: d.slug, description: d.name ?? undefined })),
    nospace: true,
  };
}

/** The values of an option. */
function optionValues(w: Walk, opt: Option, cur: string, data: CompletionData): Completion {
  if (opt.argChoices) return { candidates: opt.argChoices.map((value) => ({ value })) };
  if (/<file>/.test(opt.flags)) return { candidates: [], files: true };
  switch (opt.long) {
    case '--profile':
      return { candidates: data.profiles() };
    case '--where':
      return whereCandidates(w, cur, data);
    case '--fields':
    case '--select':
      return listCandidates(cur, [{ value: 'id' }, ...slugCandidates(w, data)]);
    case '--sort':
      return listCandidates(cur, slugCandidates(w, data), true);
    case '--group-by':
      return { candidates: slugCandidates(w, data) };
    case '--list-id':
      return { candidates: data.lists() };
    case '--type':
      return w.noun === 'props'
        ? { candidates: PROPERTY_TYPE_NAMES.map((value) => ({ value })) }
        : { candidates: [] };
    default:
      return { candidates: [] };
  }
}

/** The values of the argument at the current position, by its name. */
function argumentValues(w: Walk, data: CompletionData): Completion | undefined {
  const args = w.cmd.registeredArguments;
  const last = args.at(-1);
  const arg = args[w.positionals.length] ?? (last?.variadic ? last : undefined);
  if (!arg) return undefined;
  const family = w.noun ? FAMILY[w.noun] : undefined;
  const t = typeOf(w);
  const values = (list: readonly string[]) => ({
    candidates: list.map((value) => ({ value })),
  });
  switch (arg.name()) {
    case 'type':
      if (w.cmd.parent?.name() === 'grant') return values(GRANT_TYPES);
      // Event records have no import and no batch operations.
      if (w.noun === 'import' || /^batch-/.test(w.cmd.name())) return values(BULK_TYPES);
      return family ? values(TYPES[family]) : { candidates: [] };
    case 'types':
      return values(PROPERTY_TYPES);
    case 'property':
    case 'slug':
      return { candidates: slugCandidates(w, data) };
    case 'option': {
      const def = t
        ? data.definitions(t.type, undefined).find((d) => d.slug === w.positionals[1])
        : undefined;
      return {
        candidates: (def?.options ?? []).map((o) => ({
          value: o.slug,
          description: o.value ?? undefined,
        })),
      };
    }
    case 'view':
      return values(t ? data.viewNames(t.type) : []);
    case 'name':
      return w.noun === 'profile' && w.cmd.name() !== 'add'
        ? { candidates: data.profiles() }
        : { candidates: [] };
    case 'shell':
      return values(SHELLS);
    case 'method':
      return values(METHODS);
    case 'file':
      return { candidates: [], files: true };
    case 'job':
      return { candidates: data.jobs() };
    case 'list':
      return { candidates: data.lists() };
    default:
      return { candidates: [] };
  }
}

/** The flags of a command and the ones it inherits. */
function flagCandidates(cmd: Command): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const o of optionsOf(cmd)) {
    if (!o.long || o.hidden || seen.has(o.long)) continue;
    if (o.long === '--version' && cmd.parent) continue;
    seen.add(o.long);
    out.push({ value: o.long, description: o.description });
  }
  out.push({ value: '--help', description: 'show help for a command' });
  return out;
}

function subcommandCandidates(cmd: Command): Candidate[] {
  return cmd.commands
    .filter((c) => !isHidden(c) && c.name() !== 'help')
    .map((c) => ({ value: c.name(), description: c.description() }));
}

/** What the current word `cur` may become, after `words` (the words of the line before it). */
export function completeWords(
  program: Command,
  words: readonly string[],
  cur: string,
  data: CompletionData,
): Completion {
  const w = walk(program, words);
  let result: Completion;
  if (w.pending) {
    result = optionValues(w, w.pending, cur, data);
  } else if (!w.dashdash && cur.startsWith('--') && cur.includes('=')) {
    const eq = cur.indexOf('=');
    const opt = findOption(w.cmd, cur.slice(0, eq));
    const head = cur.slice(0, eq + 1);
    const inner =
      opt && takesValue(opt) ? optionValues(w, opt, cur.slice(eq + 1), data) : undefined;
    result = inner
      ? { ...inner, candidates: inner.candidates.map((c) => ({ ...c, value: head + c.value })) }
      : { candidates: [] };
  } else if (!w.dashdash && cur.startsWith('-')) {
    result = { candidates: flagCandidates(w.cmd) };
  } else {
    const subs = w.positionals.length === 0 ? subcommandCandidates(w.cmd) : [];
    const arg = argumentValues(w, data);
    if (subs.length > 0 || arg) {
      result = { ...arg, candidates: [...subs, ...(arg?.candidates ?? [])] };
    } else {
      // Nothing more to name: what is left to give is flags (none after `--`).
      result = { candidates: w.dashdash ? [] : flagCandidates(w.cmd) };
    }
  }
  return { ...result, candidates: result.candidates.filter((c) => c.value.startsWith(cur)) };
}

// ---------------------------------------------------------------- the shells

/**
 * The words of a bash command line up to the cursor, as the shell would split them (quotes
 * and backslashes), the last being the word being completed (empty after a space).
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  words.push(word);
  return words;
}

/** A value as bash inserts it: special characters escaped. */
function bashEscape(value: string): string {
  return value.replace(/([\s'"\\$`&;|<>(){}*?!#[\]])/g, '\\$1');
}

/**
 * The answer for a shell: a first line of directives (`:files`, `:nospace`), then one
 * candidate a line: `value` for bash (cut to the part after the last of its word breaks,
 * since bash replaces only that part), `value:description` for zsh, `value<TAB>description`
 * for fish.
 */
export function formatCompletion(
  shell: Shell,
  c: Completion,
  cur: string,
  bashBreaks = '',
): string {
  const directives = [c.files ? 'files' : '', c.nospace ? 'nospace' : ''].filter(Boolean);
  const lines = [`:${directives.join(',')}`];
  let cut = 0;
  if (shell === 'bash')
    for (let i = 0; i < cur.length; i++) if (bashBreaks.includes(cur[i]!)) cut = i + 1;
  for (const { value, description } of c.candidates) {
    const text = (description ?? '').replace(/\s+/g, ' ').trim();
    if (shell === 'bash') lines.push(bashEscape(value.slice(cut)));
    else if (shell === 'zsh')
      lines.push(`${value.replace(/[\\:]/g, '\\$&')}${text ? `:${text}` : ''}`);
    else lines.push(`${value}${text ? `\t${text}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The local data, for the profile the words name (or the one in use). */
function localData(
  env: Env,
  profile: string | undefined,
  store: ProfileStore | undefined,
  jobs: Candidate[],
): CompletionData {
  let cache: ReturnType<typeof cachedForCompletion> | undefined;
  const cached = () => {
    if (cache || !store) return cache;
    try {
      cache = cachedForCompletion(placeOf(store.dir, resolveCredentials(store, env, profile)));
    } catch {
      // No usable profile: nothing cached to offer.
    }
    return cache;
  };
  return {
    profiles: () =>
      (store?.names() ?? []).map((name) => ({
        value: name,
        description: store?.get(name)?.base_url,
      })),
    definitions: (type, listId) => cached()?.definitions(type, listId) ?? [],
    viewNames: (type) => cached()?.viewNames(type) ?? [],
    lists: () =>
      (cached()?.lists() ?? []).map((l) => ({
        value: l.id,
        description: `${l.name} (${l.object_type})`,
      })),
    jobs: () => jobs,
  };
}

/**
 * Run `ws __complete SHELL …`: for bash, its word breaks and the line up to the cursor; for
 * zsh and fish, the words after `ws`, the last being the one completed. `build` makes the
 * command tree for the words (only the noun they name). Prints the answer; exit 0, or 2 for
 * an unknown shell.
 */
export async function runComplete(
  argv: readonly string[],
  io: IOStreams,
  env: Env,
  build: (words: readonly string[]) => Promise<Command>,
): Promise<number> {
  const [shell, ...rest] = argv;
  if (!(SHELLS as readonly string[]).includes(shell ?? '')) {
    io.stderr.write(`error: ws __complete takes a shell first: ${SHELLS.join(', ')}.\n`);
    return 2;
  }
  let words = shell === 'bash' ? shellWords(rest[1] ?? '').slice(1) : [...rest];
  if (words.length === 0) words = [''];
  const before = words.slice(0, -1);
  const cur = words.at(-1)!;
  const program = await build(before);
  const w = walk(program, before);
  const store = await ProfileStore.open(env).catch(() => undefined);
  // Import jobs come from the ledger, read only when a job id is what is completed.
  let jobs: Candidate[] = [];
  if (w.cmd.registeredArguments.some((a) => a.name() === 'job')) {
    const { readLedger } = await import('./import/state.ts');
    jobs = readLedger(env).map((e) => ({
      value: e.job_id,
      description: `${e.object_type} ${e.file}`,
    }));
  }
  const data = localData(env, w.values.get('--profile'), store, jobs);
  const result = completeWords(program, before, cur, data);
  io.stdout.write(formatCompletion(shell as Shell, result, cur, rest[0] ?? ''));
  return 0;
}
