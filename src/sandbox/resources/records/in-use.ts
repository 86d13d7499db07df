// Property definitions that records still use: deleting a definition while an active record
// holds a value for it answers 409 `property_in_use` (facts.md, "What the official client
// sends"), so that values never vanish with their definition. The properties model asks
// before a delete (the propertyLeaving check); the records resource answers it here.

import { SandboxError } from '../../errors.ts';
import { isObjectType } from '../../object-types.ts';
import type { Store } from '../../store.ts';
import { type PropertyLeaving, propertyLeaving } from '../properties/events.ts';
import { describeDefinition } from '../properties/rules.ts';
import { recordsOf } from './model.ts';

/** How many record ids the 409 names. */
const IDS_SHOWN = 3;

/** Refuse, from now on, to delete a definition that active records hold values for. */
export function refuseDeletingUsedProperties(store: Store): void {
  store.events.on(propertyLeaving, (leaving) => refuseIfUsed(store, leaving));
}

function refuseIfUsed(store: Store, leaving: PropertyLeaving): void {
  // A move to another list keeps the definition (its values follow the rules of the move).
  if (leaving.to !== undefined || !isObjectType(leaving.objectType)) return;
  const def = leaving.definition;
  const ids: string[] = [];
  let count = 0;
  for (const record of recordsOf(store).records(leaving.objectType)) {
    const values = def.list_id === null ? record.default : record.lists[def.list_id];
    if (values === undefined || !holds(values[def.slug])) continue;
    count++;
    if (ids.length < IDS_SHOWN) ids.push(record.id);
  }
  if (count === 0) return;
  const type = leaving.objectType;
  const more = count > IDS_SHOWN ? ` and ${count - IDS_SHOWN} more` : '';
  const where = def.list_id === null ? '' : ` on list ${def.list_id}`;
  throw new SandboxError(
    409,
    'property_in_use',
    `The ${type} property ${describeDefinition(def)} cannot be deleted: ${count} ${type} record${count === 1 ? ' holds' : 's hold'} a value for it${where} (${ids.join(', ')}${more}). Clear those values first (POST /v2/prism/${leaving.teamId}/${type}/query with the filter {"${def.slug}": {"is_not_null": true}} finds them), then delete the property.`,
    undefined,
    { details: { property_id: def.id, slug: def.slug, records: count, record_ids: ids } },
  );
}

/** A stored value, as the filter `is_not_null` sees one (not null, '', [] nor only ''). */
function holds(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.some((v) => v !== '');
  return value !== '';
}
