// Reading the option values commander hands a verb's action into typed values, by the flag
// as a user writes it (`--list-id`). This is the one place that knows commander's shapes (a
// string for a flag that takes a value, true for a switch, false for its `--no-` twin, an
// array for a repeatable flag), so a noun's index.ts reads flags without casting them.
import type { Command } from 'commander';
import { UsageError } from '../../errors.ts';

/** What commander hands an action: each option's value, by its attribute name. */
export type OptionValues = Record<string, unknown>;

/** Parse an integer flag, or throw a usage error naming the flag. */
export function intFlag(
  flag: string,
  value: string | undefined,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} takes a whole number ${range}, not "${value}".`);
  }
  return n;
}

/** Collect a repeatable option into an array (commander's argParser for it). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * `--list-id` → `listId`: the attribute commander keeps a flag's value under (a dash before
 * a lower-case letter or a digit goes, and the character is upper-cased).
 */
function attribute(flag: string): string {
  return flag.replace(/^--?/, '').replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Typed reads of one action's option values. */
export class Flags {
  constructor(private readonly values: OptionValues) {}

  private value(flag: string): unknown {
    return this.values[attribute(flag)];
  }

  /** A flag that takes a value: the text given, or undefined. */
  string(flag: string): string | undefined {
    const v = this.value(flag);
    return typeof v === 'string' ? v : undefined;
  }

  /** A switch: whether it was given. */
  boolean(flag: string): boolean {
    return this.value(flag) === true;
  }

  /** A switch with a `--no-` twin: true, false, or undefined when neither was given. */
  toggle(flag: string): boolean | undefined {
    const v = this.value(flag);
    return typeof v === 'boolean' ? v : undefined;
  }

  /** A flag with a `--no-` twin that clears it: the text, null for `--no-…`, or undefined. */
  clearable(flag: string): string | null | undefined {
    const v = this.value(flag);
    if (v === false) return null;
    return typeof v === 'string' ? v : undefined;
  }

  /** A repeatable flag: every value given, in order (none: an empty list). */
  list(flag: string): string[] {
    const v = this.value(flag);
    return Array.isArray(v) ? v.map(String) : [];
  }

  /** A whole number from `min` (to `max`), or a usage error naming the flag. */
  integer(flag: string, min = 0, max?: number): number | undefined {
    return intFlag(flag, this.string(flag), min, max);
  }

  /** A flag whose values commander checked against `choices` (Option.choices). */
  choice<T extends string>(flag: string, choices: readonly T[]): T | undefined {
    const v = this.string(flag);
    return v !== undefined && (choices as readonly string[]).includes(v) ? (v as T) : undefined;
  }

  /** Whether the flag was given (a `--no-` twin counts; an empty repeatable flag does not). */
  given(flag: string): boolean {
    const v = this.value(flag);
    return v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0);
  }

  /** --enable and --disable: true, false, or undefined when neither (both: a usage error). */
  enabled(): boolean | undefined {
    this.exclusive('--enable', '--disable');
    return this.boolean('--enable') ? true : this.boolean('--disable') ? false : undefined;
  }

  /** Two flags that contradict each other: both given is a usage error. */
  exclusive(a: string, b: string, hint?: string): void {
    if (this.given(a) && this.given(b))
      throw new UsageError(`${a} and ${b} cannot be used together.`, hint);
  }
}

/** Typed reads of an action's option values. */
export function flags(values: OptionValues): Flags {
  return new Flags(values);
}

/**
 * The options typed on the command line, as argv that gives them again (to print how to
 * resume a command, or to start a detached copy of it); `except` leaves some out.
 */
export function givenArgs(cmd: Command, except: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const opt of cmd.options) {
    const name = opt.attributeName();
    if (cmd.getOptionValueSource(name) !== 'cli' || except.includes(opt.long ?? '')) continue;
    const value = cmd.getOptionValue(name) as unknown;
    if (opt.negate) {
      if (value === false) out.push(opt.long!);
    } else if (typeof value === 'boolean') {
      if (value) out.push(opt.long!);
    } else if (Array.isArray(value)) {
      for (const v of value) out.push(opt.long!, String(v));
    } else if (value !== undefined) {
      out.push(opt.long!, String(value));
    }
  }
  return out;
}
