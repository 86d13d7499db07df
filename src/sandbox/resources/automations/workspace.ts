// The sandbox's store as the automation evaluator reads a workspace (src/automation-engine/
// types.ts, Workspace): a team's property definitions through the properties model, and
// referenced records through the records model (soft-deleted ones too, as record queries
// read them). Object types without definitions in the sandbox (message, linkedin_message)
// answer undefined: their slugs go unchecked.

import type { RecordData, Workspace } from '../../../automation-engine/types.ts';
import { isObjectType } from '../../object-types.ts';
import type { Store } from '../../store.ts';
import { isPropertyObjectType } from '../properties/catalogue.ts';
import { propertiesOf } from '../properties/model.ts';
import { recordsOf } from '../records/model.ts';

/** Team `teamId`'s workspace in `store`. */
export function workspaceOf(store: Store, teamId: string): Workspace {
  const properties = propertiesOf(store);
  const records = recordsOf(store);
  return {
    definitions: (objectType, listId) =>
      isPropertyObjectType(objectType) ? properties.visible(teamId, objectType, listId) : undefined,
    record: (objectType, id): RecordData | undefined =>
      isObjectType(objectType) ? records.get(objectType, id) : undefined,
  };
}
