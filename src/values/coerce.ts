// Typing property values from text (`--set slug=value`, CSV cells) and checking typed
// values (JSON, YAML) against a property definition. Pure: no I/O, no errors thrown; each
// call answers a value or a precise problem that the caller places (a flag, a line).

import { isUuid } from '../util/guards.ts';
import { didYouMean } from '../util/suggest.ts';

/** What this module needs of a property definition (the API's definition fits). */
export interface ValueDefinition {
  slug: string;
  type: string;
  name?: string | null | undefined;
  required?: boolean | undefined;
  options?: readonly { id: string; slug: string; value?: string | null | undefined }[] | undefined;
}

export interface CoerceOptions {
  /** Separator of multiselect, multi_str and multiref values in text (default ","). */
  separator?: string;
  /** Empty text means null (CSV cells); by default it is "" for text types and a problem otherwise. */
  emptyIsNull?: boolean;
}

export type CoerceResult =
  | { ok: true; value: unknown }
  | { ok: false; error: string; hint?: string | undefined };

const ok = (value: unknown): CoerceResult => ({ ok: true, value });
const problem = (error: string, hint?: string): CoerceResult => ({ ok: false, error, hint });

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const TRUE = new Set(['true', 'yes', 'y', '1', 'on']);
const FALSE = new Set(['false', 'no', 'n', '0', 'off']);

/** How a value of each storage type is written in text, for messages and help. */
export type ValueKind =
  | 'number'
  | 'boolean'
  | 'date'
  | 'select'
  | 'multiselect'
  | 'list'
  | 'json'
  | 'reference'
  | 'references'
  | 'text';

export function kindOf(type: string): ValueKind {
  if (type === 'num') return 'number';
  if (type === 'bool') return 'boolean';
  if (type === 'date') return 'date';
  if (type === 'select_str') return 'select';
  if (type === 'multiselect_str') return 'multiselect';
  if (type === 'multi_str') return 'list';
  if (type === 'jsonb') return 'json';
  if (type.startsWith('multiref_')) return 'references';
  if (type.startsWith('ref_')) return 'reference';
  return 'text';
}

/** A short description of what a definition takes, e.g. `a date (YYYY-MM-DD)`. */
export function expected(def: ValueDefinition, opts: CoerceOptions = {}): string {
  const sep = opts.separator ?? ',';
  switch (kindOf(def.type)) {
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'date':
      return 'a date (YYYY-MM-DD, or an ISO date-time with a time zone)';
    case 'select':
      return `one of ${optionList(def)}`;
    case 'multiselect':
      return `options separated by "${sep}" from ${optionList(def)}`;
    case 'list':
      return `values separated by "${sep}"`;
    case 'json':
      return 'JSON';
    case 'reference':
      return 'a record id (UUID)';
    case 'references':
      return `record ids (UUIDs) separated by "${sep}"`;
    case 'text':
      return 'text';
  }
}

function optionList(def: ValueDefinition): string {
  const options = def.options ?? [];
  if (options.length === 0) return 'its options (it has none yet)';
  return options
    .map((o) => (o.value && o.value !== o.slug ? `${o.slug} ("${o.value}")` : o.slug))
    .join(', ');
}

/** A real calendar date: 2026-02-30 is not one. */
function validDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(m) - 1 &&
    date.getUTCDate() === Number(d)
  );
}

function quote(text: string): string {
  return JSON.stringify(text);
}

/** The option a text names: its slug, its id, or its display value (case-insensitive). */
function findOption(def: ValueDefinition, text: string): string | undefined {
  const options = def.options ?? [];
  const exact = options.find((o) => o.slug === text || o.id === text);
  if (exact) return exact.slug;
  const lower = text.toLowerCase();
  const loose = options.filter(
    (o) => o.slug.toLowerCase() === lower || (o.value ?? '').toLowerCase() === lower,
  );
  return loose.length === 1 ? loose[0]!.slug : undefined;
}

function optionProblem(def: ValueDefinition, text: string): CoerceResult {
  const options = def.options ?? [];
  const names = options.flatMap((o) => (o.value ? [o.slug, o.value] : [o.slug]));
  return problem(
    `${quote(text)} is not an option of ${def.slug}; it takes ${kindOf(def.type) === 'multiselect' ? 'options from' : 'one of'} ${optionList(def)}.`,
    didYouMean(text, names),
  );
}

