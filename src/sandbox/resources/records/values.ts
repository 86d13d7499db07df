// Written record values, checked against the property definitions and normalised into what
// the model stores: numbers, booleans, strings, dates as ISO-8601 (a date stays YYYY-MM-DD, a
// date-time becomes UTC with milliseconds), select values as option slugs, multi-valued
// properties as arrays, references as record ids. A null clears a value.
//
// A body that breaks these rules is refused whole: 400 invalid_request listing every bad
// field (`default.amount`, `list.<listId>.stage`), or 422 unprocessable when the only
// problems are required properties left empty.

import { normaliseDate } from '../../../filter/compare.ts';
import { isPlainObject, isUuid } from '../../../util/guards.ts';
import { type FieldError, invalidRequest, SandboxError } from '../../errors.ts';
import {
  definitionsBySlug,
  definitionsIn,
  findOption,
  isMultiValued,
  isReference,
  optionList,
  referenceTarget,
  type Scope,
} from '../properties/scope.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import { recordsOf } from './model.ts';
import type { RecordChanges, StoredRecord, Values } from './types.ts';

/** The record body of create, patch, upsert and batch items: `{ default?, list? }`. */
export interface RecordInput {
  default?: unknown;
  list?: unknown;
}

export type WriteMode = 'create' | 'patch';

/** A value problem found while checking a write. */
interface Problem extends FieldError {
  /** Required-rule violations alone make a 422; anything else a 400. */
  required?: boolean;
}

/**
 * Check a record body against the definitions of `scope` (its type, workspace-wide) and turn
 * it into model changes. `current` is the record a patch applies to. Throws SandboxError.
 */
export function checkWrite(
  scope: Scope,
  input: RecordInput,
  mode: WriteMode,
  current?: Readonly<StoredRecord>,
): RecordChanges {
  const problems: Problem[] = [];
  const changes: RecordChanges = {};

  if (input.default !== undefined) {
    if (isPlainObject(input.default)) {
      changes.default = checkValues(scope, input.default, 'default', problems);
    } else {
      problems.push({
        field: 'default',
        code: 'type',
        message: 'must be an object of property values keyed by slug',
      });
    }
  }
  if (input.list !== undefined && input.list !== null) {
    if (isPlainObject(input.list)) {
      changes.lists = {};
      for (const [listId, values] of Object.entries(input.list)) {
        const field = `list.${listId}`;
        if (!isUuid(listId)) {
          problems.push({
            field,
            code: 'format',
            message: 'list ids (the keys of list) are UUIDs',
          });
        } else if (values === null) {
          changes.lists[listId] = null;
        } else if (!isPlainObject(values)) {
          problems.push({
            field,
            code: 'type',
            message:
              'must be an object of the list-scoped property values, or null to leave the list',
          });
        } else {
          changes.lists[listId] = checkValues({ ...scope, listId }, values, field, problems);
        }
      }
    } else {
      problems.push({
        field: 'list',
        code: 'type',
        message: 'must be an object keyed by list id, each with that list’s property values',
      });
    }
  }

  checkRequired(scope, changes, mode, current, problems);
  if (problems.length > 0) throw writeError(scope, problems);
  return changes;
}

/** The normalised values of one scope; problems are collected, bad values left out. */
function checkValues(
  scope: Scope,
  values: Record<string, unknown>,
  at: string,
  problems: Problem[],
): Values {
  // A copy of the given values, each replaced by its normalised form (a parsed body's object
  // holds its properties inline, and so does its spread copy, then the record's).
  const out: Values = { ...values };
  const definitions = definitionsBySlug(scope);
  for (const slug of Object.keys(values)) {
    const raw = values[slug];
    const def = definitions.get(slug);
    if (def === undefined || (scope.listId !== null && def.list_id !== scope.listId)) {
      problems.push({
        field: `${at}.${slug}`,
        code: 'unknown_property',
        message: unknownMessage(scope, slug, def),
      });
      delete out[slug];
      continue;
    }
    if (raw === null) continue;
    const result = normaliseValue(scope, def, raw);
    if ('problem' in result) {
      problems.push({ field: `${at}.${slug}`, ...result.problem });
      delete out[slug];
    } else {
      out[slug] = result.value;
    }
  }
  return out;
}

function unknownMessage(scope: Scope, slug: string, def: PropertyDefinition | undefined): string {
  if (def !== undefined) {
    return `'${slug}' is a workspace property: put it in default, not in list`;
  }
  const known = definitionsIn(scope)
    .filter((d) => scope.listId === null || d.list_id === scope.listId)
    .map((d) => d.slug);
  const where = scope.listId === null ? '' : ` on list ${scope.listId}`;
  return `${scope.type} has no property '${slug}'${where} (known: ${known.join(', ') || 'none'})`;
}

type Normalised = { value: unknown } | { problem: { code: string; message: string } };

const bad = (code: string, message: string): Normalised => ({ problem: { code, message } });

/** A written value of `def`, normalised for storage (not null: null clears). */
export function normaliseValue(scope: Scope, def: PropertyDefinition, raw: unknown): Normalised {
  if (isMultiValued(def)) {
    if (!Array.isArray(raw))
      return bad('type', `must be an array (${def.type}), got ${describe(raw)}`);
    const out: unknown[] = [];
    for (const [i, item] of raw.entries()) {
      const one = normaliseOne(scope, def, item);
      if ('problem' in one) {
        return bad(one.problem.code, `item ${i}: ${one.problem.message}`);
      }
      if (!out.includes(one.value)) out.push(one.value);
    }
    return { value: out };
  }
  return normaliseOne(scope, def, raw);
}

