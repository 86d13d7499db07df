// Rules that definitions and options share: how slugs look, how names compare (ignoring
// case), how a list scope is set (crm_id mirrors list_id), how messages name a definition,
// and the 400 and 409 answers that name a field or the definition in the way.

import { invalidRequest, SandboxError } from '../../errors.ts';
import { SLUG_PATTERN } from './catalogue.ts';
import type { PropertyDefinition } from './types.ts';

/** 409 conflict, with details naming what is in the way. */
export function conflict(message: string, details?: Record<string, unknown>): SandboxError {
  return new SandboxError(409, 'conflict', message, undefined, details ? { details } : {});
}

/** 400 invalid_request with one field error. */
export function fieldError(field: string, code: string, message: string): SandboxError {
  return invalidRequest(message, [{ field, message, code }]);
}

/** Names (of definitions, or values of options) compare ignoring case and Unicode form. */
export function sameName(a: string | null, b: string): boolean {
  return a !== null && a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();
}

/** `'Deal size' (slug deal_size, id …)`: how messages name a definition. */
export function describeDefinition(def: PropertyDefinition): string {
  return `'${def.name ?? def.slug}' (slug ${def.slug}, id ${def.id})`;
}

/** The fields of a definition that error details carry. */
export function summary(def: PropertyDefinition): Record<string, unknown> {
  return { id: def.id, slug: def.slug, name: def.name, list_id: def.list_id };
}

/** Put a definition or an option on a list (null: every list), with its crm_id mirror. */
export function setList(
  target: { list_id: string | null; crm_id: string | null },
  listId: string | null,
) {
  target.list_id = listId;
  target.crm_id = listId;
}

/** 400 for a slug that does not fit SLUG_PATTERN, or a property slug `id` (reserved). */
export function checkSlug(slug: string, field: string, what: 'property' | 'option'): void {
  if (!SLUG_PATTERN.test(slug)) {
    throw fieldError(
      field,
      'pattern',
      `The ${what} slug '${slug}' is not valid: use 1 to 64 lower-case letters, digits and underscores, starting with a letter or digit.`,
    );
  }
  if (what === 'property' && slug === 'id') {
    throw fieldError(
      field,
      'reserved',
      "The slug 'id' is reserved for the record id; choose another.",
    );
  }
}
