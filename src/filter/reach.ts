// What a filter's path reads of a record: one of the record's own values, or the values at
// the end of a dot path through references (`organization.industry`,
// `contacts.organization.name`). One reader for the sandbox's record filters and the
// automation evaluator's state filters, so that a path reads the same in both: the first
// step reads the record's value of the definition's list (or the workspace's), later steps
// the workspace values of each record reached; a reference to a record that is not there
// reaches nothing, and slugs are never read from Object.prototype.

import { own } from '../util/guards.ts';

type Values = Readonly<Record<string, unknown>>;

export interface ReachedRecord {
  readonly default: Values;
  readonly lists?: Readonly<Record<string, Values>> | undefined;
}

/** One step of a path, as its definition says it. */
export interface ReachStep {
  readonly slug: string;
  /** The list whose values hold the property (null or undefined: the workspace's). */
  readonly listId?: string | null | undefined;
  /** Every step but the last: the object type its reference points at. */
  readonly target?: string | undefined;
}

/** A record's own value of a property: a workspace value, or a value of the property's list. */
export function ownValueOf(record: ReachedRecord, slug: string, listId?: string | null): unknown {
  return listId == null ? own(record.default, slug) : own(own(record.lists, listId), slug);
}

/** The values `steps` reach from a record: one per record reached (undefined when unset). */
export function reachAlong<R extends ReachedRecord>(
  steps: readonly ReachStep[],
  recordOf: (type: string, id: string) => R | undefined,
): (record: R) => unknown[] {
  const last = steps.length - 1;
  const walk = (record: R, i: number, out: unknown[]): void => {
    const step = steps[i]!;
    const value = ownValueOf(record, step.slug, i === 0 ? step.listId : null);
    if (i === last) {
      out.push(value);
      return;
    }
    const ids = Array.isArray(value) ? value : value === undefined ? [] : [value];
    for (const id of ids) {
      if (typeof id !== 'string') continue;
      const next = recordOf(step.target!, id);
      if (next !== undefined) walk(next, i + 1, out);
    }
  };
  return (record) => {
    const out: unknown[] = [];
    walk(record, 0, out);
    return out;
  };
}