function splitList(text: string, sep: string): string[] {
  return text
    .split(sep)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Type the text of one value by its definition: numbers, booleans (true/false, yes/no,
 * 1/0), dates, select options by slug, id or display value (answered as the slug),
 * multiselect as separated options, references as record ids, JSON for jsonb; `null`
 * clears any value (unless the property is required).
 */
export function coerceValue(
  def: ValueDefinition,
  text: string,
  opts: CoerceOptions = {},
): CoerceResult {
  const sep = opts.separator ?? ',';
  const kind = kindOf(def.type);
  const trimmed = text.trim();
  if (text === 'null' || (trimmed === '' && opts.emptyIsNull === true)) {
    if (def.required === true)
      return problem(
        `${def.slug} is required: it cannot be cleared.`,
        'Give it a value instead of null.',
      );
    return ok(null);
  }
  if (trimmed === '' && kind !== 'text' && kind !== 'list' && kind !== 'multiselect') {
    return problem(
      `${def.slug} takes ${expected(def, opts)}; the value is empty.`,
      'Use null to clear it.',
    );
  }
  switch (kind) {
    case 'text':
      return ok(text);
    case 'number': {
      const cleaned = trimmed.replace(/_/g, '');
      if (!NUMBER.test(cleaned) || !Number.isFinite(Number(cleaned)))
        return problem(`${def.slug} takes a number, not ${quote(text)}.`);
      return ok(Number(cleaned));
    }
    case 'boolean': {
      const lower = trimmed.toLowerCase();
      if (TRUE.has(lower)) return ok(true);
      if (FALSE.has(lower)) return ok(false);
      return problem(`${def.slug} takes true or false, not ${quote(text)}.`);
    }
    case 'date': {
      const d = DATE.exec(trimmed);
      if (d) {
        if (!validDate(d[1]!, d[2]!, d[3]!))
          return problem(`${quote(text)} is not a date of the calendar (${def.slug}).`);
        return ok(trimmed);
      }
      const t = DATE_TIME.exec(trimmed);
      if (t && validDate(t[1]!, t[2]!, t[3]!) && !Number.isNaN(Date.parse(trimmed))) {
        return ok(new Date(trimmed).toISOString());
      }
      return problem(
        `${def.slug} takes ${expected(def)}, not ${quote(text)}.`,
        'For example 2026-03-31 or 2026-03-31T09:30:00Z.',
      );
    }
    case 'select': {
      const slug = findOption(def, trimmed);
      return slug === undefined ? optionProblem(def, trimmed) : ok(slug);
    }
    case 'multiselect': {
      const out: string[] = [];
      for (const part of splitList(text, sep)) {
        const slug = findOption(def, part);
        if (slug === undefined) return optionProblem(def, part);
        if (!out.includes(slug)) out.push(slug);
      }
      return ok(out);
    }
    case 'list':
      return ok(splitList(text, sep));
    case 'json':
      try {
        return ok(JSON.parse(text));
      } catch {
        return problem(
          `${def.slug} takes JSON, and ${quote(text)} is not valid JSON.`,
          'Quote JSON strings: \'"text"\'.',
        );
      }
    case 'reference':
      return isUuid(trimmed)
        ? ok(trimmed.toLowerCase())
        : problem(`${def.slug} takes a record id (a UUID), not ${quote(text)}.`);
    case 'references': {
      const ids = splitList(text, sep);
      const bad = ids.find((id) => !isUuid(id));
      if (bad !== undefined)
        return problem(`${def.slug} takes record ids (UUIDs), and ${quote(bad)} is not one.`);
      return ok(ids.map((id) => id.toLowerCase()));
    }
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

/**
 * Check a value that is already typed (from JSON or YAML) against its definition and
 * bring it to the form the API writes: strings are typed as text is, a number may stand
 * for text, a list for a multiselect, `{ id }` (how references read) for a reference.
 */
export function normaliseValue(
  def: ValueDefinition,
  value: unknown,
  opts: CoerceOptions = {},
): CoerceResult {
  const kind = kindOf(def.type);
  if (value === null || value === undefined) return coerceValue(def, 'null', opts);
  if (typeof value === 'string') {
    if (value === 'null' && kind === 'text') return ok(value);
    return coerceValue(def, value, opts);
  }
  const refId = (v: unknown): unknown =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && 'id' in v
      ? (v as { id: unknown }).id
      : v;
  switch (kind) {
    case 'text':
      if (typeof value === 'number' || typeof value === 'boolean') return ok(String(value));
      break;
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return ok(value);
      break;
    case 'boolean':
      if (typeof value === 'boolean') return ok(value);
      break;
    case 'json':
      return ok(value);
    case 'reference': {
      const id = refId(value);
      if (typeof id === 'string') return coerceValue(def, id, opts);
      break;
    }
    case 'select':
      if (typeof value === 'number') return coerceValue(def, String(value), opts);
      break;
    case 'list':
    case 'multiselect':
    case 'references': {
      if (!Array.isArray(value)) break;
      const out: unknown[] = [];
      for (const item of value) {
        const v = kind === 'references' ? refId(item) : item;
        if (typeof v !== 'string' && typeof v !== 'number') {
          return problem(`${def.slug} takes ${expected(def, opts)}; one item is ${typeName(v)}.`);
        }
        const r = kind === 'list' ? ok(String(v)) : coerceValue(def, String(v), opts);
        if (!r.ok) return r;
        for (const x of Array.isArray(r.value) ? r.value : [r.value])
          if (!out.includes(x)) out.push(x);
      }
      return ok(out);
    }
    default:
      break;
  }
  return problem(`${def.slug} takes ${expected(def, opts)}, not ${typeName(value)}.`);
}
