// Definitions and helpers shared by the --where parser tests.
import assert from 'node:assert/strict';
import { UsageError } from '../../src/errors.ts';
import type { PropertyDefinition } from '../../src/query/slugs.ts';

let n = 0;
function def(
  slug: string,
  type: string,
  extra: Partial<PropertyDefinition> = {},
): PropertyDefinition {
  n++;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    slug,
    type: type as PropertyDefinition['type'],
    name: slug,
    ...extra,
  };
}

function option(slug: string, value: string, sortIndex: number) {
  return {
    id: `10000000-0000-4000-8000-00000000000${sortIndex}`,
    slug,
    value,
    sort_index: sortIndex,
  };
}

export const DEFS: PropertyDefinition[] = [
  def('name', 'str'),
  def('amount', 'num'),
  def('email', 'str'),
  def('phone', 'str'),
  def('active', 'bool'),
  def('created_at', 'date'),
  def('organization', 'ref_organization'),
  def('stage', 'select_str', {
    options: [
      option('won', 'Won', 1),
      option('lost', 'Lost', 2),
      option('in_progress', 'In progress', 3),
    ],
  }),
];

/** The usage error `fn` throws: its message and hint. */
export function usage(fn: () => unknown): { message: string; hint: string | undefined } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof UsageError, `expected a UsageError, got ${String(err)}`);
    return { message: err.message, hint: err.hint };
  }
  assert.fail('expected a UsageError');
}