function normaliseOne(scope: Scope, def: PropertyDefinition, raw: unknown): Normalised {
  switch (def.type) {
    case 'num':
      return typeof raw === 'number' && Number.isFinite(raw)
        ? { value: raw }
        : bad('type', `must be a number, got ${describe(raw)}`);
    case 'bool':
      return typeof raw === 'boolean'
        ? { value: raw }
        : bad('type', `must be true or false, got ${describe(raw)}`);
    case 'date': {
      if (typeof raw !== 'string') {
        return bad('type', `must be an ISO-8601 date or date-time string, got ${describe(raw)}`);
      }
      const date = normaliseDate(raw);
      return date === undefined
        ? bad(
            'format',
            `'${raw}' is not an ISO-8601 date (2025-03-31) or date-time (2025-03-31T09:30:00Z)`,
          )
        : { value: date };
    }
    case 'jsonb':
      return { value: raw };
    case 'select_str':
    case 'multiselect_str': {
      if (typeof raw !== 'string') {
        return bad('type', `must be an option slug or id (a string), got ${describe(raw)}`);
      }
      const option = findOption(scope, def, raw);
      return option === undefined
        ? bad(
            'unknown_option',
            `'${raw}' is not an option of ${def.slug} (options: ${optionList(scope, def)})`,
          )
        : { value: option.slug };
    }
    default:
      if (isReference(def)) return normaliseReference(scope, def, raw);
      return typeof raw === 'string'
        ? { value: raw }
        : bad('type', `must be a string, got ${describe(raw)}`);
  }
}

/**
 * A reference: a record id, or `{ id, ... }` as reads return it. For the record types the
 * API serves, the record must exist (it may be soft-deleted).
 */
function normaliseReference(scope: Scope, def: PropertyDefinition, raw: unknown): Normalised {
  const id = isPlainObject(raw) ? raw['id'] : raw;
  const target = referenceTarget(def);
  const what = target ?? def.type.replace(/^(multi)?ref_/, '');
  if (typeof id !== 'string' || id === '') {
    return bad('type', `must be the id of a ${what} record (a string), got ${describe(raw)}`);
  }
  if (target === undefined) return { value: id };
  if (!isUuid(id) || recordsOf(scope.store).get(target, id) === undefined) {
    return bad('not_found', `no ${target} record has the id ${id}`);
  }
  return { value: id };
}

/** True when a value counts as given for a required property. */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * Required properties: a create must give each a non-empty value; a patch must not clear
 * one. Checked for the workspace values and for every list the write touches.
 */
function checkRequired(
  scope: Scope,
  changes: RecordChanges,
  mode: WriteMode,
  current: Readonly<StoredRecord> | undefined,
  problems: Problem[],
): void {
  const defaultBefore = mode === 'patch' ? (current?.default ?? {}) : undefined;
  checkRequiredIn(scope, changes.default, defaultBefore, 'default', problems);
  if (changes.lists === undefined) return;
  for (const [listId, values] of Object.entries(changes.lists)) {
    if (values === null) continue;
    const before = mode === 'patch' ? current?.lists[listId] : undefined;
    checkRequiredIn({ ...scope, listId }, values, before, `list.${listId}`, problems);
  }
}

/** The required rule in one scope: `values` written at `at`, over `before` (create: none). */
function checkRequiredIn(
  scope: Scope,
  values: Values | undefined,
  before: Values | undefined,
  at: string,
  problems: Problem[],
): void {
  for (const def of definitionsIn(scope)) {
    if (!def.required || def.list_id !== scope.listId) continue;
    const given = values !== undefined && Object.hasOwn(values, def.slug);
    const clears = given && isEmptyValue(values[def.slug]);
    const missing = before === undefined && !given;
    if (!(clears || missing)) continue;
    if (problems.some((p) => p.field === `${at}.${def.slug}`)) continue;
    problems.push({
      field: `${at}.${def.slug}`,
      code: 'required',
      message:
        before === undefined
          ? `${def.slug} is required: give it a non-empty value`
          : `${def.slug} is required and cannot be cleared`,
      required: true,
    });
  }
}

function writeError(scope: Scope, problems: Problem[]): SandboxError {
  const errors: FieldError[] = problems.map(({ field, code, message }) => ({
    field,
    code,
    message,
  }));
  const listed = errors
    .slice(0, 3)
    .map((e) => `${e.field}: ${e.message}`)
    .join('; ');
  const more = errors.length > 3 ? `; and ${errors.length - 3} more (see errors)` : '';
  if (problems.every((p) => p.required === true)) {
    return new SandboxError(
      422,
      'unprocessable',
      `The ${scope.type} record breaks a rule: ${listed}${more}.`,
      errors,
    );
  }
  return invalidRequest(`The ${scope.type} record is not valid: ${listed}${more}.`, errors);
}

/** `the string "100"`, `a number (3)`, `an object`: how messages name what was sent. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return `the boolean ${value}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/**
 * A value given as text (the `{value}` of upsert by value), as a write of `def` takes it:
 * numbers and booleans parsed, one value of a multi-valued property as a one-item array.
 * What it cannot parse is left as text, for checkWrite to report.
 */
export function valueFromText(def: PropertyDefinition, text: string): unknown {
  if (isMultiValued(def)) return [text];
  if (def.type === 'num') {
    const n = text.trim() === '' ? Number.NaN : Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (def.type === 'bool' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
